"""What the bot must say, kept in the database until it is said (table `outbox`): any worker
`put`s a chat's message jobs there, and the one sender — whoever holds the `SENDER` claim —
reads them on in order (`after`), says them and marks them `delivered`.

Rows commit in the order of their ids (SQLite has one writer; on PostgreSQL every `put`
takes one transaction lock first), so a sender that has read up to an id has seen every
row before it. On PostgreSQL a `put` also says `NOTIFY`, which wakes the sender wherever it
runs; in one process the put wakes it directly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from bot.core.database import Claim, Database, Transaction

SENDER = "kozel_outbox"
"""The claim of the one sender, and the channel its wake-ups come on."""
WRITING = "kozel_outbox_writes"  # the lock each put takes (PostgreSQL)
READ = 500  # rows read at once


class Parcel(NamedTuple):
    """One message job as written: its chat, kind, coalescing key, JSON payload, urgency."""

    chat_id: int
    kind: str
    key: str | None
    payload: str
    urgent: bool


class Posted(NamedTuple):
    id: int
    parcel: Parcel


class Postbox:
    """The `outbox` table of one process."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self._wakes: list[Callable[[], None]] = []  # this process's senders

    async def put(self, parcels: Sequence[Parcel]) -> None:
        """Keep `parcels`, in order, all or none; then wake the sender."""
        rows = [(p.chat_id, p.kind, p.key, p.payload, int(p.urgent)) for p in parcels]
        postgres = self.database.dialect.name == "postgres"

        async def put(db: Transaction) -> None:
            if postgres:  # one writer at a time: ids commit in order
                await db.execute("SELECT pg_advisory_xact_lock(hashtext(?))", (WRITING,))
            await db.executemany(
                "INSERT INTO outbox (chat_id, kind, key, payload, urgent) VALUES (?, ?, ?, ?, ?)",
                rows,
            )
            if postgres:
                await db.execute("SELECT pg_notify(?, '')", (SENDER,))

        await self.database.atomically(put)
        for wake in self._wakes:
            wake()

    async def after(self, last: int) -> list[Posted]:
        """The rows after id `last`, oldest first (at most `READ`)."""
        found = await self.database.rows(
            "SELECT id, chat_id, kind, key, payload, urgent FROM outbox WHERE id > ? "
            "ORDER BY id LIMIT ?",
            (last, READ),
        )
        return [Posted(r[0], Parcel(r[1], r[2], r[3], r[4], bool(r[5]))) for r in found]

    async def delivered(self, ids: Sequence[int]) -> None:
        """Said (or given up): gone for good."""
        if ids:
            marks = ", ".join("?" * len(ids))
            await self.database.write(f"DELETE FROM outbox WHERE id IN ({marks})", ids)

    async def claim(self, wake: Callable[[], None]) -> Claim | None:
        """The sender's part, if nobody else has it; `wake()` on every put from then on."""
        claim = await self.database.claim(SENDER, wake)
        if claim is not None:
            self._wakes.append(wake)
        return claim

    def forget(self, wake: Callable[[], None]) -> None:
        """A sender that let go is woken no more."""
        if wake in self._wakes:
            self._wakes.remove(wake)
