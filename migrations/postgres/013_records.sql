-- Every game a record (docs/RECORD.md): a finished game's record, kept once built; each
-- finished round's deal code (a random key to its deal, for /newgame deal=CODE and /deal);
-- the code a game's first round was dealt from; the round replays already sent (their
-- Telegram file ids, so a second press only sends again); and whether a chat lets its
-- names show beside a shared deal.
CREATE TABLE records (
    game_id BIGINT PRIMARY KEY REFERENCES games (id),
    chat_id BIGINT NOT NULL,
    record TEXT NOT NULL
);
CREATE INDEX records_by_chat ON records (chat_id, game_id);

ALTER TABLE round_results ADD COLUMN deal_code TEXT;
CREATE INDEX round_results_by_code ON round_results (deal_code);

ALTER TABLE games ADD COLUMN dealt_from TEXT;

CREATE TABLE replays (
    game_id BIGINT NOT NULL REFERENCES games (id),
    round_no INTEGER NOT NULL,
    language TEXT NOT NULL,
    file_id TEXT NOT NULL,
    PRIMARY KEY (game_id, round_no, language)
);

ALTER TABLE chat_settings ADD COLUMN shows_deals INTEGER NOT NULL DEFAULT 0;
