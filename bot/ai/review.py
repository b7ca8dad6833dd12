"""«Разбор»: a second look at one seat's moves of a finished game, by the hard level.

For each decision the seat made (more than one legal move), the hard level searches the
same sampled worlds for the move played and for its own candidates; where its best beats
the move played by `TRUST` standard errors and by at least `NOTICE` in the game's own
value (`search.outcome_value`: points in «Козёл», fives in the races, …), the move is a
slip, and that lead is what it estimates the move cost. The worst `SHOWN` are kept, each
with what the better move would have changed in terms a player reads (`consequences`):
the seat's points in the round and its chances to win or lose the game in it.

The work has a budget: `WORLDS` worlds a decision and at most `BUDGET_S` seconds of CPU a
seat's game (the rounds are looked at from the last back, so the budget goes to the
decisions nearest the result first). It is run away from the games, in a process of its
own (`bot.telegram.messenger.replays`).
"""

from __future__ import annotations

import json
import random
import time
from typing import Any, NamedTuple

from bot.ai.inference import likelihood
from bot.ai.knobs import KNOBS, TRUST
from bot.ai.knowledge import infer
from bot.ai.sampling import sample_world
from bot.ai.search import Estimates, candidates, rollout, search_world, track_voids
from bot.game import notation
from bot.game.engine import apply
from bot.game.moves import Move
from bot.game.record import Record, every_round
from bot.game.serial import encode, move_from_json
from bot.game.state import GameState
from bot.game.view import SeatView, seat_view

WORLDS = 32
"""Sampled worlds a decision."""
BUDGET_S = 15.0
"""CPU seconds a seat's review may take, at most."""
NOTICE = 1.0
"""The least estimated cost worth showing, in the game's value (a point, a five …)."""
SHOWN = 3
LAST = (1 << 62, 0)
"""Past every move (a round and a move's index): a seat whose person stayed to the end."""


class Slip(NamedTuple):
    """A move the hard level would have made otherwise: where (the round, the move's index
    in the record's round), what was played, what it prefers, what it estimates the
    difference cost in the game's value, and what the better move would have changed on
    average: the seat's side's `points` in the round, its chance to end the game in the
    round won (`winning`: not the goat, or first) and lost (`losing`), each the better
    move's less the played one's."""

    round_no: int
    move: int
    played: Move
    better: Move
    cost: float
    points: float = 0.0
    winning: float = 0.0
    losing: float = 0.0


class Review(NamedTuple):
    """A seat's review: its slips (the costliest first, at most `SHOWN`), how many of its
    decisions were looked at and how many it had, and the CPU it took."""

    slips: tuple[Slip, ...]
    looked: int
    decisions: int
    cpu_s: float


def review(record: Record, seat: int, seed: int = 0, budget_s: float = BUDGET_S) -> Review:
    """The hard level's second look at `seat`'s decisions in a finished game's `record`."""
    started = time.process_time()
    rng = random.Random(f"{seed}:{seat}")
    slips: list[tuple[Slip, SeatView, tuple[Any, ...]]] = []
    looked = decisions = 0
    left = _left(record, seat)
    for round_, states in reversed(list(every_round(record))):
        for index, item in enumerate(round_["moves"]):
            if item.get("seat") != seat or not _is_move(item) or (round_["round"], index) > left:
                continue
            view = seat_view(states[index], seat)
            if len(candidates(view)) < 2:
                continue
            decisions += 1
            if time.process_time() - started > budget_s:
                continue
            looked += 1
            played = move_from_json(notation.entry_of(view.rules.tiles, item))
            worlds = rng.getstate()  # `consequences` looks at the same worlds
            found = second_look(view, played, rng, WORLDS)
            if found is not None:
                better, cost = found
                slip = Slip(
                    round_no=round_["round"], move=index, played=played, better=better, cost=cost
                )
                slips.append((slip, view, worlds))
    slips.sort(key=lambda found: -found[0].cost)
    shown = tuple(
        slip._replace(**consequences(view, slip.played, slip.better, worlds)._asdict())
        for slip, view, worlds in slips[:SHOWN]
    )
    return Review(shown, looked, decisions, time.process_time() - started)


