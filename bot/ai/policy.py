"""Fast move policies on plain values: random, «heaviest tile first», and the normal
heuristic built on the pressure principles of seed 000 (В. Ильичев, «Наука и жизнь»).

The normal heuristic scores every legal move by the table it leaves (the true open ends,
spinner arms and closed doubles included: `placement`) and plays the best.

Козёл and its line games (and Осёл, scored as Козёл):

* shed heavy tiles and doubles early (the «минимализм» of Козёл; doubles are ballast), and
  several doubles at once where the rules allow it;
* block: prefer ends the next opponent is unlikely to match (its known voids and the
  hypergeometric chance over the unseen tiles) — «не позволяйте противнику продолжать
  давление», «прокатить соперника»; a closed double (Осёл) blocks its arm for good;
* support the partners in team play: avoid ends they are unlikely to match;
* pressure: keep tiles that fit the ends you leave (a suit you hold many of);
* keep suit variety in the hand (the defensive strategy);
* do not open a fresh suit unless you hold three or more of it (principle 7);
* make or avoid a fish by comparing the hand totals (principle 4) — closing the last open
  arms too.

The club formats' rules are `bot.ai.clubs`, the point-scoring games' `bot.ai.races`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.ai.clubs import LOCK_PLACE, SURE, bykovo_pass, general_doubles, general_kept, trails
from bot.ai.knobs import KNOBS, Heuristic
from bot.ai.knowledge import allowed_tiles
from bot.ai.position import (
    WIN,
    Position,
    best,
    fish_margin,
    laid,
    next_in_play,
    p_none,
    p_stuck,
    partners,
    suits_lost,
    tile_costs,
)
from bot.ai.races import race_scores
from bot.ai.weights import DEFAULT, Weights
from bot.game.moves import Draw, Move, Pass, Play, PlayDoubles
from bot.game.rules import RuleSet, Spinner
from bot.game.table import fitting, is_blocked
from bot.game.tiles import tiles_of


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


def normal_move(position: Position, moves: Sequence[Move]) -> Move:
    """The normal heuristic's move for the position's seat."""
    if len(moves) == 1:
        return moves[0]
    return best(moves, normal_scores(position, moves))


def normal_scores(position: Position, moves: Sequence[Move]) -> list[float]:
    """The normal heuristic's score of each move (higher is better; `WIN` goes out)."""
    knobs = KNOBS[position.rules.format]
    if knobs.heuristic is Heuristic.RACE:
        return race_scores(position, moves, knobs.race_weights)
    return goat_scores(position, moves)


def _partner_pools(
    rules: RuleSet, seat: int, unseen: int, sizes: Sequence[int], voids: Sequence[int]
) -> list[tuple[int, int, int]]:
    """Per partner still in: the unseen tiles it may hold (none of its known voids), how many
    they are, and how many it holds."""
    pools = []
    for mate in partners(rules, seat, sizes):
        pool = unseen & allowed_tiles(rules.tiles, voids[mate])
        pools.append((pool, pool.bit_count(), sizes[mate]))
    return pools


def _lock_bonus(
    position: Position, fits: int, placed: int, costs: Sequence[int], w: Weights
) -> float | None:
    """Bykovo: what a play leaving the ends `fits` matches is worth for the chance nobody else
    can play them (the round won: the pips left in the hand and `LOCK_PLACE`); None when
    nobody can."""
    stuck = p_stuck(position, fits, placed)
    if stuck >= 1.0:
        return None
    rest = position.hand & ~placed
    return stuck * w.lock * (sum(costs[t] for t in tiles_of(rest)) + LOCK_PLACE)


def goat_scores(position: Position, moves: Sequence[Move], w: Weights = DEFAULT) -> list[float]:
    """Козёл's scores: shed, block, follow, keep variety, fish when it pays."""
    rules, seat, hand, ends, spread, on_table, sizes, voids = position[:8]
    tiles = rules.tiles
    locks = KNOBS[rules.format].heuristic is Heuristic.LOCK
    lockable = locks and bool(ends) and not position.gone
    suit_masks = tiles.suit_masks
    costs = tile_costs(rules)
    unseen = tiles.all_mask & ~hand & ~on_table
    nxt = next_in_play(seat, sizes)
    nxt_pool = unseen & allowed_tiles(tiles, voids[nxt])
    nxt_count, nxt_held = nxt_pool.bit_count(), sizes[nxt]
    mates = _partner_pools(rules, seat, unseen, sizes, voids)
    hand_suits = sum(1 for m in suit_masks if hand & m)
    generals = general_doubles(rules)
    chasing = bool(generals) and trails(position)  # else play for the round, burying nothing
    scores: list[float] = []
    for move in moves:
        if isinstance(move, Pass):
            scores.append(bykovo_pass(position, w) if locks else w.pass_)
            continue
        if not isinstance(move, Play | PlayDoubles):
            scores.append(0.0)
            continue
        placed, new = laid(rules, ends, spread, move)
        rest = hand & ~placed
        if not rest:
            scores.append(WIN)
            continue
        bonus = _lock_bonus(position, fitting(tiles, new), placed, costs, w) if lockable else 0.0
        if bonus is None:  # nobody else can play: the round is this seat's
            scores.append(SURE)
            continue
        if isinstance(move, PlayDoubles) and rules.spinner is Spinner.NONE:  # Sea Goat's pair
            scores.append(w.pips * sum(costs[t] for t in move.tiles) + 2 * w.double + w.block)
            continue
        score = bonus
        if generals & rest:
            kept = general_kept(rules, rest & generals, new, on_table | placed)
            if chasing or kept < 0:
                score += w.general * kept
        for t in tiles_of(placed):
            score += w.pips * costs[t]
        score += w.double * (placed & tiles.doubles_mask).bit_count()
        down = on_table | placed
        if ends and not locks and is_blocked(rules.dead_ends_on(down), new, down):
            scores.append(score + w.fish * fish_margin(rules, seat, rest, unseen, sizes))
            continue
        fits = fitting(tiles, new)
        score += w.block * p_none(nxt_count, (nxt_pool & fits).bit_count(), nxt_held)
        for pool, count, held in mates:
            score -= w.partner / len(mates) * p_none(count, (pool & fits).bit_count(), held)
        score += w.follow * min(2, (rest & fits).bit_count())
        score += w.variety * (hand_suits - suits_lost(tiles, placed, rest))
        if isinstance(move, Play) and ends and (exposed := new[move.end]) >= 0:
            fresh = suit_masks[exposed]  # principle 7: a suit nobody has played yet
            if not on_table & fresh and (rest & fresh).bit_count() < 3:
                score -= w.fresh
        scores.append(score)
    return scores
