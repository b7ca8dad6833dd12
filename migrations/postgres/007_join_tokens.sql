-- A lobby's deep link carries a random token, not the guessable game id; lobbies open at
-- the upgrade get one now (their message shows the new link when the bot starts).
ALTER TABLE games ADD COLUMN join_token TEXT;
UPDATE games SET join_token = substr(md5(random()::text || id::text), 1, 18)
    WHERE status IN ('lobby', 'active');
CREATE UNIQUE INDEX games_by_join_token ON games (join_token);
