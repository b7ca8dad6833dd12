"""The durable way to say something: every worker `post`s a chat's message job, which is
kept in the database's outbox (`Postbox`) before anything is sent, and one sender among the
workers — the one holding the sender claim — reads the jobs in order and runs them through
its `Outbox` lanes (paced, coalesced by key), deleting each row once its job ran.

* A post is written a moment after it is made (the posts of that moment in one write), and
  written again until the database takes it; the move it tells of was committed before.
* The sender's claim is PostgreSQL's advisory lock on a connection of its own (it ends with
  the process, however it ends); the others try for it every `BEAT` seconds, so a dead
  sender is replaced within about that. On SQLite the one process is the sender.
* A new sender starts from the first row still kept: the jobs its predecessor had in hand
  run again — at most one per chat was under way (each lane runs one job at a time), so at
  most that job's request is sent twice.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Hashable
from contextlib import suppress
from typing import Any, TypeVar

from bot.core.postbox import Parcel, Postbox, Posted
from bot.telegram.outbox import Job, Merge, Outbox, Pacing, newest

log = logging.getLogger(__name__)
T = TypeVar("T")
BEAT = 2.0  # seconds between a waiting worker's tries for the sender's claim (and its checks)
RETRY = 1.0  # seconds before a failed write of posts (or of deliveries) is tried again
CLOSE_SECONDS = 10.0  # how long a stop waits for the posts (or the deliveries) to be written
Codec = tuple[Callable[[Any], Any], Callable[[Any], Any]]  # payload → JSON value, and back


def _key(key: Hashable | None) -> str | None:
    return None if key is None else json.dumps(key, separators=(",", ":"))


class Courier:
    """This worker's posts, and (while it holds the claim) the bot's one sender."""

    def __init__(self, postbox: Postbox, pacing: Pacing, codec: Codec, worker: str) -> None:
        self.postbox = postbox
        self.outbox = Outbox(pacing, done=self._delivered, idle=self._settle)
        self._pack, self._unpack = codec
        self.worker = worker
        self._kinds: dict[str, tuple[Job[Any], Merge[Any]]] = {}
        self._posts: list[Parcel] = []  # made, not yet written
        self._done: list[int] = []  # rows whose jobs ran, not yet deleted
        self._wrote = asyncio.Event()  # something was written: read on
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self.sending = False  # this worker holds the claim
        self._reading = False  # the sender is reading the rows on
        self._busy = False  # something posted here, or kept for this sender, is not said

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

    def start(self) -> None:
        """Be the sender when nobody else is (tried every `BEAT` seconds until `close`)."""
        self._start("send", self._run)

    async def _run(self) -> None:
        while True:
            try:
                claim = await self.postbox.claim(self._wrote.set)
            except Exception:
                log.exception("worker %s: the sender's claim could not be asked", self.worker)
                claim = None
            if claim is None:
                await asyncio.sleep(BEAT)
                continue
            log.info("worker %s sends the bot's messages", self.worker)
            self.sending = True
            try:
                await self._send(claim.held)
            except Exception:
                log.exception("worker %s: sending failed", self.worker)
            finally:
                self.sending = False
                self.postbox.forget(self._wrote.set)
                await self.outbox.drop()  # the next sender starts from the rows still kept
                with suppress(Exception):
                    await claim.release()
            log.warning("worker %s lost the sender's claim", self.worker)

    async def _send(self, held: Callable[[], Any]) -> None:
        """Read the rows on from the first kept and hand each to its chat's lane; check
        the claim every `BEAT` seconds; return once it is lost."""
        loop = asyncio.get_running_loop()
        last, checked = 0, loop.time()
        while True:
            if loop.time() - checked >= BEAT:
                if not await held():
                    return
                checked = loop.time()
            self._wrote.clear()
            self._reading = True
            try:
                rows = await self.postbox.after(last)
            except Exception:
                log.exception("worker %s: the outbox could not be read", self.worker)
                rows = []
            finally:
                self._reading = False
            for row in rows:
                last = row.id
                self._hand_on(row)
            if rows:
                self._working()
                continue
            self._settle()
            with suppress(TimeoutError):
                async with asyncio.timeout(BEAT):
                    await self._wrote.wait()

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
        self.outbox.post(parcel.chat_id, job, payload, parcel.key, merge, parcel.urgent, row.id)

    def _working(self) -> None:
        if not self._busy:
            self._busy = True
            log.info("outbox: sending")

    def _settle(self) -> None:
        """Log once everything is said: nothing posted here waits to be written, and the
        sender (if this worker is it) has read every row and sent every job."""
        if not self._busy or self._posts:
            return
        if self.sending and (self._reading or self._wrote.is_set() or not self.outbox.idle()):
            return
        self._busy = False
        log.info("outbox: all sent")

    def _delivered(self, rows: list[int]) -> None:
        """`Outbox`'s word that the jobs of `rows` ran (or were dropped)."""
        self._done.extend(rows)
        self._start("delete", self._delete)

    def _start(self, name: str, work: Callable[[], Any]) -> None:
        task = self._tasks.get(name)
        if task is None or task.done():
            self._tasks[name] = asyncio.create_task(work())

    async def _write(self) -> None:
        """Write what was posted until the database takes it."""
        await self._until_taken(self._posts, self.postbox.put, "posts not written")
        self._settle()

    async def _delete(self) -> None:
        await self._until_taken(self._done, self.postbox.delivered, "sent rows not deleted")

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
        """On a stop: write what was posted, let the lanes finish a moment (`Outbox.close`),
        delete what they sent, and let the claim go; what is left stays for the next
        sender."""
        await self._finish("write")
        await self.outbox.close()
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
