"""The table (стол): the first tile and the arms that grow from it.

A line has two arms (0 = left, growing from the first tile's low half; 1 = right). A
spinner variant (Осёл, Телефон, Muggins) gives its first double four arms; everything here
works on any number of arms, so only the rule that opens them needs adding.

The state keeps just the open ends and masks the rules need on every move; the full
`Table` is rebuilt from the round's plays when someone wants to look at it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from bot.game.tiles import Tile, TileSet

LINE_ARMS = 2


class Table(NamedTuple):
    """What lies on the table. Arms list their tiles outward from the first tile."""

    first: Tile | None
    arms: tuple[tuple[Tile, ...], ...]
    ends: tuple[int, ...]  # the open value of each arm


def fitting(tiles: TileSet, ends: tuple[int, ...]) -> int:
    """Every tile that fits at least one open end (all tiles on an empty table)."""
    if not ends:
        return tiles.all_mask
    fits = 0
    for value in ends:
        fits |= tiles.suit_masks[value]
    return fits


def opening_ends(tiles: TileSet, tile: Tile) -> tuple[int, ...]:
    """The open ends once `tile` leads: its two halves on a line."""
    return tiles.pips[tile]


def extend(tiles: TileSet, ends: tuple[int, ...], tile: Tile, end: int) -> tuple[int, ...] | None:
    """The open ends after attaching `tile` at arm `end`, or None if it does not fit there."""
    if not 0 <= end < len(ends):
        return None
    new = tiles.follow[tile][ends[end]]
    if new < 0:
        return None
    return (*ends[:end], new, *ends[end + 1 :])


def is_closed_line(tiles: TileSet, ends: tuple[int, ...], on_table: int) -> bool:
    """A line closed on one suit: equal ends and every plain tile of it out (§1.6 fish)."""
    if len(ends) != LINE_ARMS or ends[0] != ends[1]:
        return False
    plain = tiles.plain_suit_masks[ends[0]]
    return on_table & plain == plain


def build_table(tiles: TileSet, plays: Iterable[tuple[Tile, int]]) -> Table:
    """The table after `(tile, arm)` placements in order (the first one leads)."""
    first: Tile | None = None
    arms: list[list[Tile]] = [[] for _ in range(LINE_ARMS)]
    ends: tuple[int, ...] = ()
    for tile, end in plays:
        if first is None:
            first, ends = tile, opening_ends(tiles, tile)
            continue
        after = extend(tiles, ends, tile, end)
        if after is None:
            raise ValueError(f"{tiles.name(tile)} does not fit arm {end}")
        arms[end].append(tile)
        ends = after
    return Table(first, tuple(tuple(arm) for arm in arms), ends)


def oriented(table: Table, tiles: TileSet) -> tuple[tuple[int, int], list[list[tuple[int, int]]]]:
    """Pips as they lie: the first tile, then per arm `(inner, outer)` halves outward."""
    if table.first is None:
        return (0, 0), [[] for _ in table.arms]
    first = tiles.pips[table.first]
    starts = first if len(table.arms) == LINE_ARMS else (first[0],) * len(table.arms)
    arms: list[list[tuple[int, int]]] = []
    for start, arm in zip(starts, table.arms, strict=True):
        halves: list[tuple[int, int]] = []
        value = start
        for tile in arm:
            outer = tiles.other_half(tile, value)
            halves.append((value, outer))
            value = outer
        arms.append(halves)
    return first, arms
