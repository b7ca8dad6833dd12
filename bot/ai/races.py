"""The normal heuristic of the point-scoring games.

The point-scoring games (Телефон, Muggins, Fives and Threes: `race_scores`, each with its
game's `RaceWeights`) count in fives (5 on the ends):

* take points now: what the move scores for the side, at its score (with `exact` a move
  past the target scores nothing);
* do not leave the next player an easy score (its expected best reply);
* keep a follow-up that scores, and tiles that fit;
* block harder when ahead;
* shed heavy tiles as the round's end nears (Телефон, Muggins: the winner takes the
  others' pips; Fives and Threes never counts a hand);
* Fives and Threes: a move that wins the race at once first of all, and going out on the
  end that scores most.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from bot.ai.knobs import KNOBS
from bot.ai.knowledge import allowed_tiles
from bot.ai.position import (
    WIN,
    Position,
    fish_margin,
    next_in_play,
    p_none,
    placement,
    tile_costs,
)
from bot.ai.weights import RaceWeights
from bot.game.moves import Move, Pass, Play, PlayDoubles
from bot.game.rules import RuleSet
from bot.game.table import Spread, ends_sum, fitting, is_blocked, sum_after
from bot.game.tiles import tiles_of

AHEAD_CAP = 3.0  # the most the block's weight grows by when ahead (`RaceWeights.ahead`)


class Replies(NamedTuple):
    """Per tile, the most fives a reply with it scores; `scoring`: the tiles that score."""

    best: tuple[int, ...]
    scoring: int

    def of(self, mask: int) -> list[int]:
        """What each scoring tile of `mask` scores."""
        best = self.best
        return [best[t] for t in tiles_of(mask & self.scoring)]


REPLIES_KEPT = 1 << 16  # tables of replies kept per rules, then they start again
_REPLIES: dict[RuleSet, dict[tuple[tuple[int, ...], Spread, int], Replies]] = {}
"""`reply_fives`' tables, by rules, then the ends, the spread and the score: plain dicts,
which the mypyc build looks up without the slow call `functools.lru_cache` takes."""


def reply_fives(rules: RuleSet, ends: tuple[int, ...], spread: Spread, score: int) -> Replies:
    """Per tile, the most fives attaching it to one of these open ends would score for a
    side at `score` (`stake`)."""
    known = _REPLIES.get(rules)
    if known is None:
        known = _REPLIES[rules] = {}
    key = (ends, spread, score)
    replies = known.get(key)
    if replies is None:
        if len(known) >= REPLIES_KEPT:
            known.clear()
        replies = known[key] = _replies(rules, ends, spread, score)
    return replies


def _replies(rules: RuleSet, ends: tuple[int, ...], spread: Spread, score: int) -> Replies:
    tiles, spinner = rules.tiles, rules.spinner
    move_points, point = rules.format.move_points, KNOBS[rules.format].point  # `fives_of`'s
    best = [0] * tiles.size
    scoring = 0
    now = ends_sum(tiles, ends, spread, None)
    for arm, value in enumerate(ends):
        if value < 0:
            continue
        for t in tiles_of(tiles.suit_masks[value]):
            total = sum_after(tiles, spinner, ends, spread, now, t, arm)
            if total is not None:
                got = move_points(rules, score, total, False) * point
                if got > best[t]:
                    best[t] = got
                    scoring |= 1 << t
    return Replies(tuple(best), scoring)


def fives_of(rules: RuleSet, score: int, total: int, out: bool = False) -> int:
    """What a move scores, counted in fives, for a side at `score` when the open ends add up
    to `total` (`out`: the mover's last tile)."""
    return rules.format.move_points(rules, score, total, out) * KNOBS[rules.format].point


def stake(rules: RuleSet, score: int) -> int:
    """The score a side's move points depend on: its own where they do (`exact`: a move past
    the target scores nothing), else 0, which keeps `reply_fives`' cache small."""
    return score if rules.format.by_stake(rules) else 0


def in_fives(rules: RuleSet, points: int) -> float:
    """A score of the point-scoring games counted in fives (`Knobs.point` a point)."""
    return float(points * KNOBS[rules.format].point)


def expected_best(points: list[int], share: float) -> float:
    """The expected best of `points` a hand holds, each tile held with chance `share`."""
    expected, missed = 0.0, 1.0
    for p in sorted(points, reverse=True):
        expected += missed * share * p
        missed *= 1 - share
    return expected


def race_scores(position: Position, moves: Sequence[Move], w: RaceWeights) -> list[float]:
    """The races' scores, in fives: points now (the race won at once: `reach`), the next
    seat's threat, the follow-up, blocking (harder when ahead) and shedding pips; going out
    first, by its points (`out`)."""
    rules, seat, hand, ends, spread, on_table, sizes, voids, tally = position[:9]
    tiles = rules.tiles
    costs = tile_costs(rules)
    unseen = tiles.all_mask & ~hand & ~on_table
    nxt = next_in_play(seat, sizes)
    nxt_pool = unseen & allowed_tiles(tiles, voids[nxt])
    nxt_count, nxt_held = nxt_pool.bit_count(), sizes[nxt]
    share = min(1.0, nxt_held / max(1, nxt_count))
    rival = -1.0 if rules.side_of(nxt) == rules.side_of(seat) else 1.0
    side = rules.side_of(seat)
    mine, theirs = stake(rules, tally[side]), stake(rules, tally[rules.side_of(nxt)])
    needs = (rules.goal - tally[side]) * KNOBS[rules.format].point  # in fives, to win
    lead_by = tally[side] - max(s for i, s in enumerate(tally) if i != side)
    block = w.block * (1 + min(AHEAD_CAP, max(0.0, w.ahead * in_fives(rules, lead_by))))
    others = [n for s, n in enumerate(sizes) if n and rules.side_of(s) != side]
    scores: list[float] = []
    for move in moves:
        if isinstance(move, Pass):
            scores.append(w.pass_)
            continue
        if not isinstance(move, Play | PlayDoubles):
            scores.append(0.0)
            continue
        placed, new, new_spread = placement(rules, ends, spread, move)
        rest = hand & ~placed
        lone = placed.bit_length() - 1 if not ends and placed.bit_count() == 1 else None
        now = fives_of(rules, mine, ends_sum(tiles, new, new_spread, lone), not rest)
        won = w.reach if now >= needs else 0.0
        if not rest:
            scores.append(WIN + w.out * now + won)
            continue
        score = now + won
        left = rest.bit_count()
        race = left / (left + min(others, default=left))
        shed = sum(costs[t] for t in tiles_of(placed))
        score += w.pips * shed * (0.5 + race)
        score += w.double * (placed & tiles.doubles_mask).bit_count()
        down = on_table | placed
        if ends and is_blocked(rules.dead_ends_on(down), new, down):
            score += w.fish * fish_margin(rules, seat, rest, unseen, sizes)
            scores.append(score)
            continue
        replies = reply_fives(rules, new, new_spread, theirs)
        score -= rival * w.threat * expected_best(replies.of(nxt_pool), share)
        if theirs != mine:
            replies = reply_fives(rules, new, new_spread, mine)
        score += w.again * max(replies.of(rest), default=0)
        fits = fitting(tiles, new)
        score += rival * block * p_none(nxt_count, (nxt_pool & fits).bit_count(), nxt_held)
        score += w.follow * min(2, (rest & fits).bit_count())
        scores.append(score)
    return scores
