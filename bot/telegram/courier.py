"""The durable way to say something: every worker `post`s a chat's message job, which is
kept in the database's outbox (`Outbox`) before anything is sent, and the senders read the
jobs in order and run them through their `Lanes` (paced, coalesced by key), deleting
each row once its job ran. The chats are split into `SHARDS` shards; each shard has one
sender, the worker holding its claim, and the workers about share the shards evenly.

* A post is written a moment after it is made (the posts of that moment in one write), and
  written again until the database takes it; the move it tells of was committed before.
* A shard's claim is PostgreSQL's advisory lock on a connection of its own (it ends with
  the process, however it ends). Every `BEAT` seconds a worker checks its claims, counts
  the workers heard from lately (`Crew.about`) and takes free shards up to its fair share
  or gives those over it back (after letting their lanes finish), so a dead sender's
  shards are taken within about `ABOUT` + `BEAT` seconds. On SQLite the one process holds
  every shard. The bot-wide pace is shared out likewise (`Pacing.share`).
* A new sender of a shard starts from its first row still kept: the jobs its predecessor
  had in hand run again — at most one per chat was under way (each lane runs one job at a
  time), so at most that job's request is sent twice. A shard given back on purpose is
  given once its lanes have finished, so nothing of it is sent twice then.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Hashable
from contextlib import suppress
from typing import Any, TypeVar

from bot.core.database import Claim
from bot.core.outbox import EVERY_SHARD, SHARDS, Outbox, Parcel, Posted, shard_of
from bot.telegram.lanes import Job, Lanes, Merge, newest
from bot.telegram.pacing import Pacing

log = logging.getLogger(__name__)
T = TypeVar("T")
BEAT = 2.0  # seconds between a worker's looks at its shards (and checks of its claims)
RETRY = 1.0  # seconds before a failed write of posts (or of deliveries) is tried again
CLOSE_SECONDS = 10.0  # how long a stop waits for the posts (or the deliveries) to be written
Codec = tuple[Callable[[Any], Any], Callable[[Any], Any]]  # payload → JSON value, and back
Workers = Callable[[], Awaitable[list[str]]]  # the workers about, in the order of their ids


def _key(key: Hashable | None) -> str | None:
    return None if key is None else json.dumps(key, separators=(",", ":"))


def fair_share(worker: str, about: list[str]) -> tuple[int, int]:
    """How many shards `worker` should send with the workers `about`, and the shard to
    look from first (each worker from its own, so that they seldom reach for the same)."""
    rank = about.index(worker) if worker in about else len(about)
    count = max(len(about), rank + 1)
    return SHARDS // count + (rank < SHARDS % count), rank * SHARDS // count


class Courier:
    """This worker's posts, and the sending of the shards it holds."""

    def __init__(self, outbox: Outbox, pacing: Pacing, codec: Codec, worker: str) -> None:
        self.outbox = outbox
        self.lanes = Lanes(pacing, done=self._delivered, idle=self._settle)
        self._pack, self._unpack = codec
        self.worker = worker
        self._kinds: dict[str, tuple[Job[Any], Merge[Any]]] = {}
        self._posts: list[Parcel] = []  # made, not yet written
        self._done: list[int] = []  # rows whose jobs ran, not yet deleted
        self._wrote = asyncio.Event()  # something was written: read on
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._held: dict[int, Claim] = {}  # the shards this worker sends
        self._last: dict[int, int] = {}  # each held shard's last row handed on
        self._giving: set[asyncio.Task[None]] = set()  # shards being given back
        self._closing = False  # stopping: no more rows are handed on
        self._reading = False  # the sender is reading the rows on
        self._busy = False  # something posted here, or kept for this sender, is not said

    @property
    def shards(self) -> list[int]:
        """The shards this worker sends."""
        return sorted(self._held)

    def kind(self, name: str, job: Job[Any], merge: Merge[Any] = newest) -> None:
        """What a post of kind `name` runs, and how a newer payload joins a waiting one."""
        self._kinds[name] = (job, merge)

    def post(
        self, chat: int, kind: str, payload: Any, key: Hashable | None = None, urgent: bool = True
    ) -> None:
        """Say `kind(payload)` in `chat`, after what was posted there before; a job with
        the same `key` still waiting takes this payload instead."""
        assert kind in self._kinds, kind
        data = json.dumps(self._pack(payload), ensure_ascii=False, separators=(",", ":"))
        self._posts.append(Parcel(chat, kind, _key(key), data, urgent))
        self._working()
        self._start("write", self._write)

    def start(self, workers: Workers) -> None:
        """Send this worker's share of the shards, among `workers()` (until `close`)."""
        self._start("send", lambda: self._run(workers))

    async def _run(self, workers: Workers) -> None:
        loop = asyncio.get_running_loop()
        listening: Claim | None = None
        try:
            while True:
                try:
                    listening = await self._listening(listening)
                except Exception:
                    log.exception("worker %s: the outbox's news cannot be heard", self.worker)
                try:
                    if not self._closing:
                        await self._balance(await workers())
                except Exception:
                    log.exception("worker %s: the shards could not be shared", self.worker)
                until = loop.time() + BEAT
                while (left := until - loop.time()) > 0:
                    if not self._held or self._closing:
                        await asyncio.sleep(left)
                    elif not await self._read():
                        self._settle()
                        with suppress(TimeoutError):
                            async with asyncio.timeout(left):
                                await self._wrote.wait()
        finally:  # a stop: what the lanes have not sent stays for the next sender
            await asyncio.gather(*self._giving, return_exceptions=True)
            held = set(self._held)
            await self._let_go(held, self._stop_reading(held), gently=False)
            if listening is not None:
                with suppress(Exception):
                    await listening.release()

    async def _listening(self, listening: Claim | None) -> Claim:
        """`listening`, or a new listening to the puts if it was lost (until then the
        rows are read every `BEAT` seconds)."""
        if listening is not None:
            if await listening.held():
                return listening
            await listening.release()
        return await self.outbox.listen(self._heard)

    def _heard(self, shards: set[int]) -> None:
        """Rows were put: read on if they are for a held shard."""
        if not shards.isdisjoint(self._held):
            self._wrote.set()

    async def _balance(self, about: list[str]) -> None:
        """Let go of the shards whose claims were lost, give back those over the fair
        share, and take free ones up to it."""
        lost = {shard for shard, claim in self._held.items() if not await claim.held()}
        if lost:
            log.warning("worker %s lost the claims of shards %s", self.worker, sorted(lost))
            await self._let_go(lost, self._stop_reading(lost), gently=False)
        share, first = fair_share(self.worker, about)
        if len(self._held) > share:
            over = set(sorted(self._held, key=lambda s: (s - first) % SHARDS)[share:])
            log.info("worker %s gives back shards %s", self.worker, sorted(over))
            giving = asyncio.create_task(self._let_go(over, self._stop_reading(over), True))
            self._giving.add(giving)
            giving.add_done_callback(self._giving.discard)
        taken: list[int] = []
        for shard in sorted(EVERY_SHARD - set(self._held), key=lambda s: (s - first) % SHARDS):
            if len(self._held) >= share:
                break
            claim = await self.outbox.claim(shard)
            if claim is not None:
                self._held[shard], self._last[shard] = claim, 0
                taken.append(shard)
        if taken:
            log.info("worker %s sends the bot's messages of shards %s", self.worker, taken)
            self._wrote.set()
        if lost or taken or len(self._held) != share:
            self.lanes.pacing.share(max(len(self._held), 1) / SHARDS)

    def _stop_reading(self, shards: set[int]) -> list[Claim]:
        """No more rows of `shards` are handed on; their claims, to let go of."""
        for shard in shards:
            del self._last[shard]
        return [self._held.pop(shard) for shard in shards]

    async def _let_go(self, shards: set[int], claims: list[Claim], gently: bool) -> None:
        """Let go of `shards` (no longer read): `gently`, once their lanes have finished
        (what they sent deleted, then the `claims` released); else at once (their claims
        are gone, or the worker stops)."""

        def theirs(chat: int) -> bool:
            return shard_of(chat) in shards

        if gently:
            await self.lanes.close(theirs)
            await self._finish("delete")
        else:
            await self.lanes.drop(theirs)
        for claim in claims:
            with suppress(Exception):
                await claim.release()

    async def _read(self) -> bool:
        """Read the held shards' rows on and hand each to its chat's lane; whether there
        were any."""
        self._wrote.clear()
        self._reading = True
        try:
            rows = await self.outbox.after(min(self._last.values()), set(self._held))
        except Exception:
            log.exception("worker %s: the outbox could not be read", self.worker)
            rows = []
        finally:
            self._reading = False
        for row in rows:
            shard = shard_of(row.parcel.chat_id)
            if row.id > self._last.get(shard, row.id):
                self._hand_on(row)
        if rows:  # every row of the held shards up to the last read is seen now
            for shard in self._last:
                self._last[shard] = max(self._last[shard], rows[-1].id)
            self._working()
        return bool(rows)

    def _hand_on(self, row: Posted) -> None:
        parcel = row.parcel
        known = self._kinds.get(parcel.kind)
        try:
            if known is None:
                raise ValueError(f"unknown kind {parcel.kind!r}")
            payload = self._unpack(json.loads(parcel.payload))
        except ValueError as error:
            log.error("outbox row %s dropped: %s", row.id, error)
            self._delivered([row.id])
            return
        job, merge = known
        self.lanes.post(parcel.chat_id, job, payload, parcel.key, merge, parcel.urgent, row.id)

    def _working(self) -> None:
        if not self._busy:
            self._busy = True
            log.debug("outbox: sending")

    def _settle(self) -> None:
        """Log once everything is said: nothing posted here waits to be written, and this
        worker (if it sends any shard) has read every row, sent every job and deleted its
        row."""
        if not self._busy or self._posts or self._done:
            return
        if self._held and (self._reading or self._wrote.is_set() or not self.lanes.idle()):
            return
        self._busy = False
        log.debug("outbox: all sent")

    def _delivered(self, rows: list[int]) -> None:
        """The lanes' word that the jobs of `rows` ran (or were dropped)."""
        self._done.extend(rows)
        self._start("delete", self._delete)

    def _start(self, name: str, work: Callable[[], Any]) -> None:
        task = self._tasks.get(name)
        if task is None or task.done():
            self._tasks[name] = asyncio.create_task(work())

    async def _write(self) -> None:
        """Write what was posted until the database takes it."""
        await self._until_taken(self._posts, self.outbox.put, "posts not written")
        self._settle()

    async def _delete(self) -> None:
        await self._until_taken(self._done, self.outbox.delivered, "sent rows not deleted")
        self._settle()

    async def _until_taken(
        self, queue: list[T], store: Callable[[list[T]], Awaitable[None]], what: str
    ) -> None:
        """`store` what `queue` holds, a batch at a time, again after `RETRY` s on a failure
        (what is added meanwhile goes in the next batch)."""
        while queue:
            batch = queue[:]
            try:
                await store(batch)
            except Exception:
                log.exception("worker %s: %s %s yet", self.worker, len(batch), what)
                await asyncio.sleep(RETRY)
                continue
            del queue[: len(batch)]

    async def close(self) -> None:
        """On a stop: hand no more rows on, let the lanes finish a moment (`Lanes.close`),
        write what was posted and delete what they sent, then let the claims go; what is
        left stays for the next senders."""
        self._closing = True
        await self._finish("write")
        await self.lanes.close()
        await self._finish("write")  # the lanes' own posts (a closed chat's notice)
        await self._finish("delete")
        sending = self._tasks.get("send")
        if sending is not None:
            sending.cancel()
            await asyncio.gather(sending, return_exceptions=True)

    async def _finish(self, name: str) -> None:
        task = self._tasks.get(name)
        if task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(task), CLOSE_SECONDS)
            except TimeoutError:
                log.warning("worker %s: stopping before the outbox was written", self.worker)
