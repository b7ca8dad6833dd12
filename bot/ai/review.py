"""«Разбор»: a second look at one seat's moves of a finished game, by the hard level.

For each decision the seat made (more than one legal move), the hard level searches the
same sampled worlds for the move played and for its own candidates; where its best beats
the move played by `TRUST` standard errors and by at least `NOTICE` in the game's own
value (`search.outcome_value`: points in «Козёл», fives in the races, …), the move is a
slip, and that lead is what it estimates the move cost. The worst `SHOWN` are kept.

The work has a budget: `WORLDS` worlds a decision and at most `BUDGET_S` seconds of CPU a
seat's game (the rounds are looked at from the last back, so the budget goes to the
decisions nearest the result first). It is run away from the games, in a process of its
own (`bot.telegram.messenger.replays`).
"""

from __future__ import annotations

import random
import time
from typing import NamedTuple

from bot.ai.knobs import KNOBS, TRUST, Valuation
from bot.ai.knowledge import infer
from bot.ai.search import Estimates, candidates, search_world
from bot.game import notation
from bot.game.moves import Move
from bot.game.record import Record, every_round
from bot.game.serial import move_from_json
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
    in the record's round), what was played, what it prefers, and what it estimates the
    difference cost (`unit`: the game's valuation)."""

    round_no: int
    move: int
    played: Move
    better: Move
    cost: float
    unit: Valuation


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
    slips: list[Slip] = []
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
            found = second_look(view, played, rng, WORLDS)
            if found is not None:
                better, cost = found
                unit = KNOBS[view.rules.scoring].valuation
                slip = Slip(
                    round_no=round_["round"],
                    move=index,
                    played=played,
                    better=better,
                    cost=cost,
                    unit=unit,
                )
                slips.append(slip)
    slips.sort(key=lambda s: -s.cost)
    return Review(tuple(slips[:SHOWN]), looked, decisions, time.process_time() - started)


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
