"""Teams picked in the lobby (bot/core/teams.py): who sits where."""

from __future__ import annotations

import pytest

from bot.core.errors import GameError
from bot.core.teams import seating, team_slots
from bot.game import parse_rules


def test_without_picks_joining_order_alternates_the_teams():
    assert seating([None] * 6, teams=3, size=2) == [0, 1, 2, 3, 4, 5]
    assert seating([None] * 4, teams=2, size=2) == [0, 1, 2, 3]


def test_picked_partners_sit_a_team_apart():
    # players 0 and 1 want to play together in team 2 (index 1) of three
    order = seating([1, 1, None, None, None, None], teams=3, size=2)
    assert order[1] == 0 and order[4] == 1  # seats 1 and 4 are team 2
    assert sorted(order) == list(range(6))
    assert {order[0], order[3]} == {2, 4} and {order[2], order[5]} == {3, 5}


def test_unpicked_players_fill_the_emptiest_team_first():
    order = seating([0, 0, None, None], teams=2, size=2)
    assert order == [0, 2, 1, 3]


def test_an_over_full_team_is_refused():
    with pytest.raises(GameError) as error:
        seating([0, 0, 0, None], teams=2, size=2)
    assert error.value.key == "team-full"


def test_a_pick_beyond_the_tables_teams_is_refused():
    with pytest.raises(GameError) as error:
        seating([3, None, None, None], teams=2, size=2)
    assert (error.value.key, error.value.values) == ("team-missing", {"team": 4, "teams": 2})


def test_the_lobby_offers_as_many_teams_as_a_full_table_holds():
    assert team_slots(parse_rules("room teams=yes", 4)) == 5
    assert team_slots(parse_rules("room teams=yes team_size=3", 3 * 2)) == 3
    assert team_slots(parse_rules("goat_teams", 4)) == 2
