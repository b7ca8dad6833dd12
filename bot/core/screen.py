"""What the core hands to the screen after a stored turn (`Turn`), what the screen does
(`Screen`), what moves a game on (`Onward`) and who hears of every committed change
(`Listener`): plain data and protocols, below every module that moves a game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.core.rows import GameRow
from bot.game.events import Event, GameEnded, RoundEnded, TilesDrawn
from bot.game.state import GameState


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


class Onward(Protocol):
    """What moves a game on after a change, given to the service once when the bot is
    wired (`bot.core.follow_up.FollowUp`): no caller of the service passes it."""

    async def after(self, turn: Turn) -> None:
        """A turn was stored: it is shown, and the game moves on from it. Runs under the
        game's lock (so turns are shown in order)."""

    def follow(self, game: GameRow) -> None:
        """Whatever moves `game` on from here: a computer's move, a clock."""


class Standstill:
    """Nothing moves a game on: the service alone (tests, tools), before it is wired."""

    async def after(self, turn: Turn) -> None:
        pass

    def follow(self, game: GameRow) -> None:
        pass


class Listener(Protocol):
    """Hears that a change to a game has been committed, whoever made it: a move, a seat, a
    clock (the table app's live streams, `bot.webapp.hub`)."""

    def changed(self, game_id: int, game: GameRow | None = None) -> None:
        """Game `game_id` changed; called right after the commit, so it must not wait.
        `game` is the game as stored now, when the change's committer knows it whole."""


class Unheard:
    """Nobody listens: the storage alone (tests, tools), before the app wires a listener."""

    def changed(self, game_id: int, game: GameRow | None = None) -> None:
        pass


class Screen(Protocol):
    """What people see of the games; the Telegram side implements it."""

    async def show_turn(self, turn: Turn) -> None:
        """The table, round results, the game's end and the hands after `turn`."""

    async def dealt(self, game: GameRow) -> None:
        """After the first deal's `show_turn`: returns once its table is out (or a while
        later), the hands then on their way."""

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
