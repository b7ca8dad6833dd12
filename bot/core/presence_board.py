"""Presence shared by the workers on one database (table `presence`): each worker writes
who is at a table in the app on it and says so by `NOTIFY` on `kozel_presence`, so every
worker's mirror knows them without a read per move; a worker stopped or silent is swept."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import NamedTuple

from bot.core.database import Claim, Database, Transaction

CHANNEL = "kozel_presence"
"""The channel's payload: `<worker> <sign><game>:<user> …`, `+` arrived, `-` gone."""
TOLD = 200  # people at most in one notification (its payload stays under 8000 bytes)

Key = tuple[int, int]
"""A person at a game's table: `(game_id, user_id)`."""


class Told(NamedTuple):
    """One notification: the worker whose people it names, who arrived, who is gone."""

    worker: str
    arrived: list[Key]
    gone: list[Key]


class PresenceBoard:
    """The `presence` table and its channel, as this worker (`worker`) uses them."""

    def __init__(
        self, database: Database, worker: str, clock: Callable[[], float] = time.time
    ) -> None:
        self.database = database
        self.worker = worker
        self.clock = clock

    async def write(self, arrived: Sequence[Key], gone: Sequence[Key]) -> None:
        """This worker's people who `arrived` and who are `gone`, stored and told at once."""
        now = self.clock()

        async def write(db: Transaction) -> None:
            if arrived:
                await db.executemany(
                    "INSERT INTO presence (worker, game_id, user_id, since) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT DO NOTHING",
                    [(self.worker, game, user, now) for game, user in arrived],
                )
            if gone:
                await db.executemany(
                    "DELETE FROM presence WHERE worker = ? AND game_id = ? AND user_id = ?",
                    [(self.worker, game, user) for game, user in gone],
                )
            await _tell(db, self.worker, arrived, gone)

        await self.database.atomically(write)

    async def everyone(self) -> list[tuple[str, Key]]:
        """The other workers' people, as stored now."""
        found = await self.database.rows(
            "SELECT worker, game_id, user_id FROM presence WHERE worker <> ?", (self.worker,)
        )
        return [(row[0], (int(row[1]), int(row[2]))) for row in found]

    async def anywhere(self, key: Key) -> bool:
        """Whether the person is at the table on any worker, as stored now."""
        found = await self.database.rows(
            "SELECT 1 FROM presence WHERE game_id = ? AND user_id = ? LIMIT 1", key
        )
        return bool(found)

    async def sweep(self, silent_since: float) -> list[Key]:
        """The people of the other workers not heard from since `silent_since` (stopped,
        or dead), there since before it: no longer stored, and told gone; each returned to
        one sweeping worker only (the rows' locks)."""

        async def sweep(db: Transaction) -> list[tuple[str, Key]]:
            found = await db.fetch(
                "DELETE FROM presence WHERE worker <> ? AND since < ? AND worker NOT IN "
                "(SELECT id FROM workers WHERE beat >= ?) RETURNING worker, game_id, user_id",
                (self.worker, silent_since, silent_since),
            )
            swept = [(str(row[0]), (int(row[1]), int(row[2]))) for row in found]
            for worker in sorted({worker for worker, _ in swept}):
                await _tell(db, worker, [], [key for whose, key in swept if whose == worker])
            return swept

        return [key for _, key in await self.database.atomically(sweep)]

    async def listen(self, hear: Callable[[Told], None]) -> Claim:
        """`hear` each notification of the other workers' people, until released."""

        def heard(said: str) -> None:
            told = _parsed(said)
            if told is not None and told.worker != self.worker:
                hear(told)

        return await self.database.listen(CHANNEL, heard)


async def _tell(db: Transaction, worker: str, arrived: Sequence[Key], gone: Sequence[Key]) -> None:
    marked = [f"+{g}:{u}" for g, u in arrived] + [f"-{g}:{u}" for g, u in gone]
    for start in range(0, len(marked), TOLD):
        said = " ".join([worker, *marked[start : start + TOLD]])
        await db.execute("SELECT pg_notify(?, ?)", (CHANNEL, said))


def _parsed(said: str) -> Told | None:
    """A notification's news (None if it cannot be read)."""
    worker, *marked = said.split(" ")
    told = Told(worker, [], [])
    try:
        for mark in marked:
            game, _, user = mark[1:].partition(":")
            (told.arrived if mark[0] == "+" else told.gone).append((int(game), int(user)))
    except (ValueError, IndexError):
        return None
    return told
