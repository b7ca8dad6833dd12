"""The one way out to Telegram: flood pacing, bans, retries, and coalescing.

Two pieces, one policy:

* `Pacing`, a session middleware, sees every request. Sends and edits wait for their
  chat's pace (a group at most 20 a minute, a private chat about one a second) and the
  bot's global pace (`Gate`: urgent ones first). After a 429 nothing is sent or edited
  before its `retry_after` is over, in any chat (Telegram does not say whether the ban is
  the chat's or the bot's). 5xx and network errors are retried after growing waits; an
  edit that changes nothing ("message is not modified") is done. Callback answers,
  deletes and reads are not paced, but wait out a 429 too; a callback answer that cannot
  reach the person in time (Telegram drops it after about 15 s) is given up, never
  failed: the press itself has been handled.
* `Outbox` keeps one lane per chat for the game's messages. A lane sends its jobs in order;
  a job posted under the key of one still waiting (the table of a round, a player's hand)
  replaces that job's payload, so only the newest state goes out. After a 429 the lane waits
  out the ban, then sends the newest payload — never the stale one again. A job that
  fails on a Telegram outage stays first in its lane (taking any newer payload) and is
  tried again after growing waits, up to `LANE_PATIENCE` apart, until Telegram takes it
  or says it never will (a 4xx): only then is it dropped, with a log line.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, cast

from aiogram import Bot
from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.exceptions import (
    TelegramAPIError,
    TelegramBadRequest,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import AnswerCallbackQuery, Response, TelegramMethod
from aiogram.methods.base import TelegramType
from aiolimiter import AsyncLimiter

log = logging.getLogger(__name__)
P = TypeVar("P")

PATIENCE = 120  # seconds of 429 bans a request outside a lane waits before it gives up
BACKOFF = (0.5, 1.0, 2.0, 4.0)  # waits before retrying after a 5xx or a network error
CLOSE_SECONDS = 5.0  # how long a stop lets the lanes finish before dropping what is left
LANE_BACKOFF = (1.0, 2.0, 4.0, 8.0, 15.0, 30.0)  # a lane's waits after a failed job
LANE_PATIENCE = 60.0  # the longest wait between a lane's tries
ANSWER_WITHIN = 10.0  # seconds a callback answer may keep trying (Telegram drops it at ~15)


@dataclass(frozen=True, slots=True)
class Pace:
    """A leaky bucket: `burst` requests at once, then one every `every` seconds. In any
    window of `window` seconds it lets through at most `burst + window / every`."""

    burst: int
    every: float

    def limiter(self) -> AsyncLimiter:
        return AsyncLimiter(self.burst, self.burst * self.every)


@dataclass(frozen=True, slots=True)
class Limits:
    """Below Telegram's flood limits with a margin: a group ≤ 2 + 60/3.5 = 19 a minute
    (limit 20), a private chat ≤ 2 + 0.9 per second (about 1), the bot ≤ 4 + 25 per second
    (limit 30). `paced=False` sends at once (429s are still waited out)."""

    group: Pace = Pace(2, 3.5)
    private: Pace = Pace(2, 1.1)
    everywhere: Pace = Pace(4, 0.04)
    paced: bool = True


def chat_of(method: TelegramMethod[Any]) -> int | None:
    chat_id = getattr(method, "chat_id", None)
    return chat_id if isinstance(chat_id, int) else None


def counted(method: TelegramMethod[Any]) -> bool:
    """Sends and edits count against the flood limits; answers, deletes and reads do not."""
    name = type(method).__name__
    return name.startswith(("Send", "Edit", "Copy", "Forward")) and name != "SendChatAction"


@dataclass(slots=True)
class _Ticket:
    """A lane's job in progress: its first counted request has already waited its pace."""

    paid: bool = True


_ticket: ContextVar[_Ticket | None] = ContextVar("outbox_ticket", default=None)


