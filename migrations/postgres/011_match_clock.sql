-- «Генерал» is played against the clock: when the match's time is up (epoch seconds), set
-- when it starts; NULL for every other game. The round under way then is played out.
ALTER TABLE games ADD COLUMN ends_at DOUBLE PRECISION;
