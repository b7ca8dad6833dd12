"""Fives and Threes (docs/RULES.md §11): every worked value by name, `exact=yes`, properties."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.game import GameState, Phase, apply, legal_moves, new_game, next_round, parse_rules
from bot.game.events import (
    EndReason,
    Knocked,
    RoundEnd,
    RoundEnded,
    RoundStarted,
    Scored,
    TilesDrawn,
)
from bot.game.formats.fives_threes import ends_points
from bot.game.moves import Draw, Pass, Play
from bot.game.rules import RuleError
from bot.game.scoring import Tally
from bot.game.serial import state_from_json, state_to_json
from bot.game.table import ends_sum, is_blocked
from tests.helpers import crafted, mask, random_game, seats, tile

TWO = parse_rules("fives_threes", players=2)
EXACT = parse_rules("fives_threes exact=yes", players=2)


def at(rules, hands, scores=(0, 0), to_move=0) -> GameState:
    """A crafted round, nothing set aside beyond the tiles nobody holds."""
    tally = Tally(tuple(scores), (0,) * len(scores), (False,) * len(scores), 0)
    return crafted(rules, hands, to_move=to_move, tally=tally)


def put(state: GameState, text: str, value: int | None = None):
    """The seat to move plays `text` on the arm showing `value` (the lead: no value)."""
    end = 0 if value is None else state.ends.index(value)
    move = Play(tile(state.rules, text), end)
    assert move in legal_moves(state), f"{text} on {value} is not legal"
    return apply(state, move)


def scored(events) -> list[tuple[int, int, int]]:
    return [(e.seat, e.ends_sum, e.points) for e in events if isinstance(e, Scored)]


# -- the worked values of §11 ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "points"),
    [(3, 1), (5, 1), (6, 2), (9, 3), (10, 2), (12, 4), (15, 8), (18, 6), (20, 4)],
    ids=str,
)
def test_the_worked_sums_score_their_thirds_and_fifths(total, points):
    assert ends_points(total) == points


def test_no_other_sum_up_to_22_scores():
    scoring = {3, 5, 6, 9, 10, 12, 15, 18, 20, 21}
    for total in range(23):
        assert (ends_points(total) > 0) == (total in scoring), total
    assert ends_points(21) == 7  # 21 = 7 × 3: a multiple of 3 scores too


def test_22_is_the_largest_sum_6_6_and_5_5_at_the_two_ends():
    state = at(TWO, [["6-6", "5-5", "0-1"], ["5-6", "0-3", "1-3"]])
    state, _ = put(state, "6-6")
    state, _ = put(state, "5-6", 6)
    state, _ = put(state, "5-5", 5)
    assert ends_sum(TWO.tiles, state.ends, state.spread, None) == 22
    crossed = state.spread._replace(doubled=0b11)
    two_doubles = [ends_sum(TWO.tiles, (a, b), crossed, None) for a in range(7) for b in range(a)]
    assert max(two_doubles) == 22 and ends_points(22) == 0


def test_a_lead_of_5_5_makes_10_and_scores_2():
    state = at(TWO, [["5-5", "0-1"], ["2-3", "1-4"]])
    state, events = put(state, "5-5")
    assert scored(events) == [(0, 10, 2)]
    assert state.tally.scores == (2, 0)


def test_a_lead_of_6_3_makes_9_and_scores_3():
    state = at(TWO, [["3-6", "0-1"], ["2-4", "1-4"]])
    state, events = put(state, "3-6")
    assert scored(events) == [(0, 9, 3)]


def test_a_double_at_an_end_counts_both_halves_15_scores_8():
    state = at(TWO, [["3-6", "0-1"], ["6-6", "1-4"]])
    state, _ = put(state, "3-6")
    state, events = put(state, "6-6", 6)
    assert scored(events) == [(1, 15, 8)]
    assert state.tally.scores == (3, 8)


def test_18_scores_6_and_20_scores_4():
    state = at(TWO, [["3-6", "3-4", "0-0"], ["6-6", "4-4", "1-1"]])
    state, _ = put(state, "3-6")  # 9: 3
    state, _ = put(state, "6-6", 6)  # 12 + 3 = 15: 8
    state, events = put(state, "3-4", 3)  # 12 + 4 = 16: nothing
    assert scored(events) == []
    state, events = put(state, "4-4", 4)  # 12 + 8 = 20: 4
    assert scored(events) == [(1, 20, 4)]
    state = at(TWO, [["3-6", "3-3", "0-0"], ["6-6", "4-4", "1-1"]])
    state, _ = put(state, "3-6")
    state, _ = put(state, "6-6", 6)
    state, events = put(state, "3-3", 3)  # 12 + 6 = 18: 6
    assert scored(events) == [(0, 18, 6)]


def test_knocking_while_able_to_play_is_not_allowed_and_there_is_no_bazaar():
    state = at(TWO, [["1-2", "0-0"], ["2-3", "4-4"]])
    state, _ = put(state, "1-2")
    moves = legal_moves(state)
    assert moves == [Play(tile(TWO, "2-3"), state.ends.index(2))]
    assert Pass() not in moves and Draw() not in moves
    assert state.bazaar  # the tiles nobody holds lie aside, never drawn


# -- the round's end ------------------------------------------------------------------------


def test_chipping_out_scores_one_more_than_the_last_tile():
    state = at(TWO, [["3-6", "6-6"], ["0-1", "1-4", "2-2"]])
    state, _ = put(state, "3-6")  # 9: 3
    state, events = put(state, "6-6", 6)  # 15: 8, and out
    assert state.phase is Phase.ROUND_OVER
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.reason is RoundEnd.OUT
    assert ended.results[0].play_points == 11 and ended.results[0].round_points == 1
    assert state.tally.scores == (12, 0)  # the other hand counts nothing


def test_a_blocked_round_comes_only_after_a_full_circle_of_knocks_and_scores_nothing_more():
    state = at(TWO, [["1-2", "5-6"], ["2-3", "0-6"]])
    state, _ = put(state, "1-2")  # 3: 1
    state, events = put(state, "2-3", 2)  # 1 + 3 = 4; then seat 0 knocks, seat 1 knocks
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert [type(e) for e in events].count(Knocked) == 2
    assert ended.reason is RoundEnd.FISH
    assert [r.round_points for r in ended.results] == [0, 0]
    assert state.tally.scores == (1, 0)


def test_equal_ends_with_their_plain_tiles_out_are_no_fish_while_the_double_may_come():
    plain_fours = mask(TWO, ["0-4", "1-4", "2-4", "3-4", "4-5", "4-6"])
    assert not is_blocked(TWO.dead_ends, (4, 4), plain_fours)  # 4-4 may still come (§11)
    goat = parse_rules("goat", players=2)
    assert is_blocked(goat.dead_ends, (4, 4), plain_fours)  # a closed line elsewhere (§1.6)


def test_a_move_that_reaches_61_ends_the_game_at_once():
    state = at(TWO, [["3-6", "0-1", "0-2"], ["6-6", "1-4"]], scores=(50, 58))
    state, _ = put(state, "3-6")  # 53
    state, _events = put(state, "6-6", 6)  # 58 + 8 = 66
    assert state.phase is Phase.GAME_OVER
    assert state.last_round is not None and state.last_round.reason is RoundEnd.TARGET
    assert state.outcome is not None and state.outcome.reason is EndReason.TARGET
    assert [(p.seat, p.place, p.score, p.goat) for p in state.outcome.places] == [
        (1, 1, 66, False),
        (0, 2, 53, False),
    ]


def test_equal_scores_share_a_place():
    rules = parse_rules("fives_threes", players=3)
    state = at(rules, [["3-6", "0-1"], ["6-6", "1-4"], ["2-2", "1-2"]], scores=(60, 50, 61))
    state, _ = put(state, "3-6")  # 63
    places = {p.seat: p.place for p in state.outcome.places}
    assert state.outcome is not None and places == {0: 1, 2: 2, 1: 3}
    tied = rules.format.standings(rules, state.tally._replace(scores=(61, 61, 3)), (), (), 0)
    assert [(side, place) for side, place, _, _ in tied] == [(0, 1), (1, 1), (2, 3)]


# -- exact=yes ------------------------------------------------------------------------------


def test_exact_at_60_a_chip_out_scoring_nothing_wins_with_the_go_point():
    state = at(EXACT, [["1-6"], ["2-3", "0-5"]], scores=(60, 0))
    state, events = put(state, "1-6")  # 7 scores nothing; the go point lands on 61
    assert scored(events) == []
    assert state.phase is Phase.GAME_OVER and state.tally.scores == (61, 0)
    assert state.outcome is not None and state.outcome.places[0].seat == 0


def test_exact_at_60_a_chip_out_whose_ends_score_passes_and_scores_nothing():
    state = at(EXACT, [["1-4"], ["2-3", "0-5"]], scores=(60, 0))
    state, events = put(state, "1-4")  # 5 would score 1: 60 + 1 + 1 > 61
    assert scored(events) == []
    assert state.phase is Phase.ROUND_OVER and state.tally.scores == (60, 0)


def test_exact_at_59_a_chip_out_whose_ends_score_2_scores_nothing():
    state = at(EXACT, [["1-5"], ["2-3", "0-4"]], scores=(59, 0))
    state, events = put(state, "1-5")  # 6 scores 2: 59 + 2 + 1 = 62 > 61
    assert scored(events) == []
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.reason is RoundEnd.OUT  # the round still ends
    assert ended.results[0].round_points == 0
    assert state.phase is Phase.ROUND_OVER and state.tally.scores == (59, 0)


def test_exact_a_move_past_61_scores_nothing_and_one_landing_on_it_wins():
    state = at(EXACT, [["3-6", "0-1"], ["6-6", "1-4"]], scores=(0, 58))
    state, _ = put(state, "3-6")  # 9: 3
    state, events = put(state, "6-6", 6)  # 15 would score 8: 58 + 8 > 61
    assert scored(events) == [] and state.tally.scores == (3, 58)
    assert state.phase is not Phase.GAME_OVER
    state = at(EXACT, [["3-6", "0-1"], ["6-6", "1-4"]], scores=(0, 53))
    state, _ = put(state, "3-6")
    state, events = put(state, "6-6", 6)  # 53 + 8 = 61 exactly
    assert state.phase is Phase.GAME_OVER and state.tally.scores == (3, 61)
    assert state.outcome is not None and state.outcome.reason is EndReason.TARGET


def test_without_exact_a_chip_out_at_59_scores_its_ends_and_the_go_point():
    state = at(TWO, [["1-5"], ["2-3", "0-4"]], scores=(59, 0))
    state, events = put(state, "1-5")
    assert scored(events) == [(0, 6, 2)]
    assert state.phase is Phase.GAME_OVER and state.tally.scores == (62, 0)


# -- the deal, the lead and the options ------------------------------------------------------


def test_hands_are_7_for_two_and_5_for_three_or_four_with_no_redeal():
    for players, size in ((2, 7), (3, 5), (4, 5)):
        rules = parse_rules("fives_threes", players=players)
        state, events = new_game(rules, seats(players), seed=5)
        assert state.hand_sizes() == (size,) * players
        assert next(e for e in events if isinstance(e, RoundStarted)).redeals == ()
    assert parse_rules("fives_threes hand_size=9", players=3).hand == 9
    assert parse_rules("fives_threes hand_size=7", players=4).hand == 7


@pytest.mark.parametrize(
    ("text", "players", "key"),
    [
        ("fives_threes hand_size=10", 2, "hand_size"),
        ("fives_threes hand_size=8", 4, "hand_size"),
        ("fives_threes max_pip=9", 2, "max_pip"),
        ("fives_threes teams=yes", 3, "teams"),
        ("goat exact=yes", 4, "exact"),
    ],
)
def test_options_out_of_range_are_refused(text, players, key):
    with pytest.raises(RuleError) as error:
        parse_rules(text, players=players)
    assert error.value.key == key


def test_the_first_leader_is_drawn_and_each_later_round_the_next_seat_after_the_last_leader():
    rules = parse_rules("fives_threes", players=3)
    leaders = set()
    for seed in range(12):
        _state, events = new_game(rules, seats(3), seed)
        leaders.add(events[0].leader)
        assert events[0].lead_tile is None  # any tile
    assert leaders == {0, 1, 2}
    firsts = []
    for step in random_game(rules, seed=3, choice_seed=4):
        for event in step.events:
            if isinstance(event, RoundStarted):
                firsts.append(event.leader)
    assert len(firsts) > 2
    assert all(b == (a + 1) % 3 for a, b in itertools.pairwise(firsts))


def test_partners_keep_one_score_and_the_round_ends_when_one_of_them_chips_out():
    rules = parse_rules("fives_threes teams=yes", players=4)
    state = crafted(rules, [["3-6"], ["0-1", "0-2"], ["6-6", "2-2"], ["1-4", "1-2"]])
    state, _events = put(state, "3-6")  # seat 0 out at once: 9 → 3, and the go point
    assert state.phase is Phase.ROUND_OVER
    assert state.tally.scores == (4, 0)
    assert {r.seat: r.side for r in state.last_round.results} == {0: 0, 1: 1, 2: 0, 3: 1}


# -- properties -----------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(
    players=st.sampled_from([2, 3, 4]),
    teams=st.booleans(),
    exact=st.booleans(),
    seed=st.integers(0, 10**6),
    choice=st.integers(0, 10**6),
)
def test_random_games_score_only_what_the_rules_say(players, teams, exact, seed, choice):
    teams = teams and players == 4
    rules = parse_rules(
        f"fives_threes teams={'yes' if teams else 'no'} exact={'yes' if exact else 'no'}",
        players=players,
    )
    log: list = []
    state = None
    for step in random_game(rules, seed, choice):
        state = step.after
        before = step.before
        assert (
            before.rules.tiles.all_mask
            == (state.on_table | sum_hands(state) | state.rules.tiles.mask(state.bazaar))
            or state.phase is not Phase.PLAYING
        )
        if step.move is not None:
            log.append(step.move)
            for event in step.events:
                assert not isinstance(event, TilesDrawn)  # nothing is ever drawn
                if isinstance(event, Scored):
                    assert event.points == ends_points(event.ends_sum) > 0
                if isinstance(event, RoundEnded):
                    assert event.reason in {RoundEnd.OUT, RoundEnd.FISH, RoundEnd.TARGET}
                    if event.reason is RoundEnd.FISH:
                        assert all(r.round_points == 0 for r in event.results)
                    for r in event.results:
                        assert r.score_after == r.score_before + r.play_points + r.round_points
                        assert r.round_points in (0, 1)
        assert max(state.tally.scores) <= rules.goal or not exact
        assert state_from_json(state_to_json(state)) == state
    assert state is not None and state.phase is Phase.GAME_OVER
    assert state.outcome is not None and state.outcome.reason is EndReason.TARGET
    assert max(state.tally.scores) >= rules.goal
    if exact:
        assert max(state.tally.scores) == rules.goal


def sum_hands(state: GameState) -> int:
    held = 0
    for hand in state.hands:
        held |= hand
    return held


def test_next_round_deals_after_every_round_until_61():
    state, _ = new_game(TWO, seats(2), seed=11)
    rounds = 0
    while state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.ROUND_OVER:
            state, _ = next_round(state)
            rounds += 1
            continue
        state, _ = apply(state, legal_moves(state)[0])
    assert rounds >= 1 and max(state.tally.scores) >= 61
