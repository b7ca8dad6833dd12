-- Seasons: a chat's rating runs in calendar months (or quarters, or not at all), in the
-- chat's time zone; the all-time `ratings` stay as they are. Every chat's first season
-- starts with its first game after this migration.
ALTER TABLE chat_settings ADD COLUMN season_length TEXT NOT NULL DEFAULT 'month';
ALTER TABLE chat_settings ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'Europe/Moscow';

-- a chat's seasons, numbered from 1; the last one runs until a game ends at or after
-- `ends_at` (seconds since the epoch; NULL: no end) or the chat's season length changes:
-- that game's transaction sets `closed_at` (once: the claim of the announcement) and
-- opens the next; `announced` once the group has been shown the season's table
CREATE TABLE seasons (
    chat_id BIGINT NOT NULL,
    number INTEGER NOT NULL,
    length TEXT NOT NULL,        -- month, quarter or none
    period TEXT NOT NULL,        -- 2026-12, 2026-Q4 or '' (none): for the season's name
    started_at DOUBLE PRECISION NOT NULL,
    ends_at DOUBLE PRECISION,
    closed_at DOUBLE PRECISION,
    announced INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (chat_id, number)
);

-- a person's rating in one season of a chat: counters of the season's rated games, the
-- skill now and the skill the season started them from
CREATE TABLE season_ratings (
    chat_id BIGINT NOT NULL,
    season INTEGER NOT NULL,
    user_id BIGINT NOT NULL,
    games INTEGER NOT NULL DEFAULT 0,
    wins INTEGER NOT NULL DEFAULT 0,
    goats INTEGER NOT NULL DEFAULT 0,
    rating_points INTEGER NOT NULL DEFAULT 0,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    start_mu DOUBLE PRECISION NOT NULL,
    start_sigma DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (chat_id, season, user_id)
);

CREATE INDEX season_ratings_of_user ON season_ratings (chat_id, user_id, season);
