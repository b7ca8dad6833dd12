"""Tiles (кости) and sets: a tile is a small int index into its `TileSet`.

Hands and the table are bitmasks over those indices, so the questions the engine asks
most often — what fits an end, how many doubles a hand holds — are single `&` operations
on tables computed once per set.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import cache

Tile = int
"""Index of a tile in its `TileSet` (0-0 is 0, then 0-1 … 0-n, 1-1, …)."""


class TileSet:
    """The double-`max_pip` set and its lookup tables."""

    __slots__ = (
        "all_mask",
        "by_pips",
        "doubles_mask",
        "follow",
        "max_pip",
        "pip_chunks",
        "pips",
        "plain_suit_masks",
        "size",
        "suit_masks",
        "values",
    )

    def __init__(self, max_pip: int) -> None:
        self.max_pip = max_pip
        self.pips: tuple[tuple[int, int], ...] = tuple(
            (a, b) for a in range(max_pip + 1) for b in range(a, max_pip + 1)
        )
        self.size = len(self.pips)
        self.by_pips: dict[tuple[int, int], Tile] = {}
        for tile, (a, b) in enumerate(self.pips):
            self.by_pips[a, b] = self.by_pips[b, a] = tile
        self.values: tuple[int, ...] = tuple(a + b for a, b in self.pips)
        self.all_mask = (1 << self.size) - 1
        self.suit_masks: tuple[int, ...] = tuple(
            sum(1 << t for t, (a, b) in enumerate(self.pips) if v in (a, b))
            for v in range(max_pip + 1)
        )
        self.doubles_mask = sum(1 << t for t, (a, b) in enumerate(self.pips) if a == b)
        self.plain_suit_masks: tuple[int, ...] = tuple(
            m & ~self.doubles_mask for m in self.suit_masks
        )
        # pip sums of every byte of a hand mask, so a hand's value is a few lookups
        self.pip_chunks: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                sum(self.values[base + bit] for bit in range(8) if byte >> bit & 1)
                for byte in range(256 if base + 8 <= self.size else 1 << (self.size - base))
            )
            for base in range(0, self.size, 8)
        )
        # follow[tile][end value]: the half left open by attaching there, -1 if it does not fit
        self.follow: tuple[tuple[int, ...], ...] = tuple(
            tuple(b if a == v else a if b == v else -1 for v in range(max_pip + 1))
            for a, b in self.pips
        )

    def tile(self, a: int, b: int) -> Tile:
        """The tile with halves `a` and `b` (in either order)."""
        return self.by_pips[a, b]

    def parse(self, text: str) -> Tile:
        """A tile written as `2-4` or `12-10` (or `2:4`, `24`)."""
        halves = re.split(r"[-:]", text.strip())
        if len(halves) == 1 and len(text.strip()) == 2:
            halves = list(text.strip())
        if len(halves) == 2 and all(h.isdigit() and int(h) <= self.max_pip for h in halves):
            return self.by_pips[int(halves[0]), int(halves[1])]
        raise ValueError(f"not a tile of double-{self.max_pip}: {text!r}")

    def name(self, tile: Tile) -> str:
        a, b = self.pips[tile]
        return f"{a}-{b}"

    def is_double(self, tile: Tile) -> bool:
        return bool(self.doubles_mask >> tile & 1)

    def other_half(self, tile: Tile, value: int) -> int:
        """The half of `tile` that is left open when its `value` half is attached."""
        a, b = self.pips[tile]
        return b if a == value else a

    def pip_sum(self, hand: int) -> int:
        """The pips of every tile in the mask `hand`."""
        total = 0
        for chunk in self.pip_chunks:
            total += chunk[hand & 255]
            hand >>= 8
        return total

    def mask(self, tiles: Iterable[Tile]) -> int:
        m = 0
        for tile in tiles:
            m |= 1 << tile
        return m


def tiles_of(mask: int) -> Iterator[Tile]:
    """The tiles of a bitmask, in index order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@cache
def tile_set(max_pip: int) -> TileSet:
    """The shared (immutable) tile set for `max_pip`."""
    return TileSet(max_pip)
