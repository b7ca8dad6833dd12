"""What a heuristic knows of a position (`Position`, from a seat's view) and the odds it
reasons with: what the next seats may hold, the table a move leaves, a tile's cost."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from bot.ai.knobs import KNOBS, TileCost
from bot.ai.knowledge import allowed_tiles
from bot.game.events import DoublesPlayed, TilePlayed, WentOut
from bot.game.moves import Move, Play, PlayDoubles
from bot.game.rules import RuleSet
from bot.game.table import Spread, attach, lead, line_after
from bot.game.tiles import TileSet, tiles_of
from bot.game.view import SeatView

WIN = 1e9  # the score of a move that empties the hand


class Position(NamedTuple):
    """What the normal heuristic looks at: one seat's hand and what is public."""

    rules: RuleSet
    seat: int
    hand: int
    ends: tuple[int, ...]
    spread: Spread
    on_table: int
    sizes: Sequence[int]  # tiles per seat
    voids: Sequence[int]  # per seat, the suits it is known to lack
    scores: Sequence[int]  # per side, the score so far
    last: int | None = None  # who placed the last tile (Bykovo: the winner of a block)
    gone: bool = False  # Bykovo: someone went out, the circle is being finished
    wins: Sequence[int] = ()  # «Генерал»: per side, the rounds won so far


def last_placer(history: Iterable[object]) -> int | None:
    """The seat that put the last tile down this round, from its public events."""
    last = None
    for event in history:
        if isinstance(event, TilePlayed | DoublesPlayed):
            last = event.seat
    return last


def view_position(view: SeatView, voids: Sequence[int]) -> Position:
    """The position of the view's seat."""
    return Position(
        rules=view.rules,
        seat=view.seat,
        hand=view.hand,
        ends=view.ends,
        spread=view.spread,
        on_table=view.on_table,
        sizes=view.hand_sizes,
        voids=voids,
        scores=view.tally.scores,
        last=last_placer(view.history),
        gone=any(isinstance(e, WentOut) for e in view.history),
        wins=view.tally.wins,
    )


def placement(
    rules: RuleSet, ends: tuple[int, ...], spread: Spread, move: Play | PlayDoubles
) -> tuple[int, tuple[int, ...], Spread]:
    """The tiles `move` puts down, and the open ends and spread it leaves."""
    tiles = rules.tiles
    if isinstance(move, Play):
        if not ends:
            return (1 << move.tile, *lead(tiles, rules.spinner, move.tile))
        laid = attach(tiles, rules.spinner, ends, spread, move.tile, move.end, move.closed)
        if laid is None:
            raise ValueError(f"{tiles.name(move.tile)} does not fit arm {move.end}")
        return (1 << move.tile, *laid)
    faces = move.closed or (False,) * len(move.tiles)
    for tile, end, closed in zip(move.tiles, move.ends, faces, strict=True):
        laid = attach(tiles, rules.spinner, ends, spread, tile, end, closed)
        if laid is None:
            raise ValueError(f"{tiles.name(tile)} does not fit arm {end}")
        ends, spread = laid
    return tiles.mask(move.tiles), ends, spread


def laid(
    rules: RuleSet, ends: tuple[int, ...], spread: Spread, move: Play | PlayDoubles
) -> tuple[int, tuple[int, ...]]:
    """`placement`'s tiles and ends alone, worked out directly for a tile on a line (the
    engine's `plain_line`: only the end it lands on changes)."""
    if isinstance(move, Play) and rules.plain_line and len(ends) == 2 and not move.closed:
        line = line_after(rules.tiles, ends, move.tile, move.end)
        if line is not None:
            return 1 << move.tile, line
    placed, new, _ = placement(rules, ends, spread, move)
    return placed, new


def suits_lost(tiles: TileSet, placed: int, rest: int) -> int:
    """How many suits of the tiles `placed` the hand no longer holds (`rest`)."""
    lost = seen = 0
    for tile in tiles_of(placed):
        for value in tiles.pips[tile]:
            if not seen >> value & 1:
                seen |= 1 << value
                lost += not rest & tiles.suit_masks[value]
    return lost


