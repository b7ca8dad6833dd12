"""«Разбор» (`bot.ai.review`): a person who left the game is reviewed on the moves they
made, never on the computer's that played their seat on; a review says what its better
moves change, and is kept as JSON exactly."""

from __future__ import annotations

import copy
import random
from typing import Any

from bot.ai.review import review, review_json, review_of
from bot.game import record as records
from bot.game import serial
from bot.game.engine import legal_moves, new_game
from bot.game.record import Seat, Stamped
from bot.game.state import Phase
from bot.game.typed import parse_rules

AT = "2026-12-04T18:00:00Z"


def left_game(leaves_after: int, seed: int = 5) -> dict[str, Any]:
    """A three-seat «Козёл» to 25 played at random, seat 0's person leaving after
    `leaves_after` log entries (the computer plays the seat on)."""
    rules = parse_rules("goat target=25", players=3)
    state = new_game(rules, ["u0", "u1", "u2"], seed)[0]
    log: list[Stamped] = []
    chooser = random.Random(seed)
    while state.phase is not Phase.GAME_OVER:
        if len(log) == leaves_after:
            entry = serial.leave_entry(0)
        elif state.phase is Phase.ROUND_OVER:
            entry = serial.NEXT_ROUND
        else:
            moves = legal_moves(state)
            entry = serial.encode(moves[chooser.randrange(len(moves))])
        state = serial.step(state, entry)
        log.append(Stamped(entry, AT))
    seats = [Seat("Аня"), Seat("🤖 Любитель 1", "normal"), Seat("🤖 Любитель 2", "normal")]
    return records.build(rules, seats, seed, log, records.Played(1, started=AT, ended=AT))


def test_a_seat_left_before_its_first_move_has_nothing_to_review() -> None:
    record = left_game(leaves_after=0)
    assert any(item.get("seat") == 0 for item in record["rounds"][-1]["moves"])
    found = review(record, 0, budget_s=0.0)
    assert (found.decisions, found.looked, found.slips) == (0, 0, ())


def test_a_seat_that_left_is_reviewed_up_to_its_leaving() -> None:
    """As many decisions as in the game cut where the person left, and every slip before."""
    record = left_game(leaves_after=9)
    (round_no, index), *_ = (
        (r["round"], i)
        for r in record["rounds"]
        for i, item in enumerate(r["moves"])
        if item.get("leaves")
    )
    cut = copy.deepcopy(record)
    cut["rounds"] = [r for r in cut["rounds"] if r["round"] <= round_no]
    cut["rounds"][-1]["moves"] = cut["rounds"][-1]["moves"][:index]
    found = review(record, 0, budget_s=0.0)
    assert 0 < found.decisions == review(cut, 0, budget_s=0.0).decisions
    assert found.decisions < review(left_game(leaves_after=10**6), 0, budget_s=0.0).decisions
    looked = review(record, 0)
    assert all((s.round_no, s.move) < (round_no, index) for s in looked.slips)


def test_a_review_is_kept_as_json_and_says_what_a_better_move_changes() -> None:
    found = review(left_game(leaves_after=10**6, seed=3), 0)
    assert found.slips  # moves played at random
    assert review_of(review_json(found)) == found
    for slip in found.slips:
        assert -1.0 <= slip.winning <= 1.0 and -1.0 <= slip.losing <= 1.0
        assert (slip.points, slip.winning, slip.losing) != (0.0, 0.0, 0.0)
