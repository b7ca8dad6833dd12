"""The game state: one immutable value. A move makes a new state and shares the rest,
so a search can branch from any state for the cost of a tuple."""

from __future__ import annotations

from enum import StrEnum
from typing import Final, NamedTuple

from bot.game.events import GameEnded, PublicEvent, RoundEnded, plays_of
from bot.game.rules import RuleSet
from bot.game.scoring import Tally
from bot.game.shuffle import lot_seed
from bot.game.table import LINE, Layout, Spread, build_table
from bot.game.tiles import Tile


class Phase(StrEnum):
    PLAYING = "playing"
    ROUND_OVER = "round_over"  # the round's result is in `last_round`; `next_round` deals
    GAME_OVER = "game_over"  # the result is in `outcome`


class GameState(NamedTuple):
    rules: RuleSet
    seats: tuple[str, ...]  # opaque player ids, in seating order
    seed: int
    round_no: int
    phase: Phase
    hands: tuple[int, ...]  # a bitmask of tiles per seat
    bazaar: tuple[Tile, ...]  # face down, drawn from the front
    ends: tuple[int, ...]  # open ends of the table, () before the lead
    on_table: int  # bitmask of the tiles on the table
    fits: int  # bitmask of the tiles that fit an open end
    to_move: int
    lead_tile: Tile | None  # the tile the round must open with, None for any
    drawn: int  # tiles the seat to move has drawn this turn
    idle: int  # turns in a row without a tile played
    last_player: int | None  # who placed the last tile: the fisherman if the line closes
    history: tuple[PublicEvent, ...]  # this round's public events
    tally: Tally
    next_leader: int | None  # leads the next round (went out, or the fisherman)
    last_round: RoundEnded | None
    outcome: GameEnded | None
    left: tuple[int, ...]  # seats whose people left, in order: the computer plays them
    spread: Spread = LINE  # the spinner and how each arm ends (spinner games, closed doubles)
    resting: tuple[int, ...] = ()  # Bykovo, «Генерал»: the seats that sit this round out

    @property
    def table(self) -> Layout:
        """The table as it lies, rebuilt from this round's plays."""
        return build_table(self.rules.tiles, self.rules.spinner, plays_of(self.history))

    @property
    def lots(self) -> int:
        """What the game's lots are drawn from (`shuffle.lot_seed`)."""
        return lot_seed(self.seed, self.rules.edition)

    def is_out(self, seat: int) -> bool:
        """Whether `seat` is out of the game: the room puts sides out at its limit."""
        out = self.tally.out
        return bool(out) and bool(out[self.rules.side_of(seat)])

    def sits_out(self, seat: int) -> bool:
        """Whether `seat` has no part in this round: out of the game, or resting (§4.2)."""
        return seat in self.resting or self.is_out(seat)

    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(hand.bit_count() for hand in self.hands)

    def drawable(self) -> int:
        """Bazaar tiles that may still be drawn (`keep` stay face down for good)."""
        return max(0, len(self.bazaar) - self.rules.keep)


from_fields: Final = tuple.__new__
"""A named tuple (`GameState`, an event) built from its fields in order, without
`__new__`'s argument binding: the engine's hot path builds states so."""
