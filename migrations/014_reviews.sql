-- «Разбор»: one review of a game's seat, made once and kept, so that every worker sends
-- the same one again; while one is being made (or sent) its maker holds it until
-- `held_until` (seconds since the epoch), so that a worker that ended while making one
-- lets it go.
CREATE TABLE reviews (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL,
    review TEXT,
    held_by TEXT,
    held_until REAL,
    PRIMARY KEY (game_id, seat)
);
