"""What a player may do on their turn."""

from __future__ import annotations

from dataclasses import dataclass

from bot.game.tiles import Tile


@dataclass(frozen=True, slots=True)
class Play:
    """Put `tile` on arm `end` (0 for the opening tile; 0 = west, 1 = east, 2 = north,
    3 = south); `closed`: a double face down, ending its arm (Осёл)."""

    tile: Tile
    end: int
    closed: bool = False


@dataclass(frozen=True, slots=True)
class PlayDoubles:
    """Several doubles in one move, one per open end: Sea Goat's pair (§3), Осёл's and
    Телефон's 2–4 (§5, §6). `closed` says, per tile, which lie face down (Осёл; empty: none).
    With no spinner yet, the first open one becomes it."""

    tiles: tuple[Tile, ...]
    ends: tuple[int, ...]
    closed: tuple[bool, ...] = ()


@dataclass(frozen=True, slots=True)
class Draw:
    """Take one tile from the bazaar (when drawing is not automatic)."""


@dataclass(frozen=True, slots=True)
class Pass:
    """Give up the turn although a tile fits (only with `voluntary_pass`)."""


Move = Play | PlayDoubles | Draw | Pass
