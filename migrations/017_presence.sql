-- Who is at a game's table in the app, on which worker: each worker writes its own people
-- (their page holds the game's stream there) and every worker keeps a mirror of the others'
-- (told by NOTIFY on `kozel_presence`); a stopped or silent worker's rows are swept by
-- another, which brings those people's hands up to date. Used with several workers.
CREATE TABLE presence (
    worker TEXT NOT NULL,
    game_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    since REAL NOT NULL,  -- epoch seconds of the arrival
    PRIMARY KEY (worker, game_id, user_id)
);
CREATE INDEX presence_by_person ON presence (game_id, user_id);
