"""Scoring: every worked example of RULES.md §2, and the scoring rules of §2, §3 and §9.

Pure functions only (`hand_value`, `settle`, `goat_sides`, `standings`); the same rules are
played through the engine in test_engine_rounds.py.
"""

from __future__ import annotations

import pytest

from bot.game import parse_rules
from bot.game.scoring import Tally, fresh_tally
from tests.helpers import goat_sides, hand_value, mask, settle, standings

GOAT4 = parse_rules("goat", players=4)
MASHA, ALEX, OLYA, SERG = range(4)


def tally(
    scores: tuple[int, ...],
    remembered: tuple[int, ...] | None = None,
    opened: tuple[bool, ...] | None = None,
    carry: int = 0,
) -> Tally:
    n = len(scores)
    return Tally(
        scores,
        remembered if remembered is not None else (0,) * n,
        opened if opened is not None else tuple(s > 0 for s in scores),
        carry,
    )


# -- §2.3 hand values ------------------------------------------------------------------


def test_lone_zero_zero_counts_10_in_goat():
    assert hand_value(GOAT4, mask(GOAT4, ["0-0"])) == 10


def test_zero_zero_among_other_tiles_counts_0():
    assert hand_value(GOAT4, mask(GOAT4, ["0-0", "1-2"])) == 3
    assert hand_value(GOAT4, mask(GOAT4, ["0-0", "0-1"])) == 1


def test_hand_value_is_the_pip_sum():
    assert hand_value(GOAT4, mask(GOAT4, ["6-6", "5-6", "0-3"])) == 26
    assert hand_value(GOAT4, 0) == 0
    assert hand_value(GOAT4, GOAT4.tiles.all_mask) == 168  # §1.1


def test_lone_zero_option_changes_the_lone_0_0():
    rules = parse_rules("goat lone_zero=0")
    assert hand_value(rules, mask(rules, ["0-0"])) == 0


# -- §2.4 remembered points ------------------------------------------------------------


def test_remembered_points_masha_alex_olya_serg():
    """Masha +19, Alex 0, Olya +7, Serg +4; Masha out; Alex 3, Olya 13, Serg 5."""
    before = tally((0, 0, 0, 0), remembered=(19, 0, 7, 4))
    result = settle(GOAT4, [0, 3, 13, 5], MASHA, before)
    assert result.tally.remembered == (0, 3, 0, 9)
    assert result.tally.scores == (0, 0, 20, 0)
    assert result.tally.opened == (False, False, True, False)
    assert result.points == (0, 3, 13, 5)
    assert not result.eggs
    assert result.tally.carry == 0


def test_open_threshold_12_is_remembered_13_opens():
    before = fresh_tally(2)
    twelve = settle(GOAT4.with_players(2), [0, 12], 0, before).tally
    assert twelve.scores == (0, 0)
    assert twelve.remembered == (0, 12)
    assert twelve.opened == (False, False)
    thirteen = settle(GOAT4.with_players(2), [0, 13], 0, before).tally
    assert thirteen.scores == (0, 13)
    assert thirteen.remembered == (0, 0)
    assert thirteen.opened == (False, True)


def test_opened_account_scores_even_1():
    before = tally((20, 0), remembered=(0, 0), opened=(True, False))
    after = settle(GOAT4.with_players(2), [1, 0], 1, before).tally
    assert after.scores == (21, 0)
    assert after.remembered == (0, 0)


def test_remembered_adds_up_and_opens_with_the_round():
    rules = GOAT4.with_players(2)
    t = fresh_tally(2)
    for hand in (5, 7, 12):
        t = settle(rules, [0, hand], 0, t).tally
    assert t.remembered == (0, 24)
    assert t.scores == (0, 0)
    t = settle(rules, [0, 13], 0, t).tally
    assert t.scores == (0, 37)
    assert t.remembered == (0, 0)


