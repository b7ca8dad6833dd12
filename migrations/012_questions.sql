-- The /endgame questions still open, by the game they ask about: each is closed (edited to
-- say the game is over, its buttons gone) when its game ends, however it ends — after a
-- restart too.
CREATE TABLE questions (
    chat_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    game_id INTEGER NOT NULL,
    PRIMARY KEY (chat_id, message_id)
);
CREATE INDEX questions_by_game ON questions (game_id);
