-- Turn timers: when the current turn runs out, and seats the computer plays for a while.
ALTER TABLE games ADD COLUMN deadline DOUBLE PRECISION;  -- epoch seconds; NULL: nobody is timed now
ALTER TABLE players ADD COLUMN missed INTEGER NOT NULL DEFAULT 0;  -- turns timed out in a row
ALTER TABLE players ADD COLUMN away INTEGER NOT NULL DEFAULT 0;  -- the computer plays the seat
