"""The hard level: determinized Monte Carlo search over the seat's information set.

Each iteration deals one possible world (`sampling`), weights it by how well it explains
the other seats' plays (`inference`), plays every candidate move in it and finishes the
round with the normal heuristic for every seat; the candidate with the best weighted
average outcome is played if it beats the normal heuristic's own move by `TRUST` standard
errors (weights leave fewer worlds that count than were searched, so their noise must not
overrule a sound heuristic for nothing; Bykovo plays its best outright: `Knobs.trust`). All
candidates share the same worlds, so their difference is measured with little noise.
Outcomes are judged at the game level (`outcome_value`, as the game's `Knobs.valuation` says).

The room searches unweighted worlds and plays its best candidate: with five hidden hands
and long histories the weights settle on a handful of worlds and the chances they give a
tile to be in a hand are overconfident, while the unweighted worlds are calibrated
(`bench/worlds.py`). It needs more of them than a four-seat game, hence its longer default
budget (`bot.game.formats.room.ROOM_BUDGET_S`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable

from bot.ai.inference import likelihood
from bot.ai.knobs import KNOBS, Heuristic, Valuation
from bot.ai.knowledge import Knowledge, end_suits, infer
from bot.ai.policy import normal_move, normal_scores
from bot.ai.position import Position, placement, tile_costs, view_position
from bot.ai.races import in_fives
from bot.ai.sampling import sample_world
from bot.game.engine import apply, legal_moves
from bot.game.events import Event, GameEnded, Knocked, RoundEnd, TilesDrawn, WentOut
from bot.game.moves import Move, Play, PlayDoubles
from bot.game.rules import RuleSet, Spinner
from bot.game.state import GameState, Phase
from bot.game.table import Spread
from bot.game.view import SeatView

REMEMBERED = 0.5  # what a remembered point is worth against an open one (it may be cleared)
GAME = 100.0  # the end of the game: becoming the goat, or someone else becoming it
LEAD = 5.0  # leading the next round
RACE_GAME = 30.0  # Телефон, Muggins: winning the game, in fives
RACE_LEAD = 1.0  # … leading the next round
ROUND_GAIN = 1.2  # Fives and Threes: the points a seat scores in a round, per tile dealt to it
ROUND_SPREAD = 0.9  # … the spread of two seats' difference in a round, per tile dealt
LOGISTIC = 0.55  # a logistic's scale that matches a normal's standard deviation (√3/π)
PLACE = 100.0  # the room: one place in the final standings
KEPT = 0.4  # the room: the share of its dealt pips a seat typically holds at a round's end
MAX_WORLDS = 2000  # with a time budget only
MIN_WORLDS = 24  # before a clear winner may stop the search early
CLEAR = 3.0  # … when it leads every other candidate by this many standard errors
CLOSE = 0.5  # … or when its lead is known to within this many points
SHORTLIST = 8  # the most candidates searched on a spinner table
BYKOVO_PLACE = 5.0  # Bykovo: one round place, in pips of the tournament score
BYKOVO_OUT = 50.0  # … being eliminated by the round
GENERAL_WORTH = 4.0  # «Генерал»: a General, in rounds won (the match is scored in Generals)


def candidates(view: SeatView) -> list[Move]:
    """The legal moves, without duplicates that lead to the same position (the same tiles
    down and the same ends, whichever way round; on a spinner table and in a race, where a
    double across an end scores both halves, ends that lie alike)."""
    rules = view.rules
    shaped = rules.spinner is not Spinner.NONE or KNOBS[rules.format].heuristic is Heuristic.RACE
    seen: set[object] = set()
    out: list[Move] = []
    for move in view.legal_moves():
        key: object = move
        if isinstance(move, Play | PlayDoubles) and view.ends:
            placed, ends, spread = placement(rules, view.ends, view.spread, move)
            shapes = arm_shapes(ends, spread) if shaped else ends
            key = (placed, spread.spinner, tuple(sorted(shapes)))
        if key not in seen:
            seen.add(key)
            out.append(move)
    return out


def arm_shapes(ends: tuple[int, ...], spread: Spread) -> tuple[tuple[int, int], ...]:
    """Per arm, what play can tell of it: its open value and how its end lies."""
    flags = (spread.doubled, spread.bare, spread.wings)
    return tuple(
        (value, sum((f >> arm & 1) << i for i, f in enumerate(flags)))
        for arm, value in enumerate(ends)
    )


def shortlist(view: SeatView, moves: list[Move], voids: list[int]) -> list[Move]:
    """On a spinner table, the `SHORTLIST` moves the normal heuristic likes best (Осёл's
    doubles, open or closed, make many): the search has time for no more."""
    if view.rules.spinner is Spinner.NONE or len(moves) <= SHORTLIST:
        return moves
    scores = normal_scores(view_position(view, voids), moves)
    best = sorted(range(len(moves)), key=lambda i: -scores[i])[:SHORTLIST]
    return [moves[i] for i in sorted(best)]


def track_voids(voids: list[int], events: Iterable[Event]) -> None:
    """Update the public voids per seat with a move's events."""
    for event in events:
        if isinstance(event, Knocked):
            voids[event.seat] |= end_suits(event.ends)
        elif isinstance(event, TilesDrawn):
            voids[event.seat] = end_suits(event.ends)