def test_open_threshold_option_25_and_0():
    at25 = parse_rules("goat open_threshold=25", players=2)
    assert settle(at25, [0, 24], 0, fresh_tally(2)).tally.remembered == (0, 24)
    assert settle(at25, [0, 25], 0, fresh_tally(2)).tally.scores == (0, 25)
    off = parse_rules("goat open_threshold=0", players=2)
    after = settle(off, [0, 1], 0, fresh_tally(2)).tally
    assert after.scores == (0, 1)
    assert after.opened == (False, True)


def test_player_who_went_out_has_remembered_reset():
    before = tally((0, 30), remembered=(11, 0), opened=(False, True))
    after = settle(GOAT4.with_players(2), [0, 4], 0, before).tally
    assert after.remembered == (0, 0)
    assert after.scores == (0, 34)


# -- §2.5 fish ----------------------------------------------------------------------


def test_fish_on_one_23_gives_olya_30():
    """Masha 2, Alex 3, Olya 13 (+7), Serg 5: T = 23, Olya gets 23 + 7 = 30."""
    before = tally((0, 0, 0, 0), remembered=(19, 6, 7, 4))
    result = settle(GOAT4, [2, 3, 13, 5], None, before)
    assert result.points == (0, 0, 23, 0)
    assert result.tally.scores == (0, 0, 30, 0)
    assert result.tally.remembered == (0, 0, 0, 0)  # the others' remembered cleared
    assert result.tally.opened == (False, False, True, False)
    assert not result.eggs


def test_fish_on_one_small_total_is_remembered_by_the_taker():
    before = tally((0, 0, 0), remembered=(5, 2, 3))
    result = settle(GOAT4.with_players(3), [1, 2, 6], None, before)
    assert result.points == (0, 0, 9)
    assert result.tally.remembered == (0, 0, 12)
    assert result.tally.scores == (0, 0, 0)


def test_fish_all_every_player_is_a_loser():
    rules = parse_rules("goat fish=all", players=4)
    before = tally((0, 0, 0, 10), remembered=(19, 6, 7, 0), opened=(False, False, False, True))
    result = settle(rules, [2, 3, 13, 5], None, before)
    assert result.points == (2, 3, 13, 5)
    assert result.tally.remembered == (21, 9, 0, 0)
    assert result.tally.scores == (0, 0, 20, 15)
    assert not result.eggs


def test_eggs_35_are_carried():
    """Alex and Olya both hold 14: a draw, nobody scores, 35 carried."""
    before = tally((0, 0, 0, 0), remembered=(19, 0, 7, 4))
    result = settle(GOAT4, [3, 14, 14, 4], None, before)
    assert result.eggs
    assert result.points == (0, 0, 0, 0)
    assert result.tally.carry == 35
    assert result.tally.scores == before.scores
    assert result.tally.remembered == before.remembered
    assert result.carry_taker is None


def test_eggs_are_taken_by_the_largest_loser_of_the_next_round():
    before = tally((0, 0, 0, 0), remembered=(19, 0, 7, 4), carry=35)
    result = settle(GOAT4, [0, 3, 13, 5], MASHA, before)
    assert result.carry_taker == OLYA
    assert result.points == (0, 3, 48, 5)
    assert result.tally.scores == (0, 0, 55, 0)  # 13 + 35 + 7 remembered
    assert result.tally.carry == 0


def test_eggs_taken_on_top_of_a_small_hand_open_the_account():
    before = tally((0, 0), carry=20)
    result = settle(GOAT4.with_players(2), [0, 2], 0, before)
    assert result.carry_taker == 1
    assert result.tally.scores == (0, 22)
    assert result.tally.opened == (False, True)


def test_eggs_roll_on_when_the_next_round_ties_for_the_largest_loser():
    before = tally((0, 0, 0, 0), carry=35)
    result = settle(GOAT4, [0, 6, 6, 2], MASHA, before)
    assert result.carry_taker is None
    assert result.tally.carry == 35
    assert result.points == (0, 6, 6, 2)
    assert result.tally.remembered == (0, 6, 6, 2)