def second_look(
    view: SeatView, played: Move, rng: random.Random, worlds: int
) -> tuple[Move, float] | None:
    """The move the hard level prefers to `played` and its estimated lead over it on the
    same worlds; None when `played` is as good as it can tell."""
    moves = candidates(view)
    if played not in moves:
        moves.append(played)
    know = infer(view)
    voids = list(know.voids())
    estimates = Estimates(len(moves))
    for _ in range(worlds):
        search_world(view, know, voids, moves, estimates, rng)
    mine = moves.index(played)
    best = estimates.choice(mine, TRUST)
    if best == mine:
        return None
    lead, _ = estimates.lead(best, mine)
    return (moves[best], lead) if lead >= NOTICE else None


class Difference(NamedTuple):
    """What a move changes against another on average (`Slip`'s)."""

    points: float
    winning: float
    losing: float


def consequences(view: SeatView, played: Move, better: Move, worlds: tuple[Any, ...]) -> Difference:
    """What `better` instead of `played` changes on the `WORLDS` sampled worlds `second_look`
    searched (from the random state `worlds`, weighted as it weighs them), each round
    finished by the normal heuristic."""
    rng = random.Random()
    rng.setstate(worlds)
    rules = view.rules
    side = rules.side_of(view.seat)
    know = infer(view)
    voids = list(know.voids())
    weighted = KNOBS[rules.format].weighted
    total, change = 0.0, [0.0, 0.0, 0.0]
    for _ in range(WORLDS):
        world = sample_world(view, know, rng)
        weight = likelihood(view, world.hands) if weighted else 1.0
        ends = []
        for move in (better, played):
            after, events = apply(world, move)
            seen = voids.copy()
            track_voids(seen, events)
            ends.append(rollout(after, seen))
        total += weight
        for i, (mine, theirs) in enumerate(
            zip(_measures(ends[0], side), _measures(ends[1], side), strict=True)
        ):
            change[i] += weight * (mine - theirs)
    return Difference(*(c / total if total > 0 else 0.0 for c in change))


def _measures(state: GameState, side: int) -> tuple[float, float, float]:
    """The side's points (written and remembered), and whether the game ended won or lost
    for it: lost is the goat, or (a game without goats) not first."""
    points = float(state.tally.scores[side] + state.tally.remembered[side])
    if state.outcome is None:
        return points, 0.0, 0.0
    places = state.outcome.places
    mine = [p for p in places if p.side == side]
    if any(p.goat for p in places):
        lost = any(p.goat for p in mine)
    else:
        lost = all(p.place != 1 for p in mine)
    return points, float(not lost), float(lost)


def review_json(found: Review) -> str:
    """A review as JSON, to keep (`review_of` reads it back)."""
    slips = [
        {**s._asdict(), "played": encode(s.played), "better": encode(s.better)} for s in found.slips
    ]
    return json.dumps({**found._asdict(), "slips": slips})


def review_of(kept: str) -> Review:
    data = json.loads(kept)
    slips = tuple(
        Slip(**{**s, "played": move_from_json(s["played"]), "better": move_from_json(s["better"])})
        for s in data["slips"]
    )
    return Review(**{**data, "slips": slips})


def _left(record: Record, seat: int) -> tuple[int, int]:
    """Where `seat`'s person left the game (the round, the move's index): the computer
    played the seat from there on, so its moves are not theirs to review."""
    for round_ in record["rounds"]:
        for index, item in enumerate(round_["moves"]):
            if item.get("leaves") and item.get("seat") == seat:
                return round_["round"], index
    return LAST


def _is_move(item: Record) -> bool:
    return any(key in item for key in ("play", "doubles", "draw", "pass"))
