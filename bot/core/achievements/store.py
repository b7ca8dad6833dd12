"""Achievements judged and kept: a finished game's, live when its end is told and again by
the back-fill (`python -m bot achievements --backfill`), both the same way — from the
game's record and the person's games that ended before it in the chat — so judging a game
twice keeps the same rows. And what a person holds, the rarest first."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from bot.core.achievements.facts import Game, Past
from bot.core.achievements.kinds import Achievement, Earned, Held
from bot.core.achievements.rules import DEFINITIONS, earned
from bot.core.database import Transaction
from bot.core.history import History
from bot.core.storage import Storage
from bot.game.rules import RuleSet

ORDER = {a: i for i, a in enumerate(DEFINITIONS)}
KNOWN = frozenset(a.value for a in Achievement)  # a retired achievement's rows are left out


@dataclass(frozen=True, slots=True)
class Backfilled:
    games: int
    earned: int  # rows kept, new or not


class Achievements:
    """Judges finished games and reads what people hold."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def judge(self, game_id: int) -> list[Earned]:
        """Judge a finished game for every person who played it and keep what they earned
        (again: nothing new); what each earned, in seat order."""
        record = await History(self.storage).record(game_id)
        if record is None:
            return []
        game = Game(record)
        people = await self.storage.rows(
            "SELECT user_id, seat, chat_id FROM game_results WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )
        found: list[tuple[int, int, int, tuple[Achievement, ...]]] = []
        for user_id, seat, chat_id in people:
            past = await self._past(game_id, chat_id, user_id)
            found.append((user_id, seat, chat_id, tuple(earned(game, seat, past))))
        rows = [(c, u, a.value, game_id) for u, _, c, got in found for a in got]

        async def keep(db: Transaction) -> None:
            await db.executemany(
                "INSERT INTO achievements (chat_id, user_id, achievement, game_id) "
                "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                rows,
            )

        if rows:
            await self.storage.database.atomically(keep)
        return [Earned(game.seats[seat]["name"], got) for _, seat, _, got in found if got]

    async def backfill(self) -> Backfilled:
        """Judge every finished game, in the order they ended."""
        ids = await self.storage.rows(
            "SELECT id FROM games WHERE status = 'finished' ORDER BY ended_at, id"
        )
        kept = 0
        for (game_id,) in ids:
            kept += sum(len(e.achievements) for e in await self.judge(game_id))
        return Backfilled(len(ids), kept)

    async def held(self, user_id: int, chat_id: int | None) -> list[Held]:
        """The achievements a person holds in a chat (every chat if None), the rarest (the
        fewest holders among everyone) first."""
        scope, params = "user_id = ?", [user_id]
        if chat_id is not None:
            scope, params = scope + " AND chat_id = ?", [user_id, chat_id]
        mine = await self.storage.rows(
            f"SELECT achievement, COUNT(*) FROM achievements WHERE {scope} GROUP BY achievement",
            params,
        )
        if not mine:
            return []
        counts = await self.storage.rows(
            "SELECT achievement, COUNT(DISTINCT user_id) FROM achievements GROUP BY achievement"
        )
        holders: dict[str, int] = {row[0]: row[1] for row in counts}
        seen = (await self.storage.rows("SELECT COUNT(*) FROM users"))[0][0]
        known = [(Achievement(a), n) for a, n in mine if a in KNOWN]
        held = [Held(a, n, holders[a.value], max(seen, holders[a.value])) for a, n in known]
        return sorted(held, key=lambda h: (h.holders, ORDER[h.achievement]))

    async def _past(self, game_id: int, chat_id: int, user_id: int) -> Sequence[Past]:
        """The person's games in the chat that ended before this one, oldest first."""
        rows = await self.storage.rows(
            "SELECT r.win, r.goat, r.rated, g.rules FROM game_results r "
            "JOIN games g ON g.id = r.game_id JOIN games x ON x.id = ? "
            "WHERE r.chat_id = ? AND r.user_id = ? AND g.status = 'finished' "
            "AND (g.ended_at < x.ended_at OR (g.ended_at = x.ended_at AND g.id < x.id)) "
            "ORDER BY g.ended_at, g.id",
            (game_id, chat_id, user_id),
        )
        return [
            Past(
                win=bool(win),
                goat=bool(goat),
                format=RuleSet.from_options(json.loads(rules)).scoring,
                computers=not rated,
            )
            for win, goat, rated, rules in rows
        ]
