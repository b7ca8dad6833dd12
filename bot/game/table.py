"""The table (стол): the tile in the middle and the arms that grow from it.

A line has two arms (0 = west, growing from the lead's low half; 1 = east). In the spinner
games (Осёл, Телефон, Muggins, §5–§7) the first *open* double becomes the spinner («дом»)
and opens two more arms on its sides (2 = north, 3 = south): at once (`Spinner.FOUR`), or
once both of its long sides hold a tile (`Spinner.SIDES`, All Fives). An arm's index never
changes, so a move names its arm for the whole round. A double played closed (Осёл) ends
its arm: the arm's open value becomes `CLOSED`.

The state keeps just the open ends, a `Spread` and the masks the rules need on every move;
the full `Layout` is rebuilt from the round's plays when someone wants to look at it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from bot.game.kinds import Spinner
from bot.game.tiles import Tile, TileSet

LINE_ARMS = 2
WEST, EAST, NORTH, SOUTH = range(4)
SIDES = 1 << NORTH | 1 << SOUTH
CLOSED = -1
"""The open value of an arm ended by a closed double: nothing attaches there."""


class Spread(NamedTuple):
    """What the open values alone do not tell: the spinner and how each arm ends."""

    spinner: Tile | None = None  # the first open double, once it lies
    doubled: int = 0  # arms whose outermost tile is a double lying crosswise (both halves count)
    bare: int = 0  # the spinner's sides with nothing attached yet (they count nothing)
    wings: int = 0  # `Spinner.SIDES`: its long sides still bare, while the other two wait


LINE = Spread()
LINE_SPREADS = tuple(Spread(None, doubled) for doubled in range(1 << LINE_ARMS))
"""A line's spreads by their crosswise doubles (a line without a spinner has no other)."""


class Layout(NamedTuple):
    """What lies on the table. Arms list their tiles outward from `first`: the lead on a
    line, the spinner once one lies (the tiles laid before it then belong to the arm that
    runs back through the lead)."""

    first: Tile | None
    arms: tuple[tuple[Tile, ...], ...]
    ends: tuple[int, ...]  # the open value of each arm (`CLOSED` if a closed double ends it)
    closed: int = 0  # the tiles played closed: each one ends its arm
    spread: Spread = LINE


def fitting(tiles: TileSet, ends: tuple[int, ...]) -> int:
    """Every tile that fits at least one open end (all tiles on an empty table)."""
    if not ends:
        return tiles.all_mask
    fits = 0
    for value in ends:
        if value >= 0:
            fits |= tiles.suit_masks[value]
    return fits


def lead(tiles: TileSet, spinner: Spinner, tile: Tile) -> tuple[tuple[int, ...], Spread]:
    """The open ends once `tile` opens the round: its two halves, or a spinner's arms."""
    a, b = tiles.pips[tile]
    if a != b:
        return (a, b), LINE
    if spinner is Spinner.FOUR:
        return (a,) * 4, Spread(tile, 0, 0b1111, 0)
    if spinner is Spinner.SIDES:
        return (a, a), Spread(tile, 0b11, 0, 0b11)
    return (a, a), Spread(None, 0b11, 0, 0)


def attach(
    tiles: TileSet,
    spinner: Spinner,
    ends: tuple[int, ...],
    spread: Spread,
    tile: Tile,
    end: int,
    closed: bool = False,
) -> tuple[tuple[int, ...], Spread] | None:
    """The ends after attaching `tile` at arm `end` (face down if `closed`), or None if it
    does not fit there."""
    if not 0 <= end < len(ends) or ends[end] < 0:
        return None
    value = tiles.follow[tile][ends[end]]
    if value < 0:
        return None
    bit = 1 << end
    if spinner is Spinner.NONE and not closed:
        return (*ends[:end], value, *ends[end + 1 :]), line_spread(tiles, spread, tile, end)
    doubled, bare, wings = spread.doubled & ~bit, spread.bare & ~bit, spread.wings & ~bit
    new = [*ends]
    if closed:
        new[end] = CLOSED
        return tuple(new), Spread(spread.spinner, doubled, bare, wings)
    new[end] = value
    double = tiles.doubles_mask >> tile & 1
    if double:
        doubled |= bit
    first = spread.spinner
    if spread.wings and not wings and first is not None:  # both long sides now hold a tile
        new += [tiles.pips[first][0]] * 2
        bare |= SIDES
    if double and first is None and spinner is not Spinner.NONE:
        first = tile
        if spinner is Spinner.FOUR:
            new += [value, value]
            doubled &= ~bit
            bare |= bit | SIDES
        else:
            wings = bit
    return tuple(new), Spread(first, doubled, bare, wings)