_P_NONE: dict[int, float] = {}
"""`p_none`'s, by its three counts (each below 256: a set has at most 91 tiles). The
heuristics' tables are plain dicts: the mypyc build calls a `functools.cache` wrapper the
slow way."""


def p_none(pool: int, fitting: int, held: int) -> float:
    """The chance that `held` tiles dealt from `pool` miss all `fitting` ones."""
    key = pool << 16 | fitting << 8 | held
    p = _P_NONE.get(key)
    if p is None:
        p = 0.0
        if held <= pool - fitting:
            p = 1.0
            for i in range(held):
                p *= (pool - fitting - i) / (pool - i)
        _P_NONE[key] = p
    return p


_COSTS: dict[RuleSet, tuple[int, ...]] = {}


def tile_costs(rules: RuleSet) -> tuple[int, ...]:
    """What each tile costs left in a hand: its pips, or (the room) its value as a hand of
    its own, 10 for 0-0."""
    costs = _COSTS.get(rules)
    if costs is None:
        costs = rules.tiles.values
        if KNOBS[rules.format].costs is TileCost.ALONE:
            costs = tuple(rules.format.hand_value(rules, 1 << t) for t in range(rules.tiles.size))
        _COSTS[rules] = costs
    return costs


def next_in_play(seat: int, sizes: Sequence[int]) -> int:
    """The next seat clockwise that holds tiles (the room's out seats hold none)."""
    nxt = seat
    while True:
        nxt = nxt + 1 if nxt + 1 < len(sizes) else 0
        if sizes[nxt] or nxt == seat:
            return nxt


def partners(rules: RuleSet, seat: int, sizes: Sequence[int]) -> list[int]:
    """The other seats of the seat's side that still hold tiles."""
    if not rules.teams:
        return []
    side = rules.side_of(seat)
    return [s for s in range(rules.players) if s != seat and sizes[s] and rules.side_of(s) == side]


def best(moves: Sequence[Move], scores: Sequence[float]) -> Move:
    """The move with the highest score (the first of equal ones)."""
    return moves[max(range(len(moves)), key=scores.__getitem__)]


def fish_margin(rules: RuleSet, seat: int, rest: int, unseen: int, sizes: Sequence[int]) -> float:
    """How many points the other sides still in are expected to hold above this seat's side."""
    per_tile = rules.format.hand_value(rules, unseen) / max(1, unseen.bit_count())
    side = rules.side_of(seat)
    totals: dict[int, float] = {}
    for s, size in enumerate(sizes):
        if size:
            held = rules.format.hand_value(rules, rest) if s == seat else size * per_tile
            totals[rules.side_of(s)] = totals.get(rules.side_of(s), 0.0) + held
    others = [v for s, v in totals.items() if s != side]
    return sum(others) / max(1, len(others)) - totals[side]


def p_stuck(position: Position, fits: int, placed: int = 0) -> float:
    """The chance that no other seat still in the round holds a tile in `fits` once the
    seat has put `placed` down: 1 when every such tile is on the table or in the seat's
    hand; 0 when every unseen tile is in a hand (no bazaar hides any) and one of them fits;
    else the chance that each hand misses them, from its known voids."""
    rules, seat, hand, _, _, on_table, sizes, voids = position[:8]
    tiles = rules.tiles
    unseen = tiles.all_mask & ~hand & ~on_table & ~placed
    if not unseen & fits:
        return 1.0
    others = [s for s, size in enumerate(sizes) if size and s != seat]
    if sum(sizes[s] for s in others) >= unseen.bit_count():
        return 0.0
    p = 1.0
    for s in others:
        pool = unseen & allowed_tiles(tiles, voids[s])
        p *= p_none(pool.bit_count(), (pool & fits).bit_count(), sizes[s])
    return p
