"""What a player may do on their turn."""

from __future__ import annotations

from dataclasses import dataclass

from bot.game.tiles import Tile


@dataclass(frozen=True, slots=True)
class Play:
    """Put `tile` on arm `end` (0 for the opening tile; on a line 0 = left, 1 = right)."""

    tile: Tile
    end: int


@dataclass(frozen=True, slots=True)
class PlayDoubles:
    """Sea Goat's double pair: one double on each open end, in one move (§3)."""

    tiles: tuple[Tile, ...]
    ends: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Draw:
    """Take one tile from the bazaar (when drawing is not automatic)."""


@dataclass(frozen=True, slots=True)
class Pass:
    """Give up the turn although a tile fits (only with `voluntary_pass`)."""


Move = Play | PlayDoubles | Draw | Pass