def test_eggs_add_up_over_tied_fish_rounds():
    first = settle(GOAT4, [3, 14, 14, 4], None, fresh_tally(4)).tally
    second = settle(GOAT4, [10, 10, 2, 1], None, first)
    assert second.eggs
    assert second.tally.carry == 35 + 23
    third = settle(GOAT4, [1, 2, 20, 3], None, second.tally)
    assert third.carry_taker == OLYA
    assert third.tally.scores == (0, 0, 26 + 58, 0)
    assert third.tally.carry == 0


# -- §2.8 teams ------------------------------------------------------------------------

TEAMS = parse_rules("goat_teams")


def test_teams_losing_team_scores_both_members_sum():
    # seat 0 went out; team 1 = seats 1 + 3 hold 6 + 11; seat 2's 12 does not count
    before = tally((0, 0), remembered=(5, 4))
    result = settle(TEAMS, [0 + 12, 6 + 11], 0, before)
    assert result.points == (0, 17)
    assert result.tally.scores == (0, 21)
    assert result.tally.remembered == (0, 0)


def test_teams_fish_on_one_the_larger_team_takes_both_sums():
    result = settle(TEAMS, [9, 14], None, tally((0, 0), remembered=(3, 0)))
    assert result.points == (0, 23)
    assert result.tally.scores == (0, 23)
    assert result.tally.remembered == (0, 0)


def test_teams_fish_tie_is_eggs():
    result = settle(TEAMS, [12, 12], None, fresh_tally(2))
    assert result.eggs
    assert result.tally.carry == 24


def test_teams_fish_all_both_teams_score():
    rules = parse_rules("goat_teams fish=all")
    result = settle(rules, [9, 14], None, fresh_tally(2))
    assert result.tally.remembered == (9, 0)
    assert result.tally.scores == (0, 14)


def test_teams_standings_are_per_team():
    goats = goat_sides(TEAMS, tally((40, 104)), None)
    assert goats == (1,)
    table = standings(TEAMS, tally((40, 104)), goats)
    assert table == [(0, 1, False, 6), (1, 2, True, 0)]


# -- §2.6 game end, §2.7 rating points ------------------------------------------------


def test_goats_are_everyone_at_or_over_the_target():
    assert goat_sides(GOAT4, tally((100, 50, 0, 99)), None) == ()
    assert goat_sides(GOAT4, tally((101, 50, 0, 120)), None) == (0, 3)


def test_places_ascending_score_then_remembered_then_seat():
    t = tally((40, 101, 40, 40), remembered=(5, 0, 3, 3), opened=(True,) * 4)
    table = standings(GOAT4, t, (1,))
    assert [side for side, *_ in table] == [2, 3, 0, 1]
    assert [place for _, place, *_ in table] == [1, 2, 3, 4]
    assert [goat for *_, goat, _ in table] == [False, False, False, True]


def test_rating_points_masha_25_gains_8():
    """round_half_up((100 − 25) / 10) = round(7.5) = 8."""
    t = tally((25, 105, 60, 0))
    table = {side: (place, goat, points) for side, place, goat, points in standings(GOAT4, t, (1,))}
    assert table[MASHA] == (2, False, 8)
    assert table[OLYA] == (3, False, 4)
    assert table[SERG] == (1, False, 10)
    assert table[ALEX] == (4, True, 0)


def test_rating_points_at_least_1_for_a_non_goat():
    t = tally((110, 130), opened=(True, True))
    rules = parse_rules("goat target=125", players=2)
    assert standings(rules, t, (1,)) == [(0, 1, False, 1), (1, 2, True, 0)]


def test_timeout_rating_masha_0_2_gains_1_and_olya_1_9_gains_2():
    """Leaver Alex 32: Masha 30 → 0.2 → 1; Olya 13 → 1.9 → 2."""
    t = tally((30, 32, 13, 50))
    settled = standings(GOAT4, t, (), (ALEX,))
    table = {side: (place, goat, pts) for side, place, goat, pts in settled}
    assert table[MASHA][1:] == (False, 1)
    assert table[OLYA][1:] == (False, 2)
    assert table[SERG][1:] == (False, 1)  # behind the leaver: still at least 1
    assert table[ALEX] == (4, True, 0)  # the leaver places last and gains nothing
    assert table[OLYA][0] == 1


