"""The game room (seed 004, docs/RULES.md §9.1): big sets, up to 10 players, teams of 2–5,
every player scoring their own pips, out at the limit, the last one in wins."""

from __future__ import annotations

import pytest

from bot.game import Phase, Play, apply, legal_moves, new_game, next_round, parse_rules
from bot.game.deal import _first_lead
from bot.game.engine import IllegalMoveError, abandon, leave
from bot.game.events import GameEnded, Knocked, RoundEnded, TilePlayed, TilesDrawn
from bot.game.formats.room import ROOM_ZERO
from bot.game.rules import RuleError
from bot.game.scoring import fresh_tally
from bot.game.serial import state_from_json, state_to_json
from tests.helpers import crafted, hand_value, mask, seats, settle, standings, tile


def room(text: str = "", players: int = 4):
    return parse_rules(f"room {text}", players=players)


# -- sets, seats and hands -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("max_pip", "tiles", "hands"),
    [
        (6, 28, {2: 7, 3: 7, 4: 7}),
        (9, 55, {2: 7, 4: 7, 5: 6, 7: 6, 8: 5, 10: 5}),
        (12, 91, {2: 7, 6: 7, 7: 6, 10: 6}),
    ],
)
def test_the_set_and_the_number_of_players_give_the_hand(max_pip, tiles, hands):
    for players, size in hands.items():
        rules = room(f"set={max_pip}", players)
        assert rules.tiles.size == tiles == (max_pip + 1) * (max_pip + 2) // 2
        assert rules.hand == size
        state, _ = new_game(rules, seats(players), seed=3)
        assert state.hand_sizes() == (size,) * players
        assert len(state.bazaar) == tiles - size * players


def test_double_6_seats_4_and_four_hands_leave_no_bazaar():
    assert len(new_game(room("max_pip=6"), seats(4), 1)[0].bazaar) == 0
    with pytest.raises(RuleError) as error:
        room("max_pip=6", 5)
    assert error.value.key == "players"


def test_only_the_three_room_sets_and_at_most_10_players():
    with pytest.raises(RuleError) as error:
        room("max_pip=7")
    assert error.value.key == "max_pip"
    with pytest.raises(RuleError):
        room("set=12", 11)
    assert room("set=12", 10).most_players == 10


def test_other_games_still_seat_at_most_4():
    with pytest.raises(RuleError):
        parse_rules("goat", players=5)
    assert parse_rules("classic max_pip=12", players=4).most_players == 4


@pytest.mark.parametrize(
    ("players", "size", "teams"),
    [(4, 2, 2), (6, 2, 3), (6, 3, 2), (8, 4, 2), (9, 3, 3), (10, 2, 5), (10, 5, 2)],
)
def test_teams_of_2_to_5_alternate_round_the_table(players, size, teams):
    rules = room(f"teams=yes team_size={size}", players)
    assert rules.sides == teams
    assert [rules.side_of(seat) for seat in range(players)] == [s % teams for s in range(players)]


@pytest.mark.parametrize(("players", "size"), [(5, 2), (6, 4), (4, 4), (12, 2)])
def test_teams_that_do_not_divide_the_table_are_refused(players, size):
    with pytest.raises(RuleError):
        room(f"teams=yes team_size={size}", players)


# -- the lead ------------------------------------------------------------------------------


def test_the_highest_double_in_any_hand_leads():
    rules = room("set=12", 3)
    hands = [mask(rules, ["12-12", "0-1"]), mask(rules, ["11-11", "3-4"]), mask(rules, ["2-2"])]
    assert _first_lead(rules, hands, range(3), "k") == (0, tile(rules, "12-12"))


def test_with_the_top_double_in_the_bazaar_the_next_lower_double_in_a_hand_leads():
    rules = room("set=12", 3)
    hands = [mask(rules, ["10-10", "0-1"]), mask(rules, ["9-9", "3-4"]), mask(rules, ["2-12"])]
    assert _first_lead(rules, hands, range(3), "k") == (0, tile(rules, "10-10"))


def test_with_no_double_in_any_hand_the_highest_tile_leads():
    rules = room("set=9", 3)
    hands = [mask(rules, ["8-9", "0-1"]), mask(rules, ["7-9", "3-4"]), mask(rules, ["2-5"])]
    assert _first_lead(rules, hands, range(3), "k") == (0, tile(rules, "8-9"))


