"""Telegram's flood limits as leaky buckets with a queue: the places a chat (20 a minute in
a group, about one a second in private) or the bot as a whole (about 30 a second) gives its
requests (`Gate`), counted on the wire, urgent waiters first; what was said lately
(`Recently`), for what is to be said at most once in a while; and the edits of each message
on their way (`Latest`), of which the newest wins."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Hashable, Iterator
from contextlib import asynccontextmanager, contextmanager, suppress
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pace:
    """A leaky bucket: `burst` requests at once, then one every `every` seconds. In any
    window of `t` seconds it lets through at most `burst + t / every`."""

    burst: int
    every: float


ALLOWANCE = 30
"""Telegram's allowance for a bot's sends and edits a second (the Bots FAQ's bulk limit)."""
USED = 22 / ALLOWANCE
"""The part of the allowance the bot paces itself to: a margin for requests that reach
Telegram closer together than they left."""


def bot_pace(allowance: float = ALLOWANCE) -> Pace:
    """The whole bot's pace for a token allowed `allowance` sends and edits a second:
    ≤ 1 + 22 in any second for Telegram's usual 30."""
    return Pace(1, 1 / (allowance * USED))


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
    (room the urgent ones may need next), and none while a place is spoken for (`claimed`:
    a lane between its jobs). No place is given before `close`'s time."""

    def __init__(self, pace: Pace, fair: int = 0, spare: int = 0) -> None:
        self.pace = pace
        self.fair = fair
        self.spare = spare
        self._level = 0.0  # requests counted, one leaks out every `pace.every`
        self._at = time.monotonic()
        self._held = 0  # places given, not yet spent or given back
        self._until = 0.0  # time.monotonic() before which no place is given
        self._claims = 0  # places spoken for: lazy waiters wait behind them
        self._waiters: deque[tuple[asyncio.Future[None], Callable[[], bool]]] = deque()
        self._served = 0
        self._changed = asyncio.Event()
        self._pump: asyncio.Task[None] | None = None

    async def take(self, urgent: Callable[[], bool] = always) -> None:
        """Wait for a place (given back if the wait is cancelled after all)."""
        if not self._waiters and (self._wait() if urgent() else self._lazy()) == 0:
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

    @contextmanager
    def claimed(self) -> Iterator[None]:
        """While inside, an urgent place is spoken for: no lazy waiter gets one (a lane keeps
        its chat's next place between its jobs, however long the loop takes to ask)."""
        self._claims += 1
        try:
            yield
        finally:
            self._claims -= 1
            self._changed.set()

    def close(self, until: float) -> None:
        """Give no place before `until` (`time.monotonic()`)."""
        self._until = max(self._until, until)
        self._changed.set()

    def idle(self) -> bool:
        """Nobody waits, no place is out and the bucket is empty: as good as a new one."""
        self._leak()
        return not self._waiters and not self._held and not self._level and not self._claims

    def roomy(self) -> bool:
        """Whether a lazy waiter would get a place at once."""
        return not self._waiters and self._lazy() == 0

    def _leak(self) -> None:
        now = time.monotonic()
        self._level = max(0.0, self._level - (now - self._at) / self.pace.every)
        self._at = now

    def _wait(self, spare: int = 0) -> float | None:
        """Seconds until a place is free with `spare` more beside it; None while only a
        place given out can free them. A pace of `burst` places keeps at most `burst - 1` spare."""
        spare = min(spare, self.pace.burst - 1)
        if self._held + spare >= self.pace.burst:
            return None
        self._leak()
        over = self._level + self._held + 1 + spare - self.pace.burst
        wait = max(over * self.pace.every if over > 1e-9 else 0.0, self._until - self._at)
        return max(wait, 0.0)

    def _lazy(self) -> float | None:
        """`_wait` for a lazy waiter: with `spare` room beside, and none spoken for."""
        return None if self._claims else self._wait(self.spare)

    def _choose(self) -> tuple[asyncio.Future[None], Callable[[], bool]] | None:
        """Who gets the free place: the first urgent waiter, or on a fair turn the oldest;
        a lazy one only with spare room (None: nobody yet)."""
        waiters = self._waiters
        urgent = next((w for w in waiters if not w[0].done() and w[1]()), None)
        roomy = self._lazy() == 0
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
                    async with asyncio.timeout(wait if wait != 0 else self._lazy()):
                        await self._changed.wait()
                continue
            self._served += 1
            waiters.remove(chosen)
            self._held += 1
            chosen[0].set_result(None)


class Recently:
    """Keys said lately, each forgotten after its own number of seconds."""

    def __init__(self) -> None:
        self._until: dict[Hashable, float] = {}  # key → until when it counts as said
        self._tidy_at = 64  # forget what has run out once there are this many keys

    def first(self, key: Hashable, seconds: float) -> bool:
        """True when `key` was not said in its time (and from now on it has been, for
        `seconds`)."""
        if self.lately(key):
            return False
        self.note(key, seconds)
        return True

    def note(self, key: Hashable, seconds: float) -> None:
        """`key` is said now: it counts for `seconds` from now."""
        now = time.monotonic()
        if len(self._until) > self._tidy_at:
            self._until = {k: until for k, until in self._until.items() if until > now}
            self._tidy_at = max(64, 2 * len(self._until))
        self._until[key] = now + seconds

    def lately(self, key: Hashable) -> bool:
        return self._until.get(key, 0.0) > time.monotonic()


@dataclass(slots=True)
class _Edited:
    turn: asyncio.Lock  # held by the edit of the message being sent
    newest: int  # the number of the last edit asked for


class Latest:
    """The edits of each message on their way: they go one at a time, in the order they
    were asked for, and one whose turn comes after a newer edit of the same message was
    asked for gives way to it (the message ends showing the newest, and a burst of presses
    costs the chat two places, not one each)."""

    def __init__(self) -> None:
        self._messages: dict[Hashable, _Edited] = {}
        self._asked = 0

    @asynccontextmanager
    async def turn(self, message: Hashable) -> AsyncIterator[bool]:
        """Wait for the turn of an edit of `message`; yields whether it is still the
        newest (else it is not to be sent)."""
        self._asked += 1
        number = self._asked
        edited = self._messages.setdefault(message, _Edited(asyncio.Lock(), number))
        edited.newest = number
        try:
            async with edited.turn:
                yield edited.newest == number
        finally:
            if edited.newest == number and self._messages.get(message) is edited:
                del self._messages[message]  # nothing newer waits: the message is forgotten
