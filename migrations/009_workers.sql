-- Workers sharing the database, each with its heartbeat, and the worker a game's duties
-- belong to (its clock, its computers' moves, the watchdog's looks, what a crash left
-- unsaid): the one that stored its last change; NULL: nobody's yet (games from before).
CREATE TABLE workers (
    id TEXT PRIMARY KEY,
    beat REAL NOT NULL  -- epoch seconds of its last sign of life
);
ALTER TABLE games ADD COLUMN owner TEXT;
-- the worker that stored a round's end tells it (another may have stored the next turn)
ALTER TABLE round_results ADD COLUMN teller TEXT;
CREATE INDEX open_games_by_owner ON games (owner) WHERE status IN ('lobby', 'active');
CREATE INDEX games_owing_an_end ON games (id) WHERE end_announced = 0;
CREATE INDEX rounds_owed ON round_results (game_id) WHERE announced = 0;
