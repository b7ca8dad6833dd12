-- The team a player picked in a room lobby with teams (0-based; NULL: by order of joining).
ALTER TABLE players ADD COLUMN team INTEGER;
