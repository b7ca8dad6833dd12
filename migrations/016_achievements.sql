-- Achievements (badges): each one a person earned in a chat with a finished game, judged
-- from the game's record; a game earns an achievement once per person, so judging a game
-- again (live, or `python -m bot achievements --backfill`) writes nothing new.
CREATE TABLE achievements (
    chat_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    achievement TEXT NOT NULL,
    game_id INTEGER NOT NULL REFERENCES games (id),
    PRIMARY KEY (chat_id, user_id, achievement, game_id)
);
CREATE INDEX achievements_by_game ON achievements (game_id);
CREATE INDEX achievements_by_user ON achievements (user_id, achievement);
