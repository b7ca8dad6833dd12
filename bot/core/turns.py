"""The one path after a stored turn: show it, let a computer seat move, arm the clock."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from bot.core.records import GameRow
from bot.game.events import Event, GameEnded, RoundEnded, TilesDrawn
from bot.game.state import GameState, Phase

if TYPE_CHECKING:
    from bot.core.computers import Computers
    from bot.core.timers import Timers

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Turn:
    """What an accepted action did, for the messages about it."""

    game: GameRow  # as stored after the action
    before: GameState | None  # None when the game has just started
    state: GameState
    events: tuple[Event, ...]  # the next round's deal included
    closed: GameState | None = None  # the round as it ended, hands revealed
    timed_out: int | None = None  # the seat the computer moved for: its time ran out
    left: int | None = None  # the seat whose person left the game (or was removed)

    @property
    def drawn(self) -> dict[int, tuple[int, ...]]:
        """Tiles each seat took from the bazaar (private to that seat)."""
        taken: dict[int, tuple[int, ...]] = {}
        for event in self.events:
            if isinstance(event, TilesDrawn):
                taken[event.seat] = taken.get(event.seat, ()) + event.tiles
        return taken

    @property
    def rounds(self) -> list[RoundEnded]:
        return [e for e in self.events if isinstance(e, RoundEnded)]

    @property
    def ended(self) -> GameEnded | None:
        return next((e for e in self.events if isinstance(e, GameEnded)), None)


AfterTurn = Callable[[Turn], Awaitable[None]]
"""Runs after a turn is stored, under the game's lock (so turns are shown in order)."""


class Screen(Protocol):
    """What people see of the games; the Telegram side implements it."""

    async def show_turn(self, turn: Turn) -> None:
        """The table, round results, the game's end and the hands after `turn`."""

    async def warn(self, game_id: int, version: int, seconds: int) -> None:
        """The person to move at `version` has `seconds` left."""

    def show_ended(self, game: GameRow) -> None:
        """A lobby or game ended without being played out: every message of it says so."""

    async def resume(self, game: GameRow) -> None:
        """After a restart: what a crash cut off, and the stored state shown again."""

    def hand_is_live(self, game: GameRow) -> bool:
        """The person to move has a hand with buttons for the game's move, shown or on
        its way."""

    def show_hand_anew(self, game: GameRow) -> None:
        """The person to move gets their hand as a new message."""


class Turns:
    """After every stored turn: `screen` shows it, `computers` move if a computer seat (or an
    away person's) is next, and `timers` start the next person's clock."""

    def __init__(self, screen: Screen, computers: Computers, timers: Timers) -> None:
        self.screen = screen
        self.computers = computers
        self.timers = timers

    async def after(self, turn: Turn) -> None:
        await self.screen.show_turn(turn)
        self.follow(turn.game)

    def follow(self, game: GameRow) -> None:
        """Whatever moves the game on from here: a computer's move, a clock."""
        self.computers.wake(game, self.after)
        self.timers.arm(game, self.after)

    async def resume(self, games: list[GameRow]) -> None:
        """After a restart: every open game shown again and moving on."""
        for game in games:
            await self.screen.resume(game)
            if game.is_open:
                self.follow(game)

    def lacks(self, game: GameRow) -> list[str]:
        """What way forward a running game lacks: «computer» (its move on the way),
        «clock» (the person's, in a timed game), «hand» (the person's, with buttons)."""
        state = game.state
        if state is None or state.phase is not Phase.PLAYING:
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
            self.computers.wake(game, self.after)
        if "clock" in missing:
            self.timers.arm(game, self.after)
        if "hand" in missing:
            self.screen.show_hand_anew(game)
        return missing
