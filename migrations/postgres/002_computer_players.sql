-- Computer players: a seat played by the bot at a level (easy, normal, hard).
ALTER TABLE players ADD COLUMN robot TEXT;
