"""The one path after a stored turn: show it, let a computer seat move, arm the clock."""

from __future__ import annotations

import asyncio
import logging

from bot.core.computers import Computers
from bot.core.rows import GameRow
from bot.core.screen import Screen, Turn
from bot.core.timers import Timers
from bot.game.state import Phase

log = logging.getLogger(__name__)


class FollowUp:
    """After every stored turn: `screen` shows it, `computers` move if a computer seat (or an
    away person's) is next, and `timers` start the next person's clock — after the first
    deal once the screen says its table is out (`Screen.dealt`). The service is wired to
    it once (`GameService.wire`): every change the service stores moves on through here."""

    def __init__(self, screen: Screen, computers: Computers, timers: Timers) -> None:
        self.screen = screen
        self.computers = computers
        self.timers = timers
        self._dealing: set[int] = set()  # games whose first deal waits for its table
        self._tasks: set[asyncio.Task[None]] = set()

    async def after(self, turn: Turn) -> None:
        await self.screen.show_turn(turn)
        game = turn.game
        if turn.before is None:  # the first deal: nobody moves before its table is out
            self._dealing.add(game.id)
            task = asyncio.create_task(self._dealt(game))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            return
        self._dealing.discard(game.id)  # a turn before that (someone left) moves it on
        self.follow(game)

    async def _dealt(self, game: GameRow) -> None:
        try:
            await self.screen.dealt(game)
        except Exception:  # the game goes on all the same
            log.exception("game %s: its first table was not waited for", game.id)
        if game.id in self._dealing:
            self._dealing.discard(game.id)
            self.follow(game)

    def follow(self, game: GameRow) -> None:
        """Whatever moves the game on from here: a computer's move, a clock."""
        self.computers.wake(game)
        self.timers.arm(game)

    async def resume(self, games: list[GameRow]) -> None:
        """After a restart: every open game shown again and moving on."""
        for game in games:
            await self.screen.resume(game)
            if game.is_open:
                self.follow(game)

    def lacks(self, game: GameRow) -> list[str]:
        """What way forward a running game lacks: «computer» (its move on the way),
        «clock» (the person's, in a timed game), «hand» (the person's, with buttons);
        nothing while its first deal waits for its table."""
        state = game.state
        if state is None or state.phase is not Phase.PLAYING or game.id in self._dealing:
            return []
        mover = game.players[state.to_move]
        if not mover.human or mover.away:
            return [] if self.computers.busy(game.id) else ["computer"]
        missing = []
        if game.deadline is not None and not self.timers.armed(game.id):
            missing.append("clock")
        if not self.screen.hand_is_live(game):
            missing.append("hand")
        return missing

    def repair(self, game: GameRow) -> list[str]:
        """Give a running game whatever way forward it lacks, and name what was missing.
        Called between two turns (under the game's lock)."""
        missing = self.lacks(game)
        if "computer" in missing:
            self.computers.wake(game)
        if "clock" in missing:
            self.timers.arm(game)
        if "hand" in missing:
            self.screen.show_hand_anew(game)
        return missing
