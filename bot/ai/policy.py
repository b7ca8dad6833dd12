"""Fast move policies on plain values: random, «heaviest tile first», and the normal
heuristic built on the pressure principles of seed 000 (В. Ильичев, «Наука и жизнь»).

The normal heuristic scores every legal move and plays the best:

* shed heavy tiles and doubles early (the «минимализм» of Козёл; doubles are ballast);
* block: prefer ends the next opponent is unlikely to match (its known voids and the
  hypergeometric chance over the unseen tiles) — «не позволяйте противнику продолжать
  давление», «прокатить соперника»;
* support the partner in team play: avoid ends the partner is unlikely to match;
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
from bot.game.rules import RuleSet
from bot.game.scoring import hand_value
from bot.game.table import is_closed_line

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
    suit_masks, values, follow = tiles.suit_masks, tiles.values, tiles.follow
    unseen = tiles.all_mask & ~hand & ~on_table
    players = rules.players
    nxt = seat + 1 if seat + 1 < players else 0
    nxt_pool = unseen & allowed_tiles(tiles, voids[nxt])
    nxt_count, nxt_held = nxt_pool.bit_count(), sizes[nxt]
    mate = (seat + 2) % players if rules.teams else -1
    mate_pool = unseen & allowed_tiles(tiles, voids[mate]) if mate >= 0 else 0
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
            score = w.pips * values[t]
            if tiles.doubles_mask >> t & 1:
                score += w.double
            if ends and is_closed_line(tiles, tuple(new), on_table | 1 << t):
                score += w.fish * _fish_margin(rules, seat, rest, unseen, sizes)
            else:
                score += w.block * p_none(nxt_count, (nxt_pool & fits).bit_count(), nxt_held)
                if mate >= 0:
                    score -= w.partner * p_none(
                        mate_pool.bit_count(), (mate_pool & fits).bit_count(), sizes[mate]
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
            score = w.pips * sum(values[t] for t in move.tiles) + 2 * w.double + w.block
        elif isinstance(move, Pass):
            score = w.pass_
        else:
            score = 0.0
        scores.append(score)
    return scores


def _fish_margin(rules: RuleSet, seat: int, rest: int, unseen: int, sizes: Sequence[int]) -> float:
    """How many pips the other sides are expected to hold above this seat's side."""
    tiles = rules.tiles
    per_tile = tiles.pip_sum(unseen) / max(1, unseen.bit_count())
    side = rules.side_of(seat)
    totals = [0.0] * rules.sides
    for s, size in enumerate(sizes):
        totals[rules.side_of(s)] += hand_value(rules, rest) if s == seat else size * per_tile
    others = [v for s, v in enumerate(totals) if s != side]
    return sum(others) / len(others) - totals[side]
