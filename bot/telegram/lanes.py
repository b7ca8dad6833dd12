"""Telegram's 20 messages a minute in a group go to the newest game: `Lanes` keeps one lane
per chat for the game's messages. A lane sends its jobs in order;
a job posted under the key of one still waiting (the table of a round, a player's hand)
replaces that job's payload, so only the newest state goes out. Each job takes its chat's
place and its turn in the bot (`Pacing.ticket`) before it runs, so it draws the newest
state. After a 429 the lane waits out the ban, then sends the newest payload — never the
stale one again. A job that fails on a Telegram outage stays first in its lane (taking any
newer payload) and is tried again after growing waits, up to `LANE_PATIENCE` apart, until
Telegram takes it or says it never will (a 4xx): only then is it dropped, with a log line.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from aiogram.exceptions import (
    TelegramAPIError,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)

from bot.telegram.gates import Recently
from bot.telegram.pacing import Pacing
from bot.telegram.tickets import current_ticket

log = logging.getLogger(__name__)
P = TypeVar("P")

CLOSE_SECONDS = 5.0  # how long a stop lets the lanes finish before dropping what is left
LANE_BACKOFF = (1.0, 2.0, 4.0, 8.0, 15.0, 30.0)  # a lane's waits after a failed job
LANE_PATIENCE = 60.0  # the longest wait between a lane's tries


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


class Lanes:
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
                with self.pacing.claimed(chat):  # its next place, until it asks for it
                    rest = await self._next(chat, lane, failures)
                if rest is None:
                    failures = 0
                else:  # Telegram failed: the claim is let go while the lane waits
                    failures += 1
                    await asyncio.sleep(rest)
        finally:
            del self._workers[chat]
            if not lane:
                del self._lanes[chat]
            if not self._workers and self._idle is not None:
                self._idle()

    async def _next(self, chat: int, lane: deque[_Entry[Any]], failures: int) -> float | None:
        """Send the lane's first job once it has its places; None, or the seconds to wait
        before the next try when Telegram failed (the job is first again)."""
        entry = lane[0]  # only this task takes from the lane's head
        ticket = await self.pacing.ticket(chat, entry.is_urgent)
        lane.popleft()
        token = current_ticket.set(ticket)
        finished = True
        try:
            await entry.job(entry.payload)
        except TelegramRetryAfter:
            finished = False
            _again(lane, entry)  # the ban is recorded: wait, then the newest
        except (TelegramServerError, TelegramNetworkError) as error:
            wait = min(LANE_BACKOFF[min(failures, len(LANE_BACKOFF) - 1)], LANE_PATIENCE)
            log.warning(
                "message to chat %s (%s) failed (%s), again in %s s",
                chat, entry.key, error.message, wait,
            )  # fmt: skip
            _again(lane, entry)
            return wait
        except TelegramAPIError as error:
            log.warning("message to chat %s (%s) dropped: %s", chat, entry.key, error)
        except Exception:
            log.exception("message to chat %s (%s) not sent", chat, entry.key)
        finally:
            current_ticket.reset(token)
            ticket.give_back()
        if finished and entry.rows and self._done is not None:
            self._done(entry.rows)
        return None

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
