-- Messages still owed about stored turns: a round's result and a game's end are marked once
-- they are sent, so a restart sends what a crash cut off (rows from before: already sent).
ALTER TABLE round_results ADD COLUMN announced INTEGER NOT NULL DEFAULT 1;
ALTER TABLE games ADD COLUMN end_announced INTEGER NOT NULL DEFAULT 1;