def line_after(
    tiles: TileSet, ends: tuple[int, ...], tile: Tile, end: int
) -> tuple[int, ...] | None:
    """A line's two open ends once `tile` lies open at `end`, or None if it does not fit
    there (`attach` without the spread, for a line without a spinner)."""
    value = ends[end] if 0 <= end < 2 else CLOSED
    after = tiles.follow[tile][value] if value >= 0 else -1
    if after < 0:
        return None
    return (after, ends[1]) if end == 0 else (ends[0], after)


def line_spread(tiles: TileSet, spread: Spread, tile: Tile, end: int) -> Spread:
    """A plain line's spread once `tile` lies open at arm `end`: only its crosswise doubles
    change."""
    bit = 1 << end
    doubled = spread.doubled & ~bit | (bit if tiles.doubles_mask >> tile & 1 else 0)
    return spread if doubled == spread.doubled else LINE_SPREADS[doubled]


def is_blocked(dead_ends: tuple[int, ...], ends: tuple[int, ...], on_table: int) -> bool:
    """The round is a fish now: every arm closed, or every open end shows one value `v` with
    all of `dead_ends[v]` on the table (`RuleSet.dead_ends`: on a line the plain tiles of `v`,
    the double changing nothing, §1.6; on a spinner layout the double too, §5)."""
    shown = CLOSED
    for value in ends:
        if value >= 0:
            if shown >= 0 and value != shown:
                return False
            shown = value
    if shown < 0:
        return bool(ends)
    dead = dead_ends[shown]
    return on_table & dead == dead


def ends_sum(tiles: TileSet, ends: tuple[int, ...], spread: Spread, lone: Tile | None) -> int:
    """The open ends added up (Телефон, Muggins): a crosswise double counts both halves, a
    bare side of the spinner nothing; `lone` is the only tile on the table, if it is."""
    if lone is not None:
        return int(tiles.values[lone])
    total = 0
    for arm, value in enumerate(ends):
        if value > 0 and not spread.bare >> arm & 1:
            total += 2 * value if spread.doubled >> arm & 1 else value
    return total


def sum_after(
    tiles: TileSet,
    spinner: Spinner,
    ends: tuple[int, ...],
    spread: Spread,
    total: int,
    tile: Tile,
    end: int,
) -> int | None:
    """`ends_sum` once `tile` lies open at arm `end` of a table whose ends add up to `total`
    (None if it does not fit there): from that arm alone where the tile can neither make a
    spinner nor open its sides, else through `attach`."""
    if spinner is not Spinner.NONE and (spread.spinner is None or spread.wings):
        laid = attach(tiles, spinner, ends, spread, tile, end)
        return None if laid is None else ends_sum(tiles, laid[0], laid[1], None)
    value = ends[end] if 0 <= end < len(ends) else CLOSED
    after = tiles.follow[tile][value] if value >= 0 else -1
    if after < 0:
        return None
    bit = 1 << end
    if value > 0 and not spread.bare & bit:
        total -= 2 * value if spread.doubled & bit else value
    return total + (2 * after if tiles.doubles_mask >> tile & 1 else after)


def build_table(
    tiles: TileSet, spinner: Spinner, plays: Iterable[tuple[Tile, int, bool]]
) -> Layout:
    """The table after `(tile, arm, closed)` placements in order (the first one leads)."""
    first: Tile | None = None
    arms: list[list[Tile]] = [[] for _ in range(LINE_ARMS)]
    ends: tuple[int, ...] = ()
    spread = LINE
    closed_mask = 0
    for tile, end, closed in plays:
        if first is None:
            first = tile
            ends, spread = lead(tiles, spinner, tile)
            arms += [[] for _ in ends[LINE_ARMS:]]
            continue
        after = attach(tiles, spinner, ends, spread, tile, end, closed)
        if after is None:
            raise ValueError(f"{tiles.name(tile)} does not fit arm {end}")
        if spread.spinner is None and after[1].spinner is not None:  # re-root at the spinner
            toward = [*arms[end][::-1], first, *arms[1 - end]]
            arms = [[], []]
            arms[1 - end] = toward
            first = tile
            arms += [[] for _ in after[0][LINE_ARMS:]]
        else:
            arms[end].append(tile)
            arms += [[] for _ in after[0][len(arms) :]]
        ends, spread = after
        if closed:
            closed_mask |= 1 << tile
    return Layout(first, tuple(tuple(arm) for arm in arms), ends, closed_mask, spread)


def oriented(table: Layout, tiles: TileSet) -> tuple[tuple[int, int], list[list[tuple[int, int]]]]:
    """Pips as they lie: the middle tile, then per arm `(inner, outer)` halves outward."""
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
