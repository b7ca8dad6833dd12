"""The one way out to Telegram: flood pacing, bans, retries, and coalescing.

Two pieces, one policy:

* `Pacing`, a session middleware, sees every request. A send or edit waits for a place
  in its chat (a group at most 20 a minute, a private chat about one a second), for its
  turn in the bot as a whole (urgent ones first: a turn's hand, results, replies) and for
  the bot's pace on the wire (`Gate`s). A lane's job takes its chat's place and its turn
  before it runs, so it draws the newest state; a place counts from the moment its
  request leaves, so the pace holds on the wire however long the job takes in between.
  In a chat the game's messages (the `Outbox` lanes) go first: a reply to a command
  waits behind them, is not sent twice while the same reply waits, and is skipped after
  `REPLY_PATIENCE`. After a 429 nothing is sent or edited before its `retry_after` is
  over, in any chat (Telegram does not say whether the ban is the chat's or the bot's),
  and then at the pace, never in a burst. 5xx and network errors are retried after
  growing waits; an edit that changes nothing ("message is not modified") is done.
  Callback answers, deletes and reads are not paced, but wait out a 429 too; a callback
  answer that cannot reach the person in time (Telegram drops it after about 15 s) is
  given up, never failed: the press itself has been handled.
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
from contextlib import suppress
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

log = logging.getLogger(__name__)
P = TypeVar("P")

PATIENCE = 120  # seconds of 429 bans a request outside a lane waits before it gives up
BACKOFF = (0.5, 1.0, 2.0, 4.0)  # waits before retrying after a 5xx or a network error
CLOSE_SECONDS = 5.0  # how long a stop lets the lanes finish before dropping what is left
LANE_BACKOFF = (1.0, 2.0, 4.0, 8.0, 15.0, 30.0)  # a lane's waits after a failed job
LANE_PATIENCE = 60.0  # the longest wait between a lane's tries
ANSWER_WITHIN = 10.0  # seconds a callback answer may keep trying (Telegram drops it at ~15)
REPLY_PATIENCE = 10.0  # seconds a reply waits for its places before it is skipped
REPEATED_WITHIN = 30.0  # seconds in which a group gets the same reply only once
LAZY_TURN = 3  # every third place in the bot goes to the oldest waiter, urgent or not


@dataclass(frozen=True, slots=True)
class Pace:
    """A leaky bucket: `burst` requests at once, then one every `every` seconds. In any
    window of `t` seconds it lets through at most `burst + t / every`."""

    burst: int
    every: float


@dataclass(frozen=True, slots=True)
class Limits:
    """Within Telegram's flood limits, counted when requests leave: a group ≤ 2 + 60/3.25
    = 20 in any minute (limit 20), a private chat ≤ 2 + 0.9 per second (about 1), the bot
    ≤ 1 + 22 in any second (limit 30). Requests that reach Telegram closer together than
    they left (a stalled loop on either side) still keep to it: by up to 1.75 s in a
    group, 0.3 s for the bot. `paced=False` sends at once (429s are still waited out). A
    reply finding no place within `reply_patience` seconds is skipped."""

    group: Pace = Pace(2, 3.25)
    private: Pace = Pace(2, 1.1)
    everywhere: Pace = Pace(1, 1 / 22)
    paced: bool = True
    reply_patience: float = REPLY_PATIENCE


def chat_of(method: TelegramMethod[Any]) -> int | None:
    chat_id = getattr(method, "chat_id", None)
    return chat_id if isinstance(chat_id, int) else None


def counted(method: TelegramMethod[Any]) -> bool:
    """Sends and edits count against the flood limits; answers, deletes and reads do not."""
    name = type(method).__name__
    return name.startswith(("Send", "Edit", "Copy", "Forward")) and name != "SendChatAction"


def always() -> bool:
    return True


def never() -> bool:
    return False


class Gate:
    """A `Pace` with a queue, counted on the wire: a place given holds a whole request
    until that request leaves (`spend`, counted from then) or is given back, so at most
    `burst + t / every` requests leave in any `t` seconds, however long each takes between
    its place and its send. Waiters are served in order, those `urgent()` says first
    (asked when a place is free: a lazy one may become urgent while it waits); with
    `fair`, every `fair`-th place goes to the oldest, so lazy ones move under load too. A
    waiter that is not urgent gets a place only while `spare` more would still be free
    (room the urgent ones may need next). No place is given before `close`'s time."""

    def __init__(self, pace: Pace, fair: int = 0, spare: int = 0) -> None:
        self.pace = pace
        self.fair = fair
        self.spare = spare
        self._level = 0.0  # requests counted, one leaks out every `pace.every`
        self._at = time.monotonic()
        self._held = 0  # places given, not yet spent or given back
        self._until = 0.0  # time.monotonic() before which no place is given
        self._waiters: deque[tuple[asyncio.Future[None], Callable[[], bool]]] = deque()
        self._served = 0
        self._changed = asyncio.Event()
        self._pump: asyncio.Task[None] | None = None

    async def take(self, urgent: Callable[[], bool] = always) -> None:
        """Wait for a place (given back if the wait is cancelled after all)."""
        if not self._waiters and self._wait(0 if urgent() else self.spare) == 0:
            self._held += 1
            return
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append((waiter, urgent))
        self._changed.set()
        if self._pump is None or self._pump.done():
            self._pump = asyncio.create_task(self._serve())
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self.give_back()
            raise

    def spend(self) -> None:
        """A place's request leaves now."""
        self._leak()
        self._level += 1
        self._held -= 1
        self._changed.set()  # a place is no longer out: room comes back with time

    def give_back(self) -> None:
        self._held -= 1
        self._changed.set()

    def close(self, until: float) -> None:
        """Give no place before `until` (`time.monotonic()`)."""
        self._until = max(self._until, until)
        self._changed.set()

    def idle(self) -> bool:
        """Nobody waits, no place is out and the bucket is empty: as good as a new one."""
        self._leak()
        return not self._waiters and not self._held and not self._level

    def roomy(self) -> bool:
        """Whether a lazy waiter would get a place at once."""
        return not self._waiters and self._wait(self.spare) == 0

    def _leak(self) -> None:
        now = time.monotonic()
        self._level = max(0.0, self._level - (now - self._at) / self.pace.every)
        self._at = now

    def _wait(self, spare: int = 0) -> float | None:
        """Seconds until a place is free with `spare` more beside it; None while only a
        place given out can free them."""
        if self._held + spare >= self.pace.burst:
            return None
        self._leak()
        over = self._level + self._held + 1 + spare - self.pace.burst
        wait = max(over * self.pace.every if over > 1e-9 else 0.0, self._until - self._at)
        return max(wait, 0.0)

    def _choose(self) -> tuple[asyncio.Future[None], Callable[[], bool]] | None:
        """Who gets the free place: the first urgent waiter, or on a fair turn the oldest;
        a lazy one only with spare room (None: nobody yet)."""
        waiters = self._waiters
        urgent = next((w for w in waiters if not w[0].done() and w[1]()), None)
        roomy = self._wait(self.spare) == 0
        if urgent is None or (roomy and self.fair and (self._served + 1) % self.fair == 0):
            return waiters[0] if roomy else None
        return urgent

    async def _serve(self) -> None:
        waiters = self._waiters
        while waiters:
            while waiters and waiters[0][0].done():  # its request was cancelled
                waiters.popleft()
            if not waiters:
                return
            wait = self._wait()
            chosen = self._choose() if wait == 0 else None
            if chosen is None:
                self._changed.clear()
                with suppress(TimeoutError):
                    async with asyncio.timeout(wait if wait != 0 else self._wait(self.spare)):
                        await self._changed.wait()
                continue
            self._served += 1
            waiters.remove(chosen)
            self._held += 1
            chosen[0].set_result(None)


