"""Turn clocks: a private warning 15 s before a person's time runs out, then the normal
computer level moves for them (`GameService.time_out`). A lobby where nothing happens
closes. Deadlines live in the database, so after a restart the clocks go on from them (one
already past fires at once)."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable
from typing import Protocol

from bot.ai import Level, choose
from bot.core.rows import GameRow, GameStatus
from bot.core.screen import Screen
from bot.core.service import GameService
from bot.game.moves import Move
from bot.game.state import GameState
from bot.game.view import seat_view

log = logging.getLogger(__name__)
WARN_BEFORE = 15  # seconds left when the person to move is warned


class Clock(Protocol):
    """The time, and waiting for it; tests pass one they can move by hand."""

    def now(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


class SystemClock:
    """The system's time, `offset` seconds on (the end-to-end tests move the bot's clock
    so: `Settings.clock_offset`)."""

    def __init__(self, offset: float = 0.0) -> None:
        self.offset = offset

    def now(self) -> float:
        return time.time() + self.offset

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


def stand_in(state: GameState, seat: int) -> Move:
    """The move the normal computer makes for a person whose time ran out."""
    rng = random.Random(f"{state.round_no}:{len(state.history)}")
    return choose(seat_view(state, seat), Level.NORMAL, rng)


class Timers:
    """One clock per open game, set again after every stored turn (`arm`)."""

    def __init__(self, service: GameService, screen: Screen, clock: Clock) -> None:
        self.service = service
        self.screen = screen
        self.clock = clock
        self._tasks: dict[int, asyncio.Task[None]] = {}

    def arm(self, game: GameRow) -> None:
        """Start the clock of the turn `game` is at (and stop the previous turn's), or of
        the lobby `game` is; a timed-out move goes on through the service."""
        old = self._tasks.pop(game.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        if game.deadline is None:
            return
        if game.status is GameStatus.ACTIVE:
            self._start(game.id, self._turn(game.id, game.version, game.deadline))
        elif game.status is GameStatus.LOBBY:
            self._start(game.id, self._lobby(game.id))

    def _start(self, game_id: int, clock: Awaitable[None]) -> None:
        task = asyncio.ensure_future(clock)
        self._tasks[game_id] = task
        task.add_done_callback(lambda done: self._forget(game_id, done))

    def _forget(self, game_id: int, task: asyncio.Task[None]) -> None:
        if self._tasks.get(game_id) is task:
            del self._tasks[game_id]

    def armed(self, game_id: int) -> bool:
        """Whether the game's clock is running."""
        task = self._tasks.get(game_id)
        return task is not None and not task.done()

    async def close(self) -> None:
        for task in self._tasks.values():
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def _lobby(self, game_id: int) -> None:
        """Close the lobby once nothing has happened in it until its (moving) deadline."""
        try:
            while (game := await self.service.game(game_id)) is not None:
                if game.status is not GameStatus.LOBBY or game.deadline is None:
                    return
                left = game.deadline - self.clock.now()
                if left > 0:
                    await self.clock.sleep(left)
                    continue
                closed = await self.service.close_idle(game_id)
                if closed is not None:
                    self.screen.show_ended(closed)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("lobby clock of game %s failed", game_id)

    async def _turn(self, game_id: int, version: int, deadline: float) -> None:
        try:
            left = deadline - self.clock.now()
            if left > WARN_BEFORE:
                await self.clock.sleep(left - WARN_BEFORE)
                await self.screen.warn(game_id, version, WARN_BEFORE)
            await self.clock.sleep(max(0.0, deadline - self.clock.now()))
            # once due, a new turn elsewhere must not cut the move and its messages short
            await asyncio.shield(self.service.time_out(game_id, version, stand_in))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("turn clock of game %s at version %s failed", game_id, version)
