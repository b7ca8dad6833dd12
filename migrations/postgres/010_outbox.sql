-- What the bot must say, kept until it is said: each row is one message job for a chat (its
-- kind, its payload as JSON, the key under which a newer one replaces it while it waits),
-- written by any worker and delivered by the one sender; deleted once done. Rows are
-- written under a transaction lock, so they commit in the order of their ids and the sender
-- reads on from the last one it took.
CREATE TABLE outbox (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    chat_id BIGINT NOT NULL,
    kind TEXT NOT NULL,
    key TEXT,
    payload TEXT NOT NULL,
    urgent INTEGER NOT NULL
);