@dataclass(slots=True)
class _Ticket:
    """A lane's job in progress: its chat's place and its turn in the bot, taken before
    the job (so that it draws the newest state) and used by its first send or edit (the
    place given back when it sends none), and whether it is urgent."""

    chat: int
    gate: Gate | None
    urgent: Callable[[], bool]
    held: bool = True
    turn: bool = True

    def give_back(self) -> None:
        if self.held and self.gate is not None:
            self.gate.give_back()
        self.held = False


_ticket: ContextVar[_Ticket | None] = ContextVar("outbox_ticket", default=None)


def _late(started: float, wait: float) -> bool:
    """Whether a callback answer would go out too late after waiting `wait` more seconds."""
    return time.monotonic() - started + wait > ANSWER_WITHIN


def _done(method: TelegramMethod[TelegramType]) -> Response[TelegramType]:
    """The request counts as done (an edit that changed nothing, an answer given up, a
    reply skipped)."""
    return Response[TelegramType](ok=True, result=cast(TelegramType, True))


def _given_up(method: TelegramMethod[TelegramType], why: str) -> Response[TelegramType]:
    """A callback answer that cannot reach the person in time: the press itself has been
    handled, so it is given up, not failed."""
    log.info("callback answer given up: %s", why)
    return _done(method)


class Recently:
    """Keys said lately, each forgotten after its own number of seconds."""

    def __init__(self) -> None:
        self._until: dict[Hashable, float] = {}  # key → until when it counts as said
        self._tidy_at = 64  # forget what has run out once there are this many keys

    def first(self, key: Hashable, seconds: float) -> bool:
        """True when `key` was not said in its time (and from now on it has been, for
        `seconds`)."""
        now = time.monotonic()
        if len(self._until) > self._tidy_at:
            self._until = {k: until for k, until in self._until.items() if until > now}
            self._tidy_at = max(64, 2 * len(self._until))
        if self._until.get(key, 0.0) > now:
            return False
        self._until[key] = now + seconds
        return True