def rollout(state: GameState, voids: list[int]) -> GameState:
    """Finish the round with the normal heuristic for every seat."""
    rules = state.rules
    gone = any(isinstance(e, WentOut) for e in state.history)  # Bykovo: the circle is finished
    while state.phase is Phase.PLAYING:
        moves = legal_moves(state)
        if len(moves) == 1:
            move = moves[0]
        else:
            seat = state.to_move
            position = Position(
                rules=rules,
                seat=seat,
                hand=state.hands[seat],
                ends=state.ends,
                spread=state.spread,
                on_table=state.on_table,
                sizes=state.hand_sizes(),
                voids=voids,
                scores=state.tally.scores,
                last=state.last_player,
                gone=gone,
                wins=state.tally.wins,
            )
            move = normal_move(position, moves)
        state, events = apply(state, move)
        track_voids(voids, events)
        gone = gone or any(isinstance(e, WentOut) for e in events)
    return state


def outcome_value(rules: RuleSet, side: int, state: GameState) -> float:
    """How good a finished round is for `side`, relative to the other sides, as the game's
    `Knobs.valuation` says."""
    return VALUES[KNOBS[rules.format].valuation](rules, side, state)


def points_value(rules: RuleSet, side: int, state: GameState) -> float:
    """Козёл (Осёл too): open points count fully, remembered ones half; sea goat and
    classic: recorded points are good. Ending the game counts `GAME`, leading the next
    round `LEAD`."""
    tally = state.tally
    if KNOBS[rules.format].valuation is Valuation.PENALTY:
        worth = [-(s + REMEMBERED * r) for s, r in zip(tally.scores, tally.remembered, strict=True)]
    else:
        worth = [float(s) for s in tally.scores]
    value = worth[side] - (sum(worth) - worth[side]) / (len(worth) - 1)
    if state.outcome is not None:
        lost = any(p.goat for p in state.outcome.places if p.side == side)
        value += -GAME if lost else GAME
    elif state.next_leader is not None and rules.side_of(state.next_leader) == side:
        value += LEAD
    return value


def race_value(rules: RuleSet, side: int, state: GameState) -> float:
    """Телефон and Muggins: the side's lead in fives over its best rival, with what the
    round's end settled (the pips won); winning the game (first place, reached at the
    target or after a round) counts `RACE_GAME`, any other end of the game as much
    against; leading the next round `RACE_LEAD`."""
    worth = [in_fives(rules, s) for s in state.tally.scores]
    mine = worth.pop(side)
    value = mine - max(worth)
    if state.outcome is not None:
        value += _race_end(side, state.outcome)
    elif state.next_leader is not None and rules.side_of(state.next_leader) == side:
        value += RACE_LEAD
    return value


