"""The Telegram messages behind a game, as the database keeps them: the ids of its lobby,
table and hands (columns of its `games` and `players` rows), and a digest of what each
message the bot sent or edited shows (so an edit that would change nothing is skipped).
Only the Telegram shell knows of messages; the core reads the ids with the game."""

from __future__ import annotations

from bot.core.database import Database


class MessageReferences:
    """The repository of the messages' ids and digests, on either database."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        await self.database.write(
            "UPDATE games SET lobby_message_id = ? WHERE id = ?", (message_id, game_id)
        )

    async def set_table_message(self, game_id: int, message_id: int | None) -> None:
        await self.database.write(
            "UPDATE games SET table_message_id = ? WHERE id = ?", (message_id, game_id)
        )

    async def set_hand_message(self, game_id: int, seat: int, message_id: int | None) -> None:
        await self.database.write(
            "UPDATE players SET hand_message_id = ? WHERE game_id = ? AND seat = ?",
            (message_id, game_id, seat),
        )

    async def shown(self, chat_id: int, message_id: int) -> str | None:
        """The digest of what the message showed when the bot last sent or edited it."""
        rows = await self.database.rows(
            "SELECT digest FROM shown WHERE chat_id = ? AND message_id = ?", (chat_id, message_id)
        )
        return str(rows[0][0]) if rows else None

    async def set_shown(self, chat_id: int, message_id: int, digest: str | None) -> None:
        """Remember what the message shows now (None: it is gone)."""
        if digest is None:
            await self.database.write(
                "DELETE FROM shown WHERE chat_id = ? AND message_id = ?", (chat_id, message_id)
            )
            return
        await self.database.write(
            "INSERT INTO shown (chat_id, message_id, digest) VALUES (?, ?, ?) "
            "ON CONFLICT (chat_id, message_id) DO UPDATE SET digest = excluded.digest",
            (chat_id, message_id, digest),
        )