class Pacing(BaseRequestMiddleware):
    """Every request of the bot's session passes here (see the module's docstring)."""

    def __init__(self, limits: Limits = Limits()) -> None:
        self.limits = limits
        self._chats: dict[int, Gate] = {}  # the least recently used first
        self._everywhere = Gate(limits.everywhere, fair=LAZY_TURN)  # whose turn, counted then
        self._wire = Gate(limits.everywhere)  # the same pace, counted when requests leave
        self._banned_until = 0.0  # time.monotonic() when the last 429's retry_after ends
        self._said = Recently()  # a group's replies of the last `REPEATED_WITHIN` seconds

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
        if paced and self._repeated(chat, method):
            log.info("reply in chat %s skipped: the same was sent just now", chat)
            return _done(method)  # it is right above in the chat
        while True:
            if paced and (skipped := await self._places(chat, method)):
                log.info("reply in chat %s skipped: %s", chat, skipped)
                return _done(method)  # the command itself has been handled
            try:
                return await make_request(bot, method)
            except TelegramRetryAfter as error:
                self._ban(time.monotonic() + error.retry_after)
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

    def share(self, part: float) -> None:
        """This process sends `part` of the bot's messages (the rest is other workers'):
        its bot-wide pace is that part of the bot's."""
        whole = self.limits.everywhere
        pace = Pace(max(1, round(whole.burst * part)), whole.every / max(part, 1e-3))
        self._everywhere.pace = self._wire.pace = pace

    def _repeated(self, chat: int | None, method: TelegramMethod[Any]) -> bool:
        """Whether a reply (not a game message) is to be skipped: the group's budget is
        used up and it has had this very reply within `REPEATED_WITHIN` seconds (e.g. the
        same /score asked again while the chat is busy)."""
        if _ticket.get() is not None or chat is None or chat > 0 or not self.limits.paced:
            return False
        fresh = self._said.first((chat, repr(method)), REPEATED_WITHIN)
        return not fresh and not self._gate(chat).roomy()

    def _ban(self, until: float) -> None:
        self._banned_until = max(self._banned_until, until)
        self._everywhere.close(until)
        self._wire.close(until)

    async def unbanned(self) -> None:
        """Return once the last 429's `retry_after` is over. A 429 does not say whether it
        is the chat's limit or the bot's, and a request inside a bot-wide ban extends it, so
        every chat waits."""
        while (left := self._banned_until - time.monotonic()) > 0:
            await asyncio.sleep(left)

    async def _places(self, chat: int | None, method: TelegramMethod[Any]) -> str | None:
        """Wait for a send or edit's place in its chat, then in the bot (after any ban),
        and count it as leaving now. For a reply that is not to be sent, why: it found no
        place in time."""
        if not self.limits.paced:
            await self.unbanned()
            return None
        ticket = _ticket.get()
        if ticket is not None:
            await self._leave(chat, ticket)
            return None
        try:
            async with asyncio.timeout(self.limits.reply_patience):
                await self._leave(chat, None)
        except TimeoutError:
            return f"no place within {self.limits.reply_patience:.0f} s"
        return None

    async def _leave(self, chat: int | None, ticket: _Ticket | None) -> None:
        """A place in `chat` (a lane's ticket may hold one; lanes go before replies), a turn
        in the bot (urgent ones first; a lane's ticket has one), then the wire's pace; the
        places count from then."""
        gate = None if chat is None else self._gate(chat)
        if gate is not None and ticket is not None and ticket.held and ticket.chat == chat:
            ticket.held = False
        elif gate is not None:
            await gate.take(never if ticket is None else always)
        try:
            if ticket is not None and ticket.turn:
                ticket.turn = False
            else:
                await self._turn(always if ticket is None else ticket.urgent)
            await self._wire.take()
        except BaseException:
            if gate is not None:
                gate.give_back()
            raise
        self._wire.spend()
        if gate is not None:
            gate.spend()

    async def _turn(self, urgent: Callable[[], bool]) -> None:
        """A turn in the bot's pace, counted when it comes."""
        await self._everywhere.take(urgent)
        self._everywhere.spend()

    def _gate(self, chat: int) -> Gate:
        """`chat`'s gate, made the most recently used; the least recently used one goes
        when it is as good as new (a quiet chat costs no memory)."""
        gate = self._chats.pop(chat, None)
        if gate is None:
            gate = Gate(self.limits.private if chat > 0 else self.limits.group, spare=1)
        self._chats[chat] = gate
        oldest = next(iter(self._chats))
        if oldest != chat and self._chats[oldest].idle():
            del self._chats[oldest]
        return gate

    async def ticket(self, chat: int, urgent: Callable[[], bool]) -> _Ticket:
        """A place in `chat` for a lane's next job (before the chat's replies) and its turn
        in the bot (after urgent ones if it is lazy)."""
        if not self.limits.paced:
            return _Ticket(chat, None, urgent, held=False, turn=False)
        gate = self._gate(chat)
        await gate.take(always)
        try:
            await self._turn(urgent)
        except BaseException:
            gate.give_back()
            raise
        return _Ticket(chat, gate, urgent)


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
    rows: list[int] = field(default_factory=list)  # its `outbox` rows (merged ones too)

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
    newer.rows[:0] = entry.rows
    lane.appendleft(newer)