class Gate:
    """The bot's global pace, urgent requests first: a turn's hand, results and replies go
    before lazy ones (table pictures, a hand after its move); every `LAZY_TURN`-th place
    goes to the oldest waiter, so pictures move under load too — and, waiting longer, take
    in more newer states. Urgency is asked when a place is free (a lazy job may become
    urgent while it waits)."""

    LAZY_TURN = 3

    def __init__(self, pace: Pace) -> None:
        self._limiter = pace.limiter()
        self._waiters: deque[tuple[asyncio.Future[None], Callable[[], bool]]] = deque()
        self._served = 0
        self._pump: asyncio.Task[None] | None = None

    async def acquire(self, urgent: Callable[[], bool]) -> None:
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append((waiter, urgent))
        if self._pump is None or self._pump.done():
            self._pump = asyncio.create_task(self._serve())
        await waiter

    async def _serve(self) -> None:
        waiters = self._waiters
        while waiters:
            await self._limiter.acquire()
            while waiters and waiters[0][0].done():  # its request was cancelled
                waiters.popleft()
            if not waiters:
                return
            self._served += 1
            chosen = waiters[0]
            if self._served % self.LAZY_TURN:
                chosen = next((w for w in waiters if not w[0].done() and w[1]()), chosen)
            waiters.remove(chosen)
            chosen[0].set_result(None)


def _late(started: float, wait: float) -> bool:
    """Whether a callback answer would go out too late after waiting `wait` more seconds."""
    return time.monotonic() - started + wait > ANSWER_WITHIN


def _done(method: TelegramMethod[TelegramType]) -> Response[TelegramType]:
    """The request counts as done (an edit that changed nothing, an answer given up)."""
    return Response[TelegramType](ok=True, result=cast(TelegramType, True))


def _given_up(method: TelegramMethod[TelegramType], why: str) -> Response[TelegramType]:
    """A callback answer that cannot reach the person in time: the press itself has been
    handled, so it is given up, not failed."""
    log.info("callback answer given up: %s", why)
    return _done(method)


class Pacing(BaseRequestMiddleware):
    """Every request of the bot's session passes here (see the module's docstring)."""

    def __init__(self, limits: Limits = Limits()) -> None:
        self.limits = limits
        self._chats: dict[int, AsyncLimiter] = {}
        self._everywhere = Gate(limits.everywhere)
        self._banned_until = 0.0  # time.monotonic() when the last 429's retry_after ends

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        chat, paced = chat_of(method), counted(method)
        answer = isinstance(method, AnswerCallbackQuery)
        started = time.monotonic()
        waited = failures = 0
        while True:
            if paced and chat is not None:
                await self.unbanned()
                ticket = _ticket.get()
                if ticket is not None and ticket.paid:
                    ticket.paid = False
                else:
                    await self.pace(chat)
            try:
                return await make_request(bot, method)
            except TelegramRetryAfter as error:
                until = time.monotonic() + error.retry_after
                self._banned_until = max(self._banned_until, until)
                name, seconds = type(method).__name__, error.retry_after
                log.warning("flood control: %s in chat %s waits %s s", name, chat, seconds)
                waited += error.retry_after
                if _ticket.get() is not None or waited > PATIENCE:
                    raise  # a lane sends its newest payload after the ban instead
                if answer and _late(started, error.retry_after):
                    return _given_up(method, error.message)
                await self.unbanned()  # reads and answers wait out the ban too
            except TelegramBadRequest as error:
                if "message is not modified" in error.message:
                    return _done(method)
                if answer and "query is too old" in error.message:
                    return _given_up(method, error.message)
                raise
            except (TelegramServerError, TelegramNetworkError) as error:
                if answer and (failures == len(BACKOFF) or _late(started, BACKOFF[failures])):
                    return _given_up(method, error.message)
                if failures == len(BACKOFF):
                    raise
                log.info("Telegram failed (%s), again in %s s", error.message, BACKOFF[failures])
                await asyncio.sleep(BACKOFF[failures])
                failures += 1

    async def unbanned(self) -> None:
        """Return once the last 429's `retry_after` is over. A 429 does not say whether it
        is the chat's limit or the bot's, and a request inside a bot-wide ban extends it, so
        every chat waits."""
        while (left := self._banned_until - time.monotonic()) > 0:
            await asyncio.sleep(left)

    async def pace(self, chat: int, urgent: Callable[[], bool] = lambda: True) -> None:
        """Wait for a send or edit's turn in `chat` and in the bot as a whole."""
        if not self.limits.paced:
            return
        limiter = self._chats.get(chat)
        if limiter is None:
            pace = self.limits.private if chat > 0 else self.limits.group
            limiter = self._chats[chat] = pace.limiter()
        await limiter.acquire()
        await self._everywhere.acquire(urgent)

    def forget(self, chat: int) -> None:
        """Drop `chat`'s bucket once it is full again (a quiet chat costs no memory)."""
        limiter = self._chats.get(chat)
        if limiter is not None and limiter.has_capacity(limiter.max_rate):
            del self._chats[chat]


