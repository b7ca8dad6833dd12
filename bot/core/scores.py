"""The read side of results: a chat's leaderboard, a player's ratings everywhere, stats, and
the sheet /score shows."""

from __future__ import annotations

from bot.core.records import GameRow, PlayerStats, RatingRow
from bot.core.storage import Storage


class Scores:
    """Plain queries for the handlers; nothing here changes anything."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def leaderboard(
        self, chat_id: int, user_id: int, offset: int, limit: int
    ) -> tuple[list[tuple[int, RatingRow]], int, tuple[int, RatingRow] | None]:
        """One page of `(rank, row)`s, how many rows there are, and the user's own."""
        return await self.storage.leaderboard(chat_id, user_id, offset, limit)

    async def ratings_of(self, user_id: int) -> list[tuple[str, RatingRow]]:
        """`(chat title, row)` of every chat the user is rated in, best first."""
        return await self.storage.ratings_of(user_id)

    async def stats(self, user_id: int, chat_id: int | None) -> PlayerStats:
        return await self.storage.stats(user_id, chat_id)

    async def sheet_game(self, chat_id: int, thread_id: int) -> GameRow | None:
        """The game /score shows: the running one, else the last finished one."""
        game = await self.storage.open_game(chat_id, thread_id)
        if game is None or game.state is None:
            game = await self.storage.last_finished_game(chat_id, thread_id)
        return game if game is not None and game.state is not None else None
