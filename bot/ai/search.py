"""The hard level: determinized Monte Carlo search over the seat's information set.

Each iteration deals one possible world (`sampling`), plays every candidate move in it and
finishes the round with the normal heuristic for every seat; the candidate with the best
average outcome is played. All candidates share the same worlds, so their difference is
measured with little noise. Outcomes are judged at the game level (`outcome_value`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable
from typing import NamedTuple

from bot.ai.inference import likelihood
from bot.ai.knowledge import end_suits, infer
from bot.ai.policy import DEFAULT, Weights, normal_move
from bot.ai.sampling import sample_world
from bot.game.engine import apply, legal_moves
from bot.game.events import Event, Knocked, TilesDrawn
from bot.game.moves import Move, Play
from bot.game.rules import RuleSet
from bot.game.state import GameState, Phase
from bot.game.view import SeatView

REMEMBERED = 0.5  # what a remembered point is worth against an open one (it may be cleared)
GAME = 100.0  # the end of the game: becoming the goat, or someone else becoming it
LEAD = 5.0  # leading the next round
INFER = True
MAX_WORLDS = 2000  # with a time budget only
MIN_WORLDS = 24  # before a clear winner may stop the search early
CLEAR = 4.0  # … when it leads every other candidate by this many standard errors


def candidates(view: SeatView) -> list[Move]:
    """The legal moves, without duplicates that lead to the same position."""
    tiles = view.rules.tiles
    seen: set[object] = set()
    out: list[Move] = []
    for move in view.legal_moves():
        key: object = move
        if isinstance(move, Play) and view.ends:
            new = list(view.ends)
            new[move.end] = tiles.follow[move.tile][view.ends[move.end]]
            key = (move.tile, tuple(sorted(new)))
        if key not in seen:
            seen.add(key)
            out.append(move)
    return out


def track_voids(voids: list[int], events: Iterable[Event]) -> None:
    """Update the public voids per seat with a move's events."""
    for event in events:
        if isinstance(event, Knocked):
            voids[event.seat] |= end_suits(event.ends)
        elif isinstance(event, TilesDrawn):
            voids[event.seat] = end_suits(event.ends)


def rollout(state: GameState, voids: list[int], weights: Weights = DEFAULT) -> GameState:
    """Finish the round with the normal heuristic for every seat."""
    rules = state.rules
    while state.phase is Phase.PLAYING:
        moves = legal_moves(state)
        if len(moves) == 1:
            move = moves[0]
        else:
            seat = state.to_move
            move = normal_move(
                rules,
                seat,
                state.hands[seat],
                state.ends,
                state.on_table,
                state.hand_sizes(),
                voids,
                moves,
                weights,
            )
        state, events = apply(state, move)
        track_voids(voids, events)
    return state


def outcome_value(rules: RuleSet, side: int, state: GameState) -> float:
    """How good a finished round is for `side`, relative to the other sides.

    Козёл: open points count fully, remembered ones half; sea goat and classic: recorded
    points are good. Ending the game counts `GAME`, leading the next round `LEAD`.
    """
    tally = state.tally
    if rules.low_wins:
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


class Tally(NamedTuple):
    """Weighted sums over the worlds searched so far, per candidate."""

    weight: float
    weight_sq: float
    values: list[float]
    squares: list[float]


def _clear_winner(sums: Tally) -> bool:
    """Whether the best candidate leads each other one by `CLEAR` standard errors
    (a conservative bound that ignores the positive correlation between candidates)."""
    if sums.weight <= 0:
        return False
    means = [v / sums.weight for v in sums.values]
    ess = sums.weight**2 / sums.weight_sq
    best = max(range(len(means)), key=means.__getitem__)
    for i, mean in enumerate(means):
        if i == best:
            continue
        var = sum(max(0.0, sums.squares[j] / sums.weight - means[j] ** 2) for j in (i, best))
        if means[best] - mean < CLEAR * (var / ess) ** 0.5:
            return False
    return True


def hard_move(
    view: SeatView,
    rng: random.Random,
    budget_s: float | None,
    samples: int | None,
    weights: Weights = DEFAULT,
) -> Move:
    """The candidate with the best average outcome over sampled worlds, each weighted by
    how well it explains the other seats' plays (`inference`).

    Stops after `samples` worlds, or when `budget_s` seconds have passed, whichever comes
    first (with neither, after `MAX_WORLDS`); with a time budget a clear winner stops early.
    """
    moves = candidates(view)
    if len(moves) == 1:
        return moves[0]
    rules = view.rules
    side = rules.side_of(view.seat)
    know = infer(view)
    voids = list(know.voids())
    deadline = None if budget_s is None else time.perf_counter() + budget_s
    limit = samples if samples is not None else MAX_WORLDS
    sums = Tally(0.0, 0.0, [0.0] * len(moves), [0.0] * len(moves))
    worlds = 0
    while worlds < limit:
        world = sample_world(view, know, rng)
        weight = likelihood(view, world.hands) if INFER else 1.0
        for i, move in enumerate(moves):
            after, events = apply(world, move)
            seen = voids.copy()
            track_voids(seen, events)
            value = outcome_value(rules, side, rollout(after, seen, weights))
            sums.values[i] += weight * value
            sums.squares[i] += weight * value * value
        sums = sums._replace(weight=sums.weight + weight, weight_sq=sums.weight_sq + weight**2)
        worlds += 1
        if deadline is not None:
            if time.perf_counter() >= deadline:
                break
            if samples is None and worlds >= MIN_WORLDS and _clear_winner(sums):
                break
    return moves[max(range(len(moves)), key=sums.values.__getitem__)]