class Outbox:
    """One lane per chat for the game's messages (see the module's docstring)."""

    def __init__(
        self,
        pacing: Pacing,
        done: Callable[[list[int]], None] | None = None,
        idle: Callable[[], None] | None = None,
    ) -> None:
        self.pacing = pacing
        self._done = done  # told the rows of each job that ran or was dropped
        self._idle = idle  # told when the last lane has sent everything
        self._lanes: dict[int, deque[_Entry[Any]]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._said = Recently()

    def post(
        self,
        chat: int,
        job: Job[P],
        payload: P,
        key: Hashable | None = None,
        merge: Merge[P] = newest,
        urgent: bool = True,
        row: int | None = None,
    ) -> None:
        """Queue `job(payload)` for `chat`; a waiting job with the same `key` takes the
        payload instead (`merge(waiting, new)`, by default the new one). A lazy job waits
        behind urgent ones for the bot's global pace. `row`: the job's `outbox` row, told
        to `done` once the job has run or been dropped."""
        lane = self._lanes.setdefault(chat, deque())
        waiting = next((e for e in lane if key is not None and e.key == key), None)
        if waiting is not None:
            waiting.payload = waiting.merge(waiting.payload, payload)
            waiting.job = job
            waiting.urgent |= urgent
        else:
            waiting = _Entry(job, payload, key, urgent, merge)
            lane.append(waiting)
        if row is not None:
            waiting.rows.append(row)
        if chat not in self._workers:
            self._workers[chat] = asyncio.create_task(self._drain(chat, lane))

    async def _drain(self, chat: int, lane: deque[_Entry[Any]]) -> None:
        """Send `chat`'s jobs in order, each once the chat has a place for it (so it takes
        the newest payload)."""
        failures = 0
        try:
            while lane:
                await self.pacing.unbanned()
                entry = lane[0]  # only this task takes from the lane's head
                ticket = await self.pacing.ticket(chat, entry.is_urgent)
                lane.popleft()
                token = _ticket.set(ticket)
                finished = True
                try:
                    await entry.job(entry.payload)
                    failures = 0
                except TelegramRetryAfter:
                    finished = False
                    _again(lane, entry)  # the ban is recorded: wait, then the newest
                except (TelegramServerError, TelegramNetworkError) as error:
                    finished = False
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
                    ticket.give_back()
                if finished and entry.rows and self._done is not None:
                    self._done(entry.rows)
        finally:
            del self._workers[chat]
            if not lane:
                del self._lanes[chat]
            if not self._workers and self._idle is not None:
                self._idle()

    def idle(self) -> bool:
        """Nothing waits or is being sent."""
        return not self._workers

    def seldom(self, key: Hashable, seconds: float) -> bool:
        """True when nothing was said under `key` in the last `seconds` (then from now on
        it has been): e.g. one answer of a kind per chat per half minute."""
        return self._said.first(key, seconds)

    async def close(self, chats: Callable[[int], bool] = lambda chat: True) -> None:
        """On a stop (of the `chats` whose sending goes elsewhere): let their lanes finish
        for a few seconds, then drop what is left (its `outbox` rows stay for the next
        sender)."""
        workers = [task for chat, task in self._workers.items() if chats(chat)]
        if not workers:
            return
        _, late = await asyncio.wait(workers, timeout=CLOSE_SECONDS)
        if late:
            left = sum(len(lane) for chat, lane in self._lanes.items() if chats(chat))
            log.warning("stopping with %s messages not sent in %s chats", left, len(late))
        await self.drop(chats)

    async def drop(self, chats: Callable[[int], bool] = lambda chat: True) -> None:
        """Stop the lanes of `chats` now and forget what waits there (its rows are someone
        else's now)."""
        workers = [task for chat, task in self._workers.items() if chats(chat)]
        for worker in workers:
            worker.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
        for chat in [chat for chat in self._lanes if chats(chat)]:
            del self._lanes[chat]
