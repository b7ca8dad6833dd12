-- Skill ratings (openskill mu/sigma), every finished game's results per person (for the
-- stats), chat settings, the user's language and the "/nextgame" waiters.

ALTER TABLE ratings ADD COLUMN mu REAL NOT NULL DEFAULT 25.0;
ALTER TABLE ratings ADD COLUMN sigma REAL NOT NULL DEFAULT 8.333333333333334;

-- one row per person's seat of every finished game, rated or not; game_id gives the order
CREATE TABLE game_results (
    game_id INTEGER NOT NULL REFERENCES games (id),
    chat_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    side INTEGER NOT NULL,
    place INTEGER NOT NULL,      -- 1 is best; partners share a place
    win INTEGER NOT NULL,        -- place 1
    goat INTEGER NOT NULL,
    bald INTEGER NOT NULL,       -- a goat of a game ended by "bald_goat"
    score INTEGER NOT NULL,
    rating_points INTEGER NOT NULL,
    rated INTEGER NOT NULL,      -- 0 for games with computers
    preset TEXT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

CREATE INDEX game_results_of_user ON game_results (user_id, game_id);
CREATE INDEX game_results_of_chat ON game_results (chat_id, game_id);

-- the games finished before this migration, from their stored outcome
INSERT OR IGNORE INTO game_results
SELECT g.id, g.chat_id, p.user_id, p.seat,
       json_extract(pl.value, '$.side'),
       json_extract(pl.value, '$.place'),
       json_extract(pl.value, '$.place') = 1,
       json_extract(pl.value, '$.goat'),
       json_extract(pl.value, '$.goat') AND g.end_reason = 'bald_goat',
       json_extract(pl.value, '$.score'),
       json_extract(pl.value, '$.rating_points'),
       NOT EXISTS (SELECT 1 FROM players r WHERE r.game_id = g.id AND r.robot IS NOT NULL),
       COALESCE(json_extract(g.rules, '$.preset'), 'goat')
FROM games g
JOIN json_each(g.state, '$.outcome.places') pl
JOIN players p ON p.game_id = g.id AND p.seat = json_extract(pl.value, '$.seat')
WHERE g.status = 'finished' AND p.robot IS NULL;

CREATE TABLE chat_settings (
    chat_id INTEGER PRIMARY KEY,
    options TEXT NOT NULL DEFAULT '',    -- the chat's default /newgame preset and options
    language TEXT NOT NULL DEFAULT 'ru',
    computers INTEGER NOT NULL DEFAULT 1 -- computer players allowed
);

ALTER TABLE users ADD COLUMN language TEXT;           -- chosen for the private chat, NULL: follow Telegram
ALTER TABLE users ADD COLUMN telegram_language TEXT;  -- the last language_code Telegram sent

-- users to be told in private when the chat's next game starts
CREATE TABLE waiters (
    chat_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    PRIMARY KEY (chat_id, user_id)
);
