"""Fast move policies on plain values: random, «heaviest tile first», and the normal
heuristic built on the pressure principles of seed 000 (В. Ильичев, «Наука и жизнь»).

The normal heuristic scores every legal move and plays the best:

* shed heavy tiles and doubles early (the «минимализм» of Козёл; doubles are ballast);
* block: prefer ends the next opponent is unlikely to match (its known voids and the
  hypergeometric chance over the unseen tiles) — «не позволяйте противнику продолжать
  давление», «прокатить соперника»;
* support the partners in team play: avoid ends they are unlikely to match;
* pressure: keep tiles that fit the ends you leave (a suit you hold many of);
* keep suit variety in the hand (the defensive strategy);
* do not open a fresh suit unless you hold three or more of it (principle 7);
* make or avoid a fish by comparing the hand totals (principle 4).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

from bot.ai.knowledge import allowed_tiles
from bot.game.moves import Draw, Move, Pass, Play, PlayDoubles
from bot.game.rules import RuleSet, Scoring
from bot.game.scoring import hand_value
from bot.game.table import is_blocked

WIN = 1e9  # the score of a move that empties the hand


class Weights(NamedTuple):
    """The normal heuristic's weights (per pip, per probability, per tile or suit)."""

    pips: float = 0.5
    double: float = 4.0
    block: float = 16.0
    partner: float = 5.0
    follow: float = 2.0
    variety: float = 1.0
    fresh: float = 0.5
    fish: float = 3.0
    pass_: float = -10.0


DEFAULT = Weights()


def random_move(moves: Sequence[Move], rng: random.Random) -> Move:
    """The easy level: any legal move."""
    return moves[rng.randrange(len(moves))]


def heaviest_move(rules: RuleSet, moves: Sequence[Move]) -> Move:
    """The «heaviest tile first» baseline: the biggest tile, else draw, else pass."""
    values = rules.tiles.values

    def weight(move: Move) -> int:
        if isinstance(move, Play):
            return values[move.tile]
        if isinstance(move, PlayDoubles):
            return sum(values[t] for t in move.tiles)
        return -1 if isinstance(move, Draw) else -2

    return max(moves, key=weight)


@cache
def p_none(pool: int, fitting: int, held: int) -> float:
    """The chance that `held` tiles dealt from `pool` miss all `fitting` ones."""
    if held > pool - fitting:
        return 0.0
    p = 1.0
    for i in range(held):
        p *= (pool - fitting - i) / (pool - i)
    return p


@cache
def tile_costs(rules: RuleSet) -> tuple[int, ...]:
    """What each tile costs left in a hand: its pips, and 10 for 0-0 in the room."""
    if rules.scoring is Scoring.ROOM:
        return tuple(hand_value(rules, 1 << t) for t in range(rules.tiles.size))
    return rules.tiles.values


def next_in_play(seat: int, sizes: Sequence[int]) -> int:
    """The next seat clockwise that holds tiles (the room's out seats hold none)."""
    nxt = seat
    while True:
        nxt = nxt + 1 if nxt + 1 < len(sizes) else 0
        if sizes[nxt] or nxt == seat:
            return nxt


def partners(rules: RuleSet, seat: int, sizes: Sequence[int]) -> list[int]:
    """The other seats of the seat's side that still hold tiles."""
    side = rules.side_of(seat)
    return [s for s in range(rules.players) if s != seat and sizes[s] and rules.side_of(s) == side]


def normal_move(
    rules: RuleSet,
    seat: int,
    hand: int,
    ends: tuple[int, ...],
    on_table: int,
    sizes: Sequence[int],
    voids: Sequence[int],
    moves: Sequence[Move],
    weights: Weights = DEFAULT,
) -> Move:
    """The normal heuristic's move for `seat` holding `hand` (`voids`: known per seat)."""
    if len(moves) == 1:
        return moves[0]
    scores = normal_scores(rules, seat, hand, ends, on_table, sizes, voids, moves, weights)
    return moves[max(range(len(moves)), key=scores.__getitem__)]


def normal_scores(
    rules: RuleSet,
    seat: int,
    hand: int,
    ends: tuple[int, ...],
    on_table: int,
    sizes: Sequence[int],
    voids: Sequence[int],
    moves: Sequence[Move],
    weights: Weights = DEFAULT,
) -> list[float]:
    """The normal heuristic's score of each move (higher is better; `WIN` goes out)."""
    tiles = rules.tiles
    w = weights
    suit_masks, follow = tiles.suit_masks, tiles.follow
    costs = tile_costs(rules)
    unseen = tiles.all_mask & ~hand & ~on_table
    nxt = next_in_play(seat, sizes)
    nxt_pool = unseen & allowed_tiles(tiles, voids[nxt])
    nxt_count, nxt_held = nxt_pool.bit_count(), sizes[nxt]
    mates = [
        (unseen & allowed_tiles(tiles, voids[m]), sizes[m]) for m in partners(rules, seat, sizes)
    ]
    hand_suits = sum(1 for m in suit_masks if hand & m)
    scores: list[float] = []
    for move in moves:
        if isinstance(move, Play):
            t = move.tile
            rest = hand & ~(1 << t)
            if not rest:
                scores.append(WIN)
                continue
            if ends:
                new = list(ends)
                new[move.end] = follow[t][ends[move.end]]
                exposed = new[move.end]
            else:
                new = list(tiles.pips[t])
                exposed = -1
            fits = 0
            for value in new:
                fits |= suit_masks[value]
            score = w.pips * costs[t]
            if tiles.doubles_mask >> t & 1:
                score += w.double
            if ends and is_blocked(tiles, tuple(new), on_table | 1 << t):
                score += w.fish * _fish_margin(rules, seat, rest, unseen, sizes)
            else:
                score += w.block * p_none(nxt_count, (nxt_pool & fits).bit_count(), nxt_held)
                for pool, held in mates:
                    score -= (
                        w.partner
                        / len(mates)
                        * p_none(pool.bit_count(), (pool & fits).bit_count(), held)
                    )
                score += w.follow * min(2, (rest & fits).bit_count())
                lost = sum(1 for v in set(tiles.pips[t]) if not rest & suit_masks[v])
                score += w.variety * (hand_suits - lost)
                if (
                    exposed >= 0
                    and not on_table & suit_masks[exposed]
                    and (rest & suit_masks[exposed]).bit_count() < 3
                ):
                    score -= w.fresh
        elif isinstance(move, PlayDoubles):
            if not hand & ~tiles.mask(move.tiles):
                scores.append(WIN)
                continue
            score = w.pips * sum(costs[t] for t in move.tiles) + 2 * w.double + w.block
        elif isinstance(move, Pass):
            score = w.pass_
        else:
            score = 0.0
        scores.append(score)
    return scores


def _fish_margin(rules: RuleSet, seat: int, rest: int, unseen: int, sizes: Sequence[int]) -> float:
    """How many points the other sides still in are expected to hold above this seat's side."""
    per_tile = hand_value(rules, unseen) / max(1, unseen.bit_count())
    side = rules.side_of(seat)
    totals: dict[int, float] = {}
    for s, size in enumerate(sizes):
        if size:
            held = hand_value(rules, rest) if s == seat else size * per_tile
            totals[rules.side_of(s)] = totals.get(rules.side_of(s), 0.0) + held
    others = [v for s, v in totals.items() if s != side]
    return sum(others) / max(1, len(others)) - totals[side]
