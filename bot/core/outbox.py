"""What the bot must say, kept in the database until it is said (table `outbox`): any worker
`put`s a chat's message jobs there, and the chats' senders read them on in order (`after`),
say them and mark them `delivered`. The chats are split into `SHARDS` shards by their id;
each shard is sent by the one worker holding its claim (`claim`), so several workers share
the sending, and every chat's messages still leave from one place, in order.

Rows commit in the order of their ids (SQLite has one writer; on PostgreSQL every `put`
takes one transaction lock first), so a sender that has read a shard up to an id has seen
every row of it before that id. On PostgreSQL a `put` also says `NOTIFY`, which wakes the
senders wherever they run; in one process the put wakes them directly.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import NamedTuple

from bot.core.database import Claim, Database, Transaction

SENDER = "kozel_outbox"
"""The channel the senders' wake-ups come on, and the stem of the shards' claims."""
WRITING = "kozel_outbox_writes"  # the lock each put takes (PostgreSQL)
READ = 500  # rows read at once
SHARDS = 8
"""How many shards the chats are split into: as many workers at most share the sending."""
EVERY_SHARD = frozenset(range(SHARDS))
_SHARD_OF = f"((chat_id % {SHARDS}) + {SHARDS}) % {SHARDS}"  # as `shard_of`, in SQL


def shard_of(chat_id: int) -> int:
    """The shard whose sender says what goes to `chat_id`."""
    return chat_id % SHARDS


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


class Outbox:
    """The `outbox` table of one process."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self._hearing: list[Callable[[set[int]], None]] = []  # this process's senders

    async def put(self, parcels: Sequence[Parcel]) -> None:
        """Keep `parcels`, in order, all or none; then tell the senders which shards have
        news."""
        shards = {shard_of(p.chat_id) for p in parcels}
        postgres = self.database.dialect.name == "postgres"

        async def put(db: Transaction) -> None:
            await put_within(db, postgres, parcels)

        await self.database.atomically(put)
        for hear in self._hearing:
            hear(shards)

    async def after(self, last: int, shards: Collection[int] = EVERY_SHARD) -> list[Posted]:
        """The rows of `shards` after id `last`, oldest first (at most `READ`)."""
        chosen = [] if set(shards) >= EVERY_SHARD else sorted(shards)  # all: no filter
        within = f" AND {_SHARD_OF} IN ({', '.join('?' * len(chosen))})" if chosen else ""
        found = await self.database.rows(
            f"SELECT id, chat_id, kind, key, payload, urgent FROM outbox WHERE id > ?{within} "
            "ORDER BY id LIMIT ?",
            (last, *chosen, READ),
        )
        return [Posted(r[0], Parcel(r[1], r[2], r[3], r[4], bool(r[5]))) for r in found]

    async def delivered(self, ids: Sequence[int]) -> None:
        """Said (or given up): gone for good."""
        if ids:
            marks = ", ".join("?" * len(ids))
            await self.database.write(f"DELETE FROM outbox WHERE id IN ({marks})", ids)

    async def claim(self, shard: int) -> Claim | None:
        """The sending of `shard`, if nobody else has it."""
        return await self.database.claim(f"{SENDER}/{shard}")

    async def listen(self, hear: Callable[[set[int]], None]) -> Claim:
        """`hear(shards)` after every put, wherever it was made, with the shards it wrote
        to, until released."""
        self._hearing.append(hear)
        try:
            listening = await self.database.listen(SENDER, lambda said: hear(_heard(said)))
        except BaseException:
            self._hearing.remove(hear)
            raise
        return _Listening(listening, lambda: self._hearing.remove(hear))


async def put_within(db: Transaction, postgres: bool, parcels: Sequence[Parcel]) -> None:
    """Keep `parcels` in the transaction `db` (on PostgreSQL: `postgres`), so that they
    are kept if, and only if, what it writes beside them is. Another process's senders hear
    of them when it commits; this one's read them within a beat."""
    if postgres:  # one writer at a time: ids commit in order
        await db.execute("SELECT pg_advisory_xact_lock(hashtext(?))", (WRITING,))
    await db.executemany(
        "INSERT INTO outbox (chat_id, kind, key, payload, urgent) VALUES (?, ?, ?, ?, ?)",
        [(p.chat_id, p.kind, p.key, p.payload, int(p.urgent)) for p in parcels],
    )
    if postgres:
        shards = {shard_of(p.chat_id) for p in parcels}
        await db.execute("SELECT pg_notify(?, ?)", (SENDER, _told(shards)))


def _told(shards: set[int]) -> str:
    return ",".join(map(str, sorted(shards)))


def _heard(said: str) -> set[int]:
    """The shards a `NOTIFY` names (every one, if it names none it can read)."""
    try:
        return {int(part) for part in said.split(",")}
    except ValueError:
        return set(EVERY_SHARD)


class _Listening:
    """A listening to the puts, this process's and (on PostgreSQL) the others'."""

    def __init__(self, listening: Claim, forget: Callable[[], None]) -> None:
        self._listening = listening
        self._forget: Callable[[], None] | None = forget

    async def held(self) -> bool:
        return self._forget is not None and await self._listening.held()

    async def release(self) -> None:
        """Stop listening (again: nothing more)."""
        if self._forget is not None:
            self._forget()
            self._forget = None
        await self._listening.release()
