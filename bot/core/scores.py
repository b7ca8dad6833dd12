"""The read side of results: a chat's leaderboard, a player's ratings everywhere, stats, and
the sheet /score shows."""

from __future__ import annotations

import json

from bot.core.rows import GameRow, PlayerStats, RatingRow
from bot.core.stats import RACES, GamePlayed, RoundPlayed, player_stats
from bot.core.storage import Storage


class Scores:
    """Plain queries for the handlers: leaderboards, ratings, stats; nothing here changes
    anything."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def ratings(self, chat_id: int) -> list[RatingRow]:
        """The chat's leaderboard: rating, then rating points, wins, fewer goats."""
        rows = await self.storage.rows(
            f"SELECT {_RATING_COLUMNS} FROM ratings r LEFT JOIN users u ON u.id = r.user_id "
            "WHERE r.chat_id = ?",
            (chat_id,),
        )
        return sorted((RatingRow(*row) for row in rows), key=RatingRow.order)

    async def leaderboard(
        self, chat_id: int, user_id: int, offset: int, limit: int
    ) -> tuple[list[tuple[int, RatingRow]], int, tuple[int, RatingRow] | None]:
        """One page of `(rank, row)`s of the leaderboard, how many rows it has, and the
        user's own `(rank, row)` (None if not rated there)."""
        ranked = list(enumerate(await self.ratings(chat_id), start=1))
        mine = next(((i, r) for i, r in ranked if r.user_id == user_id), None)
        return ranked[offset : offset + limit], len(ranked), mine

    async def plays_races(self, chat_id: int) -> bool:
        """Whether the chat has finished a game where the highest score wins."""
        marks = ", ".join("?" * len(RACES))
        rows = await self.storage.rows(
            f"SELECT 1 FROM game_results WHERE chat_id = ? AND preset IN ({marks}) LIMIT 1",
            (chat_id, *sorted(RACES)),
        )
        return bool(rows)

    async def ratings_of(self, user_id: int) -> list[tuple[str, RatingRow]]:
        """`(chat title, row)` of every chat the user is rated in, best rating first."""
        rows = await self.storage.rows(
            f"SELECT COALESCE(NULLIF(c.title, ''), CAST(r.chat_id AS TEXT)), {_RATING_COLUMNS} "
            "FROM ratings r LEFT JOIN users u ON u.id = r.user_id "
            "LEFT JOIN chats c ON c.id = r.chat_id WHERE r.user_id = ?",
            (user_id,),
        )
        found = [(row[0], RatingRow(*row[1:])) for row in rows]
        return sorted(found, key=lambda chat: (chat[1].order(), chat[0]))

    async def stats(self, user_id: int, chat_id: int | None) -> PlayerStats:
        """The user's finished games in `chat_id` (every chat if None), rated or not."""
        scope = "gr.user_id = ? AND g.status = 'finished'"
        params: tuple[int, ...] = (user_id,)
        if chat_id is not None:
            scope += " AND gr.chat_id = ?"
            params += (chat_id,)
        games = await self.storage.rows(
            "SELECT gr.game_id, gr.win, gr.goat, gr.bald, gr.preset, gr.place FROM game_results gr "
            f"JOIN games g ON g.id = gr.game_id WHERE {scope} ORDER BY gr.game_id",
            params,
        )
        rounds = (
            await self.storage.rows(
                "SELECT gr.game_id, gr.seat, r.result FROM round_results r "
                "JOIN game_results gr ON gr.game_id = r.game_id "
                f"JOIN games g ON g.id = gr.game_id WHERE {scope}",
                params,
            )
            if games
            else []
        )
        return player_stats(
            [
                GamePlayed(
                    game_id=r[0],
                    win=bool(r[1]),
                    goat=bool(r[2]),
                    bald=bool(r[3]),
                    preset=r[4],
                    place=r[5],
                )
                for r in games
            ],
            [RoundPlayed(game_id, seat, json.loads(text)) for game_id, seat, text in rounds],
        )

    async def sheet_game(self, chat_id: int, thread_id: int) -> GameRow | None:
        """The game /score shows: the running one, else the last finished one."""
        game = await self.storage.games.open_game(chat_id, thread_id)
        if game is None or game.state is None:
            game = await self.storage.games.last_finished_game(chat_id, thread_id)
        return game if game is not None and game.state is not None else None


_RATING_COLUMNS = (
    "r.user_id, COALESCE(u.name, CAST(r.user_id AS TEXT)), r.games, r.wins, r.goats, "
    "r.rating_points, r.mu, r.sigma"
)