def test_every_round_opens_with_the_highest_double_in_a_hand():
    rules = room("", 6)
    state, (started,) = new_game(rules, seats(6), seed=11)
    for _ in range(5):
        held = [t for t in range(rules.tiles.size) if any(h >> t & 1 for h in state.hands)]
        doubles = [t for t in held if rules.tiles.is_double(t)]
        best = max(doubles, key=lambda t: rules.tiles.pips[t][0]) if doubles else None
        if best is not None:
            assert started.lead_tile == best
        state = _finish_round(state)
        if state.phase is Phase.GAME_OVER:
            break
        state, (started,) = next_round(state)


# -- drawing -------------------------------------------------------------------------------


def test_draw_one_a_tile_that_fits_is_played_by_its_drawer():
    rules = room("", 2)
    state = crafted(rules, [["1-2", "9-9", "8-8"], ["3-4", "5-5"]], bazaar=["2-7", "0-6"])
    state, events = apply(state, Play(tile(rules, "1-2"), 0))
    assert [type(e) for e in events] == [TilePlayed, TilesDrawn]
    assert state.to_move == 1
    assert legal_moves(state) == [Play(tile(rules, "2-7"), 1)]


def test_draw_one_a_tile_that_does_not_fit_is_kept_and_the_turn_passes():
    rules = room("", 2)
    state = crafted(rules, [["1-2", "9-9", "2-8"], ["3-4", "5-5"]], bazaar=["6-7", "0-6"])
    state, events = apply(state, Play(tile(rules, "1-2"), 0))
    assert [type(e) for e in events[:3]] == [TilePlayed, TilesDrawn, Knocked]
    assert events[1].number == 1
    assert state.hands[1] == mask(rules, ["3-4", "5-5", "6-7"])
    assert state.to_move == 0


def test_with_the_bazaar_empty_a_player_who_cannot_move_passes():
    rules = room("", 2)
    state = crafted(rules, [["1-2", "9-9", "2-8"], ["3-4", "5-5"]], bazaar=[])
    state, events = apply(state, Play(tile(rules, "1-2"), 0))
    assert [type(e) for e in events] == [TilePlayed, Knocked]
    assert state.to_move == 0


# -- scoring -------------------------------------------------------------------------------


def test_0_0_is_always_worth_10_in_the_room():
    rules = room()
    assert ROOM_ZERO == 10
    assert hand_value(rules, mask(rules, ["0-0"])) == 10
    assert hand_value(rules, mask(rules, ["0-0", "2-3"])) == 15
    assert hand_value(rules, mask(rules, ["9-9", "0-4"])) == 22


def test_the_player_who_went_out_scores_nothing_the_others_their_own_pips():
    rules = room("", 3)
    done = settle(rules, [0, 15, 22], 0, fresh_tally(3, eliminating=True))
    assert done.points == (0, 15, 22)
    assert done.tally.scores == (0, 15, 22)


def test_a_blocked_round_scores_every_hand():
    rules = room("", 3)
    done = settle(rules, [4, 15, 22], None, fresh_tally(3, eliminating=True))
    assert done.points == (4, 15, 22)


def test_the_winners_partners_tiles_count_against_the_losing_team():
    rules = room("teams=yes", 4)  # seats 0, 2 against 1, 3
    state = crafted(rules, [["1-2"], ["3-4", "5-5"], ["6-6", "0-1"], ["9-9"]], to_move=0)
    state, events = apply(state, Play(tile(rules, "1-2"), 0))
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.reason == "out"
    # team 1 holds 3-4, 5-5 and 9-9 = 35, and partner 2's 6-6, 0-1 = 13 count against it
    assert state.tally.scores == (0, 48)
    assert [r.round_points for r in ended.results] == [0, 48, 0, 48]


def test_with_three_teams_the_partners_tiles_count_against_every_other_team():
    rules = room("teams=yes", 6)  # teams 0: seats 0, 3; 1: seats 1, 4; 2: seats 2, 5
    done = settle(rules, [7, 10, 20], 0, fresh_tally(3, eliminating=True))
    assert done.points == (0, 17, 27)


def test_a_side_that_is_out_scores_nothing_more():
    rules = room("", 3)
    before = fresh_tally(3, eliminating=True)._replace(scores=(104, 30, 40), out=(1, 0, 0))
    done = settle(rules, [0, 0, 12], 1, before)
    assert done.points == (0, 0, 12)
    assert done.tally.out == (1, 0, 0)


# -- going out of the game -----------------------------------------------------------------