# -- §3 Sea Goat -----------------------------------------------------------------------

SEA = parse_rules("sea_goat")


def test_sea_goat_hand_values_25_50_75():
    assert hand_value(SEA, mask(SEA, ["0-0"])) == 25
    assert hand_value(SEA, mask(SEA, ["6-6"])) == 50
    assert hand_value(SEA, mask(SEA, ["0-0", "6-6"])) == 75
    assert hand_value(SEA, mask(SEA, ["0-0", "6-6", "0-1"])) == 13
    assert hand_value(SEA, mask(SEA, ["6-6", "1-2"])) == 15


def test_sea_goat_records_only_25_or_more():
    small = settle(SEA, [0, 24], 0, fresh_tally(2))
    assert small.tally.scores == (0, 0)
    assert small.points == (0, 0)
    big = settle(SEA, [0, 25], 0, fresh_tally(2))
    assert big.tally.scores == (25, 0)
    assert big.points == (25, 0)


def test_sea_goat_winner_keeps_adding_while_nobody_else_holds_points():
    after = settle(SEA, [0, 30], 0, tally((40, 0))).tally
    assert after.scores == (70, 0)


def test_sea_goat_write_off_when_another_side_holds_points():
    result = settle(SEA, [40, 0], 1, tally((30, 0)))
    assert result.written_off
    assert result.tally.scores == (0, 0)
    assert result.points == (0, 0)  # Decision: the new winner records nothing


def test_sea_goat_small_win_does_not_write_off():
    result = settle(SEA, [24, 0], 1, tally((30, 0)))
    assert not result.written_off
    assert result.tally.scores == (30, 0)


def test_sea_goat_fish_lowest_hand_records_the_others():
    result = settle(SEA, [7, 31], None, fresh_tally(2))
    assert result.tally.scores == (31, 0)
    tie = settle(SEA, [20, 20], None, fresh_tally(2))
    assert tie.eggs
    assert tie.tally.carry == 40
    taken = settle(SEA, [0, 5], 0, tie.tally)
    assert taken.carry_taker == 0
    assert taken.tally.scores == (45, 0)
    assert taken.tally.carry == 0


def test_sea_goat_target_125():
    assert SEA.target == 125
    assert goat_sides(SEA, tally((124, 0)), None) == ()
    assert goat_sides(SEA, tally((125, 0)), None) == (1,)
    assert goat_sides(SEA, tally((0, 3)), 0) == (1,)  # bald goat wins at once


def test_sea_goat_teams_winning_team_records_the_losing_team_sum():
    rules = parse_rules("sea_goat teams=yes players=4")
    result = settle(rules, [0 + 9, 12 + 14], 0, fresh_tally(2))
    assert result.tally.scores == (26, 0)


# -- §9 classic ------------------------------------------------------------------------

CLASSIC3 = parse_rules("classic", players=3)


def test_classic_winner_collects_the_others_pips():
    result = settle(CLASSIC3, [0, 10, 7], 0, tally((50, 0, 0)))
    assert result.tally.scores == (67, 0, 0)
    small = settle(CLASSIC3, [3, 0, 1], 1, fresh_tally(3))
    assert small.tally.scores == (0, 4, 0)  # no minimum in classic


def test_classic_blocked_lowest_hand_scores_total_minus_own():
    result = settle(CLASSIC3, [5, 10, 7], None, fresh_tally(3))
    assert result.tally.scores == (17, 0, 0)
    tie = settle(CLASSIC3, [5, 5, 7], None, fresh_tally(3))
    assert tie.tally == fresh_tally(3)
    assert not tie.eggs


def test_classic_first_to_target_wins():
    rules = parse_rules("classic", players=2)
    assert goat_sides(rules, tally((99, 20)), None) == ()
    assert goat_sides(rules, tally((100, 20)), None) == (1,)


@pytest.mark.parametrize("text", ["classic", "classic players=3"])
def test_classic_lone_zero_counts_its_pips(text):
    rules = parse_rules(text)
    assert hand_value(rules, mask(rules, ["0-0"])) == 0
