-- One name for computer players in code, storage and texts.
ALTER TABLE players RENAME COLUMN robot TO computer;

-- What each message the bot sent shows (a digest), so an edit that would change nothing is
-- never sent: Telegram answers it "message is not modified" and still counts it.
CREATE TABLE shown (
    chat_id BIGINT NOT NULL,
    message_id BIGINT NOT NULL,
    digest TEXT NOT NULL,
    PRIMARY KEY (chat_id, message_id)
);