def chance_value(rules: RuleSet, side: int, state: GameState) -> float:
    """Fives and Threes: the side's chance to win the race, from -`RACE_GAME` (lost) to
    `RACE_GAME` (won). Before the end, a logistic of how much nearer the target its best
    rival is, on the spread of the rounds the nearer one still needs: far from the target
    a point of lead counts much as in the other races, near it a point weighs more, and a
    side far ahead or behind has less to play for."""
    if state.outcome is not None:
        return _race_end(side, state.outcome)
    needs = [rules.goal - score for score in state.tally.scores]
    mine = needs.pop(side)
    theirs = min(needs)
    tiles = rules.hand * (rules.team_size if rules.teams else 1)
    rounds = max(1.0, min(mine, theirs) / (ROUND_GAIN * tiles))
    scale = LOGISTIC * ROUND_SPREAD * tiles * math.sqrt(rounds)
    return RACE_GAME * math.tanh((theirs - mine) / (2 * scale))


def _race_end(side: int, outcome: GameEnded) -> float:
    """`RACE_GAME` for a side placed first at the game's end, as much against otherwise."""
    first = any(p.place == 1 for p in outcome.places if p.side == side)
    return RACE_GAME if first else -RACE_GAME


def bykovo_value(rules: RuleSet, seat: int, state: GameState) -> float:
    """Bykovo (§4): minus the points the round added to the seat's tournament score (its
    hand, nothing for the winner) and `BYKOVO_PLACE` a round place below the first; being
    eliminated by the round costs `BYKOVO_OUT` more (a side is a seat)."""
    ended = state.last_round
    if ended is None:  # not finished: should not happen after a rollout
        return 0.0
    place = ended.order.index(seat) if seat in ended.order else 0
    value = -ended.results[seat].round_points - BYKOVO_PLACE * place
    if seat in ended.out:
        value -= BYKOVO_OUT
    return value


def general_value(rules: RuleSet, side: int, state: GameState) -> float:
    """«Генерал» (§8): a round won counts 1 and lost -1, a General `GENERAL_WORTH` more
    either way; a fish counts nothing (it is replayed)."""
    ended = state.last_round
    if ended is None or ended.reason is not RoundEnd.OUT:
        return 0.0
    winner = rules.side_of(ended.seat)
    general = any(r.round_points for r in ended.results if r.side == winner)
    value = 1.0 + GENERAL_WORTH * general
    return value if winner == side else -value


def round_points(rules: RuleSet) -> float:
    """The points a side of the room typically takes in a round."""
    costs = tile_costs(rules)
    per_seat = KEPT * rules.hand * sum(costs) / len(costs)
    return per_seat * (rules.team_size if rules.teams else 1)


def room_value(rules: RuleSet, side: int, state: GameState) -> float:
    """The room: minus the side's expected final place, `PLACE` points a place.

    A side that is out, or a finished game, has its place for good. Each other side still
    in outlasts one still in with a logistic chance of how much farther it is from the
    limit, on the spread of the rounds either has left: own points are bad, the others'
    good, and near the limit a point weighs more.
    """
    tally = state.tally
    if tally.out[side] or state.outcome is not None:
        return -PLACE * next(
            p for s, p, _, _ in rules.format.standings(rules, tally, (), (), 0) if s == side
        )
    room = {s: rules.target - tally.scores[s] for s in tally.still_in()}
    mine = room.pop(side)
    step = 2 * round_points(rules)
    ahead = sum(
        1 / (1 + math.exp((mine - left) / math.sqrt(step * min(mine, left))))
        for left in room.values()
    )
    return -PLACE * (1 + ahead)


VALUES: dict[Valuation, Callable[[RuleSet, int, GameState], float]] = {
    Valuation.PENALTY: points_value,
    Valuation.RECORD: points_value,
    Valuation.RACE: race_value,
    Valuation.CHANCE: chance_value,
    Valuation.ROOM: room_value,
    Valuation.BYKOVO: bykovo_value,
    Valuation.GENERAL: general_value,
}