Job = Callable[[P], Awaitable[None]]
Merge = Callable[[P, P], P]


def newest(older: Any, newer: P) -> P:
    return newer


@dataclass(slots=True)
class _Entry(Generic[P]):
    job: Job[P]
    payload: P
    key: Hashable | None
    urgent: bool
    merge: Merge[P] = field(default=newest)

    def is_urgent(self) -> bool:
        return self.urgent


def _again(lane: deque[_Entry[Any]], entry: _Entry[Any]) -> None:
    """A job that did not go out is first again; a newer one with its key, posted while it
    ran, takes its payload into account (`merge`) and goes in its place."""
    newer = next((e for e in lane if entry.key is not None and e.key == entry.key), None)
    if newer is None:
        lane.appendleft(entry)
        return
    lane.remove(newer)
    newer.payload = entry.merge(entry.payload, newer.payload)
    newer.urgent |= entry.urgent
    lane.appendleft(newer)


class Outbox:
    """One lane per chat for the game's messages (see the module's docstring)."""

    def __init__(self, pacing: Pacing) -> None:
        self.pacing = pacing
        self._lanes: dict[int, deque[_Entry[Any]]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._busy = False

    def post(
        self,
        chat: int,
        job: Job[P],
        payload: P,
        key: Hashable | None = None,
        merge: Merge[P] = newest,
        urgent: bool = True,
    ) -> None:
        """Queue `job(payload)` for `chat`; a waiting job with the same `key` takes the
        payload instead (`merge(waiting, new)`, by default the new one). A lazy job waits
        behind urgent ones for the bot's global pace."""
        lane = self._lanes.setdefault(chat, deque())
        waiting = next((e for e in lane if key is not None and e.key == key), None)
        if waiting is not None:
            waiting.payload = waiting.merge(waiting.payload, payload)
            waiting.job = job
            waiting.urgent |= urgent
        else:
            lane.append(_Entry(job, payload, key, urgent, merge))
        if not self._busy:
            self._busy = True
            log.info("outbox: sending")
        if chat not in self._workers:
            self._workers[chat] = asyncio.create_task(self._drain(chat, lane))

    async def _drain(self, chat: int, lane: deque[_Entry[Any]]) -> None:
        """Send `chat`'s jobs in order, each after its pace (taking the newest payload)."""
        failures = 0
        try:
            while lane:
                await self.pacing.unbanned()
                await self.pacing.pace(chat, lane[0].is_urgent)
                entry = lane.popleft()
                token = _ticket.set(_Ticket())
                try:
                    await entry.job(entry.payload)
                    failures = 0
                except TelegramRetryAfter:
                    _again(lane, entry)  # the ban is recorded: wait, then the newest
                except (TelegramServerError, TelegramNetworkError) as error:
                    wait = min(LANE_BACKOFF[min(failures, len(LANE_BACKOFF) - 1)], LANE_PATIENCE)
                    failures += 1
                    log.warning(
                        "message to chat %s (%s) failed (%s), again in %s s",
                        chat, entry.key, error.message, wait,
                    )  # fmt: skip
                    _again(lane, entry)
                    await asyncio.sleep(wait)
                except TelegramAPIError as error:
                    log.warning("message to chat %s (%s) dropped: %s", chat, entry.key, error)
                except Exception:
                    log.exception("message to chat %s (%s) not sent", chat, entry.key)
                finally:
                    _ticket.reset(token)
        finally:
            del self._workers[chat]
            if not lane:
                del self._lanes[chat]
            self.pacing.forget(chat)
            if not self._workers and self._busy:
                self._busy = False
                log.info("outbox: all sent")

    async def close(self) -> None:
        """On a stop: let the lanes finish for a few seconds, then drop what is left (the
        next start shows the stored state again and tells what was owed)."""
        workers = list(self._workers.values())
        if not workers:
            return
        _, late = await asyncio.wait(workers, timeout=CLOSE_SECONDS)
        for worker in late:
            worker.cancel()
        if late:
            left = sum(len(lane) for lane in self._lanes.values())
            log.warning("stopping with %s messages not sent in %s chats", left, len(late))
        await asyncio.gather(*late, return_exceptions=True)
