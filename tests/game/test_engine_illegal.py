"""Illegal moves (RULES §10): rejected with a reason, and the state is left as it was."""

from __future__ import annotations

import json

import pytest

from bot.game import (
    Draw,
    IllegalMoveError,
    Pass,
    Phase,
    Play,
    PlayDoubles,
    abandon,
    apply,
    legal_moves,
    new_game,
    next_round,
    parse_rules,
)
from bot.game.serial import state_to_json
from bot.game.state import GameState
from tests.helpers import crafted, play_chain, seats, tile

GOAT2 = parse_rules("goat", players=2)
HANDS = [["1-2", "2-2", "5-6", "0-0"], ["3-4", "2-5", "1-1", "1-3"]]


def after_lead(rules=GOAT2, hands=HANDS) -> GameState:
    """Seat 0 has led 1-2 (ends 1 and 2); seat 1 is to move and holds 2-5 and 1-1."""
    state, _ = play_chain(crafted(rules, hands), [("1-2", 0)])
    assert state.to_move == 1
    assert state.ends == (1, 2)
    return state


def rejected(state: GameState, move, reason: str, seat: int | None = None) -> None:
    saved = json.dumps(state_to_json(state), sort_keys=True)
    copy = state._replace()
    with pytest.raises(IllegalMoveError) as error:
        apply(state, move, seat)
    assert error.value.reason == reason
    assert str(error.value)
    assert state == copy
    assert json.dumps(state_to_json(state), sort_keys=True) == saved
    assert move not in legal_moves(state) or reason == "not_your_turn"


def test_tile_not_in_hand():
    state = after_lead()
    rejected(state, Play(tile(GOAT2, "2-2"), 1), "not_in_hand")  # seat 0's tile
    rejected(state, Play(tile(GOAT2, "1-2"), 0), "not_in_hand")  # on the table
    rejected(state, Play(-1, 0), "not_in_hand")
    rejected(state, Play(GOAT2.tiles.size, 0), "not_in_hand")


def test_tile_that_does_not_fit():
    rejected(after_lead(), Play(tile(GOAT2, "3-4"), 0), "does_not_fit")
    rejected(after_lead(), Play(tile(GOAT2, "1-3"), 1), "does_not_fit")  # fits the other end


def test_wrong_end_index():
    state = after_lead()
    rejected(state, Play(tile(GOAT2, "2-5"), 0), "does_not_fit")  # 2-5 only fits arm 1
    rejected(state, Play(tile(GOAT2, "2-5"), 2), "does_not_fit")
    rejected(state, Play(tile(GOAT2, "1-1"), -1), "does_not_fit")
    apply(state, Play(tile(GOAT2, "2-5"), 1))  # the right end is fine


def test_opening_tile_goes_to_arm_0():
    state = crafted(GOAT2, HANDS)
    rejected(state, Play(tile(GOAT2, "1-2"), 1), "bad_end")


def test_wrong_lead_tile():
    for seed in range(20):
        state, (started,) = new_game(GOAT2, seats(2), seed)
        hand = state.hands[state.to_move]
        for t in range(GOAT2.tiles.size):
            if hand >> t & 1 and t != started.lead_tile:
                rejected(state, Play(t, 0), "must_lead")


def test_draw_while_a_tile_fits():
    rejected(after_lead(), Draw(), "must_play")
    rejected(crafted(GOAT2, HANDS), Draw(), "must_play")  # the leader always has a tile
    manual = parse_rules("goat auto_draw=no", players=2)
    rejected(after_lead(manual), Draw(), "must_play")


def test_pass_without_voluntary_pass():
    rejected(after_lead(), Pass(), "no_pass")


def test_pass_before_the_lead_even_with_voluntary_pass():
    rules = parse_rules("goat voluntary_pass=yes", players=2)
    state = crafted(rules, HANDS)
    rejected(state, Pass(), "no_pass")
    assert Pass() in legal_moves(after_lead(rules))


def test_double_pair_without_the_option_or_not_matching():
    state = after_lead(hands=[["1-2", "0-0"], ["1-1", "2-2", "5-6"]])
    pair = PlayDoubles((tile(GOAT2, "1-1"), tile(GOAT2, "2-2")), (0, 1))
    rejected(state, pair, "no_doubles")
    sea = parse_rules("sea_goat")
    state = after_lead(sea, hands=[["1-2", "0-0"], ["1-1", "2-2", "5-6"]])
    assert pair in legal_moves(state)
    reversed_pair = PlayDoubles((tile(sea, "2-2"), tile(sea, "1-1")), (1, 0))
    assert apply(state, reversed_pair)[0].on_table == apply(state, pair)[0].on_table
    rejected(state, PlayDoubles((tile(sea, "2-2"), tile(sea, "1-1")), (0, 1)), "no_doubles")
    rejected(state, PlayDoubles((tile(sea, "1-1"), tile(sea, "1-1")), (0, 0)), "no_doubles")
    closed = PlayDoubles(pair.tiles, pair.ends, (True, False))
    rejected(state, closed, "no_doubles")
    rejected(state, PlayDoubles((tile(sea, "1-1"), tile(sea, "5-6")), (0, 1)), "no_doubles")


def test_not_a_move():
    rejected(after_lead(), "2-5", "unknown_move")


def test_move_by_another_seat_is_not_your_turn():
    state = after_lead()
    move = legal_moves(state)[0]
    rejected(state, move, "not_your_turn", seat=0)
    after, _ = apply(state, move, seat=1)
    assert after != state


def test_move_after_the_round_ended():
    state, _ = play_chain(crafted(GOAT2, [["1-2"], ["3-4", "2-5"]]), [("1-2", 0)])
    assert state.phase is Phase.ROUND_OVER
    assert legal_moves(state) == []
    rejected(state, Play(tile(GOAT2, "2-5"), 1), "round_over")
    rejected(state, Play(tile(GOAT2, "2-5"), 1), "round_over", seat=1)
    rejected(state, Draw(), "round_over")


def test_move_after_the_game_ended():
    state, _ = new_game(GOAT2, seats(2), 3)
    state, _ = abandon(state, 1)
    assert state.phase is Phase.GAME_OVER
    rejected(state, legal_moves(new_game(GOAT2, seats(2), 3)[0])[0], "game_over")
    with pytest.raises(IllegalMoveError) as error:
        abandon(state, 0)
    assert error.value.reason == "game_over"


def test_next_round_while_playing():
    state = after_lead()
    with pytest.raises(IllegalMoveError) as error:
        next_round(state)
    assert error.value.reason == "not_round_over"


def test_new_game_needs_the_right_number_of_seats():
    with pytest.raises(ValueError, match="3 players"):
        new_game(parse_rules("goat", players=3), seats(2), 1)