class Estimates:
    """Weighted sums over the worlds searched so far: per candidate and per pair."""

    def __init__(self, count: int) -> None:
        self.weight = 0.0
        self.weight_sq = 0.0
        self.sums = [0.0] * count
        self.cross = [[0.0] * count for _ in range(count)]

    def add(self, weight: float, values: list[float]) -> None:
        self.weight += weight
        self.weight_sq += weight * weight
        for i, vi in enumerate(values):
            self.sums[i] += weight * vi
            row = self.cross[i]
            for j, vj in enumerate(values):
                row[j] += weight * vi * vj

    def best(self) -> int:
        return max(range(len(self.sums)), key=self.sums.__getitem__)

    def lead(self, b: int, i: int) -> tuple[float, float]:
        """Candidate `b`'s average lead over `i` on the same worlds, and its standard error."""
        w = self.weight
        cross = self.cross
        lead = (self.sums[b] - self.sums[i]) / w
        spread = (cross[b][b] - 2 * cross[b][i] + cross[i][i]) / w - lead * lead
        return lead, (max(0.0, spread) * self.weight_sq / (w * w)) ** 0.5

    def settled(self) -> bool:
        """Whether more worlds would hardly change the choice: against every other
        candidate the best one's paired lead is `CLEAR` standard errors above zero, or
        known to within `CLOSE` points."""
        if self.weight <= 0:
            return False
        b = self.best()
        for i in range(len(self.sums)):
            if i == b:
                continue
            lead, error = self.lead(b, i)
            if lead < CLEAR * error and CLEAR * error > CLOSE:
                return False
        return True

    def choice(self, default: int, trust: float) -> int:
        """The best candidate if it beats `default` by `trust` standard errors, else `default`."""
        b = self.best()
        if b == default or self.weight <= 0:
            return default
        lead, error = self.lead(b, default)
        return b if lead > trust * error else default


def search_world(
    view: SeatView,
    know: Knowledge,
    voids: list[int],
    moves: list[Move],
    estimates: Estimates,
    rng: random.Random,
) -> None:
    """One sampled world: every candidate played in it and the round finished by the
    normal heuristic, each outcome added to `estimates` with the world's weight."""
    rules = view.rules
    side = rules.side_of(view.seat)
    world = sample_world(view, know, rng)
    values = []
    for move in moves:
        after, events = apply(world, move)
        seen = voids.copy()
        track_voids(seen, events)
        values.append(outcome_value(rules, side, rollout(after, seen)))
    weighted = KNOBS[rules.format].weighted
    estimates.add(likelihood(view, world.hands) if weighted else 1.0, values)


def hard_move(
    view: SeatView,
    rng: random.Random,
    budget_s: float | None,
    samples: int | None,
) -> Move:
    """The candidate with the best average outcome over sampled worlds, each weighted by
    how well it explains the other seats' plays (`inference`), if it beats the normal
    heuristic's move clearly (`Knobs.trust`); else that move. The room: unweighted worlds
    and the best candidate; Bykovo: the best candidate.

    Stops after `samples` worlds, or when `budget_s` seconds have passed, whichever comes
    first (with neither, after `MAX_WORLDS`); with a time budget it also stops once the
    choice is settled.
    """
    moves = candidates(view)
    if len(moves) == 1:
        return moves[0]
    knobs = KNOBS[view.rules.format]
    know = infer(view)
    voids = list(know.voids())
    moves = shortlist(view, moves, voids)
    deadline = None if budget_s is None else time.perf_counter() + budget_s
    limit = samples if samples is not None else MAX_WORLDS
    estimates = Estimates(len(moves))
    worlds = 0
    while worlds < limit:
        search_world(view, know, voids, moves, estimates, rng)
        worlds += 1
        if deadline is not None:
            if time.perf_counter() >= deadline:
                break
            if samples is None and worlds >= MIN_WORLDS and estimates.settled():
                break
    heuristic = normal_move(view_position(view, voids), moves)
    return moves[estimates.choice(moves.index(heuristic), knobs.trust)]
