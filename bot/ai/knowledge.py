"""What one seat can infer from public information (RULES §1.8): the unseen tiles and, per
seat, which suits its tiles cannot carry.

A seat's hand is tracked as *slots*, one per tile it holds, each with a mask of suits that
tile is known not to carry. A knock or a trip to the bazaar at ends `E` adds `E` to every
slot the seat holds then; tiles drawn before the one that fitted get `E`, the last drawn
tile nothing. Older slots always carry at least the suits of newer ones, so the slots form
a chain; a played tile removes the most restrictive slot it is compatible with, which keeps
every constraint sound whichever slot the tile really came from.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from bot.game.events import DoublesPlayed, Knocked, TilePlayed, TilesDrawn
from bot.game.tiles import TileSet
from bot.game.view import SeatView


@cache
def tile_suits(tiles: TileSet) -> tuple[int, ...]:
    """Per tile, the bitmask of its suits (bit `v` for a half showing `v`)."""
    return tuple(1 << a | 1 << b for a, b in tiles.pips)


_ALLOWED: dict[int, int] = {}
"""`allowed_tiles`', by the void and the set's top pip. The heuristics' tables are plain
dicts: the mypyc build calls a `functools.cache` wrapper the slow way."""


def allowed_tiles(tiles: TileSet, void: int) -> int:
    """The tiles that carry none of the suits in the bitmask `void`."""
    key = void << 8 | tiles.max_pip
    allowed = _ALLOWED.get(key)
    if allowed is None:
        banned = 0
        for value, mask in enumerate(tiles.suit_masks):
            if void >> value & 1:
                banned |= mask
        allowed = _ALLOWED[key] = tiles.all_mask & ~banned
    return allowed


def end_suits(ends: tuple[int, ...]) -> int:
    """The bitmask of the suits showing at the open ends."""
    bits = 0
    for value in ends:
        if value >= 0:
            bits |= 1 << value
    return bits


class Knowledge(NamedTuple):
    unseen: int  # tiles neither in the seat's hand nor on the table
    slots: tuple[tuple[int, ...], ...]  # per seat, suits its tiles lack; most restrictive first

    def voids(self) -> tuple[int, ...]:
        """Per seat, the suits none of its tiles carries (what every slot excludes)."""
        out = []
        for seat_slots in self.slots:
            common = -1
            for void in seat_slots:
                common &= void
            out.append(common if seat_slots else 0)
        return tuple(out)


def _remove(slots: list[int], suits: int) -> None:
    """A tile with `suits` left the hand: drop the most restrictive slot it fits."""
    for i, void in enumerate(slots):
        if not void & suits:
            del slots[i]
            return
    if slots:  # only if the history contradicts itself; stay permissive
        slots.pop()


def dealt(view: SeatView) -> tuple[int, ...]:
    """Per seat, how many tiles it was dealt this round: what it holds, plus what it has put
    down, less what it has drawn. None for a seat the room put out or that sits a Bykovo
    round out (§4.2), whose hand is empty and who has not played."""
    sizes = list(view.hand_sizes)
    for event in view.history:
        if isinstance(event, TilePlayed):
            sizes[event.seat] += 1
        elif isinstance(event, DoublesPlayed):
            sizes[event.seat] += len(event.tiles)
        elif isinstance(event, TilesDrawn):
            sizes[event.seat] -= event.number
    return tuple(sizes)


def infer(view: SeatView) -> Knowledge:
    """The public constraints on every other seat's hand, from this round's history."""
    tiles = view.rules.tiles
    suits = tile_suits(tiles)
    slots: list[list[int]] = [[0] * size for size in dealt(view)]
    for event in view.history:
        if isinstance(event, TilePlayed):
            _remove(slots[event.seat], suits[event.tile])
        elif isinstance(event, DoublesPlayed):
            for tile in event.tiles:
                _remove(slots[event.seat], suits[tile])
        elif isinstance(event, Knocked):
            bits = end_suits(event.ends)
            slots[event.seat] = [void | bits for void in slots[event.seat]]
        elif isinstance(event, TilesDrawn):
            bits = end_suits(event.ends)
            held = [void | bits for void in slots[event.seat]]
            slots[event.seat] = [*held, *[bits] * (event.number - 1), 0][: len(held) + event.number]
    for seat, size in enumerate(view.hand_sizes):
        ordered = sorted(slots[seat], key=lambda v: -v.bit_count())
        slots[seat] = (ordered + [0] * size)[:size]  # a no-op unless the history is odd
    unseen = tiles.all_mask & ~view.hand & ~view.on_table
    return Knowledge(unseen, tuple(tuple(s) for s in slots))
