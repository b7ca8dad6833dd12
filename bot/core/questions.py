"""The /endgame questions still open (table `questions`): each is remembered with the game
it asks about when it is sent, so that whatever ends the game — a confirmation, the last
round, a time-out, everyone leaving — closes every one of them, after a restart too."""

from __future__ import annotations

from typing import NamedTuple

from bot.core.storage import Storage


class Question(NamedTuple):
    """An /endgame question's message."""

    chat_id: int
    message_id: int


class Questions:
    """The open /endgame questions, by game."""

    def __init__(self, storage: Storage) -> None:
        self.database = storage.database

    async def asked(self, game_id: int, question: Question) -> None:
        """The question was sent about game `game_id`."""
        await self.database.write(
            "INSERT INTO questions (chat_id, message_id, game_id) VALUES (?, ?, ?) "
            "ON CONFLICT (chat_id, message_id) DO NOTHING",
            (question.chat_id, question.message_id, game_id),
        )

    async def of(self, game_id: int) -> list[Question]:
        """The game's questions not closed yet, oldest first."""
        rows = await self.database.rows(
            "SELECT chat_id, message_id FROM questions WHERE game_id = ? ORDER BY message_id",
            (game_id,),
        )
        return [Question(int(row[0]), int(row[1])) for row in rows]

    async def closed(self, question: Question) -> None:
        """The question says the game is over (or is gone): nothing more to do with it."""
        await self.database.write(
            "DELETE FROM questions WHERE chat_id = ? AND message_id = ?",
            (question.chat_id, question.message_id),
        )
