"""Skill ratings: openskill's Plackett–Luce over sides and places, and the shown number."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from bot.core.ratings import DEFAULT_MU, DEFAULT_SIGMA, Skill, display, rated


def test_a_new_player_shows_1000() -> None:
    assert display(Skill()) == 1000
    assert Skill() == Skill(DEFAULT_MU, DEFAULT_SIGMA)
    assert display(Skill(mu=26.0, sigma=DEFAULT_SIGMA)) == 1040


def test_the_winner_goes_up_the_loser_down_and_both_grow_surer() -> None:
    after = rated({}, [[1], [2]], [1, 2])
    assert after[1].mu > DEFAULT_MU > after[2].mu
    assert after[1].sigma < DEFAULT_SIGMA
    assert after[2].sigma < DEFAULT_SIGMA
    assert display(after[1]) > 1000 > display(after[2])


def test_it_is_openskill_plackett_luce() -> None:
    skills = {1: Skill(30.0, 5.0), 2: Skill(22.0, 7.0), 3: Skill()}
    after = rated(skills, [[1], [2], [3]], [2, 1, 3])
    model = PlackettLuce()
    teams = [[model.rating(mu=s.mu, sigma=s.sigma)] for s in skills.values()]
    expected = model.rate(teams, ranks=[2, 1, 3])
    for user, (team,) in zip(skills, expected, strict=True):
        assert after[user].mu == pytest.approx(team.mu)
        assert after[user].sigma == pytest.approx(team.sigma)


def test_partners_move_together_and_equally() -> None:
    after = rated({}, [[1, 3], [2, 4]], [1, 2])
    assert after[1] == after[3]
    assert after[2] == after[4]
    assert after[1].mu > DEFAULT_MU > after[2].mu


def test_tied_equals_move_equally() -> None:
    after = rated({}, [[1], [2], [3]], [1, 1, 2])
    assert after[1] == after[2]
    assert after[1].mu > DEFAULT_MU > after[3].mu
    level = rated({}, [[1], [2]], [1, 1])
    assert level[1].mu == pytest.approx(DEFAULT_MU)
    assert level[1] == level[2]


def test_missing_users_start_at_the_default() -> None:
    known = {1: Skill(), 5: Skill(40.0, 2.0)}
    assert rated(known, [[1], [2]], [2, 1]) == rated({}, [[1], [2]], [2, 1])
    assert 5 not in rated(known, [[1], [2]], [2, 1])


def test_beating_a_stronger_player_is_worth_more() -> None:
    weak = rated({2: Skill(20.0, 3.0)}, [[1], [2]], [1, 2])[1]
    strong = rated({2: Skill(35.0, 3.0)}, [[1], [2]], [1, 2])[1]
    assert strong.mu > weak.mu