def test_reaching_the_limit_puts_a_player_out_and_the_others_play_on():
    rules = room("", 3)
    tally = fresh_tally(3, eliminating=True)._replace(scores=(0, 95, 40))
    state = crafted(rules, [["1-2"], ["3-4", "5-5"], ["6-6"]], to_move=0, tally=tally)
    state, events = apply(state, Play(tile(rules, "1-2"), 0))
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.out == (1,)
    assert state.tally.scores == (0, 112, 52)
    assert state.phase is Phase.ROUND_OVER
    state, _ = next_round(state)
    assert state.hands[1] == 0
    assert state.hand_sizes()[0] == state.hand_sizes()[2] == rules.hand_for(2) == 7
    for _ in range(50):  # seat 1 never moves again
        assert state.to_move != 1
        state = _step(state)
        if state.phase is not Phase.PLAYING:
            break


def test_the_last_one_in_wins_and_places_follow_the_order_of_going_out():
    rules = room("", 4)
    tally = fresh_tally(4, eliminating=True)._replace(scores=(120, 50, 90, 80), out=(1, 0, 0, 0))
    hands = [[], ["1-2"], ["5-5", "0-6"], ["9-9", "2-3"]]
    state = crafted(rules, hands, to_move=1, tally=tally)
    state, events = apply(state, Play(tile(rules, "1-2"), 0))
    assert state.phase is Phase.GAME_OVER
    (outcome,) = [e for e in events if isinstance(e, GameEnded)]
    assert outcome.reason == "last_in"
    assert state.tally.scores == (120, 50, 106, 103)
    assert state.tally.out == (1, 0, 2, 2)
    # seat 1 is the last one in; 3 and 2 went out together (103 before 106); 0 went first
    assert [(p.seat, p.place) for p in outcome.places] == [(1, 1), (3, 2), (2, 3), (0, 4)]


def test_simultaneous_eliminations_place_the_lower_total_higher():
    rules = room("", 4)
    tally = fresh_tally(4, eliminating=True)._replace(scores=(0, 90, 95, 130), out=(0, 0, 0, 1))
    state = crafted(rules, [["1-2"], ["5-5", "9-9"], ["4-4", "8-8"], []], to_move=0, tally=tally)
    state, events = apply(state, Play(tile(rules, "1-2"), 0))
    (outcome,) = [e for e in events if isinstance(e, GameEnded)]
    assert state.tally.scores == (0, 118, 119, 130)
    assert [(p.seat, p.place) for p in outcome.places] == [(0, 1), (1, 2), (2, 3), (3, 4)]
    assert [p.rating_points for p in outcome.places] == [3, 2, 1, 0]
    assert not any(p.goat for p in outcome.places)


def test_when_everyone_left_goes_out_at_once_the_lowest_total_wins():
    rules = room("", 2)
    tally = fresh_tally(2, eliminating=True)._replace(scores=(99, 95))
    state = crafted(rules, [["1-2", "3-3"], ["5-5", "4-4"]], bazaar=[], to_move=0, tally=tally)
    state, events = apply(state, Play(tile(rules, "1-2"), 0))  # nobody can follow: blocked
    (outcome,) = [e for e in events if isinstance(e, GameEnded)]
    assert state.tally.scores == (105, 113)
    assert [p.seat for p in outcome.places] == [0, 1]


def test_standings_put_a_team_that_left_last():
    rules = room("teams=yes", 6)
    tally = fresh_tally(3, eliminating=True)._replace(scores=(30, 101, 20), out=(0, 1, 0))
    table = standings(rules, tally, (), leaver_sides=[2])
    assert [side for side, *_ in table] == [0, 1, 2]
    assert table[-1][3] == 0


def test_a_player_who_is_out_cannot_leave_or_end_the_game_their_place_stands():
    rules = room("", 3)
    tally = fresh_tally(3, eliminating=True)._replace(scores=(0, 112, 52), out=(0, 1, 0))
    state = crafted(rules, [["1-2"], [], ["6-6"]], tally=tally)
    for act in (leave, abandon):
        with pytest.raises(IllegalMoveError) as error:
            act(state, 1)
        assert error.value.reason == "out"


def test_who_is_out_survives_the_json_round_trip_and_old_states_load():
    rules = room("", 3)
    tally = fresh_tally(3, eliminating=True)._replace(scores=(0, 112, 52), out=(0, 1, 0))
    state = crafted(rules, [["1-2"], [], ["6-6"]], tally=tally)
    data = state_to_json(state)
    assert state_from_json(data) == state
    goat = new_game(parse_rules("goat", 2), seats(2), 5)[0]
    old = state_to_json(goat)
    del old["tally"]["out"]  # a state stored before the room existed
    assert state_from_json(old) == goat


# -- helpers -------------------------------------------------------------------------------


def _legal(state):
    return legal_moves(state)


def _step(state):
    return apply(state, _legal(state)[0])[0]


def _finish_round(state):
    while state.phase is Phase.PLAYING:
        state = _step(state)
    return state
