-- Chats, players, games with their state, the append-only move log, round results and
-- per-chat ratings.

CREATE TABLE chats (
    id INTEGER PRIMARY KEY,
    type TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT ''
);

CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    username TEXT,
    started INTEGER NOT NULL DEFAULT 0,  -- has opened a private chat with the bot
    blocked INTEGER NOT NULL DEFAULT 0   -- answered 403 the last time we wrote
);

CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id INTEGER NOT NULL,
    thread_id INTEGER NOT NULL DEFAULT 0,  -- forum topic, 0 outside topics
    creator_id INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    rules TEXT NOT NULL,        -- RuleSet options as JSON
    seed INTEGER NOT NULL,
    state TEXT,                 -- engine state as JSON once started
    version INTEGER NOT NULL DEFAULT 0,  -- entries in the move log
    lobby_message_id INTEGER,
    table_message_id INTEGER,
    created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
    ended_at TEXT,
    end_reason TEXT
);

CREATE UNIQUE INDEX one_open_game_per_topic
    ON games (chat_id, thread_id) WHERE status IN ('lobby', 'active');

CREATE TABLE players (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    hand_message_id INTEGER,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);

CREATE TABLE moves (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seq INTEGER NOT NULL,       -- 1, 2, … = games.version after the entry
    user_id INTEGER,            -- who pressed, NULL for the bot's own steps
    entry TEXT NOT NULL,        -- serial.py log entry as JSON
    created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE round_results (
    game_id INTEGER NOT NULL REFERENCES games (id),
    round_no INTEGER NOT NULL,
    result TEXT NOT NULL,       -- RoundEnded as JSON
    PRIMARY KEY (game_id, round_no)
);

CREATE TABLE ratings (
    chat_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    games INTEGER NOT NULL DEFAULT 0,
    wins INTEGER NOT NULL DEFAULT 0,
    goats INTEGER NOT NULL DEFAULT 0,
    rating_points INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (chat_id, user_id)
);
