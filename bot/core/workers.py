"""The workers' repository (`crew`): each worker's heartbeat, and the games a worker
takes over from one that stopped or went silent, on either database."""

from __future__ import annotations

from bot.core.database import Database, Transaction
from bot.core.reading import GameReader
from bot.core.rows import OPEN, GameRow

BEAT = 2.0  # seconds between a worker's signs of life (and its looks for orphaned games)
DEAD = 10.0  # seconds of silence after which a worker's games are adopted


class Workers:
    """The workers sharing the database, as this one (`worker`) sees them."""

    def __init__(self, database: Database, worker: str) -> None:
        self.database = database
        self.worker = worker
        self._read = GameReader(database)

    async def beat(self, now: float) -> None:
        """This worker is alive at `now`."""
        await self.database.write(
            "INSERT INTO workers (id, beat) VALUES (?, ?) "
            "ON CONFLICT (id) DO UPDATE SET beat = excluded.beat",
            (self.worker, now),
        )

    async def alive(self, since: float) -> list[str]:
        """The workers that have beaten since `since`, in the order of their ids."""
        found = await self.database.rows(
            "SELECT id FROM workers WHERE beat >= ? ORDER BY id", (since,)
        )
        return [row[0] for row in found]

    async def leave(self) -> None:
        """This worker stops: its games are nobody's, and it is no longer about."""

        async def leave(db: Transaction) -> None:
            await db.execute("UPDATE games SET owner = NULL WHERE owner = ?", (self.worker,))
            await db.execute("DELETE FROM workers WHERE id = ?", (self.worker,))

        await self.database.atomically(leave)

    async def adopt(self, alive_since: float) -> list[GameRow]:
        """Make this worker's every open game, and every finished one still owing the chat
        its end or a round, that nobody holds or whose worker has not beaten since
        `alive_since` — and every game owing a round whose teller is gone so (the next
        turn may have been stored elsewhere); those games, oldest first, with their owed
        rounds this worker's to tell. Two workers adopting at once take each game once:
        the update's row lock lets the second find it held by a live one."""
        alive = "(SELECT id FROM workers WHERE beat >= ?)"

        async def adopt(db: Transaction) -> list[int]:
            taken = await db.fetch(
                "UPDATE games SET owner = ? WHERE ((status IN (?, ?) OR (status = 'finished' "
                "AND (end_announced = 0 OR id IN "
                "(SELECT game_id FROM round_results WHERE announced = 0)))) "
                f"AND (owner IS NULL OR (owner <> ? AND owner NOT IN {alive}))) "
                "OR id IN (SELECT game_id FROM round_results WHERE announced = 0 "
                f"AND (teller IS NULL OR (teller <> ? AND teller NOT IN {alive}))) RETURNING id",
                (self.worker, *OPEN, self.worker, alive_since, self.worker, alive_since),
            )
            ids = sorted(int(row[0]) for row in taken)
            if ids:
                await db.execute(
                    f"UPDATE round_results SET teller = ? WHERE announced = 0 "
                    f"AND game_id IN ({', '.join('?' * len(ids))})",
                    (self.worker, *ids),
                )
            return ids

        ids = await self.database.atomically(adopt)
        if not ids:
            return []
        marks = ", ".join("?" * len(ids))
        return await self._read.games(f"WHERE g.id IN ({marks}) ORDER BY g.id", ids)
