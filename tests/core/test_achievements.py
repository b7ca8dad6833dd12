"""Every achievement: a game that earns it and one that nearly does (a near miss), judged
for seat 0; its words in both catalogs and its medal; and the judges agree with the
engine on real games (what a seat drew from the bazaar, replayed)."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import NamedTuple

import pytest

from bot.core.achievements import DEFINITIONS, Achievement, earned
from bot.core.achievements.facts import Game, Past
from bot.game import record as records
from bot.game.events import TilesDrawn
from bot.game.formats import FORMATS
from bot.game.record import Seat
from bot.game.rules import PRESETS
from bot.game.typed import parse_rules
from bot.ui.badges import MARKS
from bot.ui.i18n import LANGUAGES
from render.text import clean
from tests.core.badge_games import game, line, out_round, result, round_
from tests.game.test_record import AT, TABLES, play
from tests.ui.test_i18n import messages

A = Achievement
HARD = "hard"


class Case(NamedTuple):
    game: Game
    past: Sequence[Past] = ()


def won(n: int) -> list[Past]:
    return [Past(win=True, goat=False, format="goat", computers=False)] * n


def lost(n: int) -> list[Past]:
    return [Past(win=False, goat=True, format="goat", computers=False)] * n


def formats(skip: str, computers: bool = False) -> list[Past]:
    return [Past(False, False, f, computers) for f in FORMATS if f != skip]


def general(last: str) -> Game:
    """«Генерал»: seat 0 goes out with `last`."""
    moves = [
        {"seat": 0, "play": "1-1", "end": 0},
        {"seat": 1, "play": "1-6", "end": 1},
        {"seat": 0, "play": last, "end": 1},
    ]
    lines = [line(s, side=s % 2) for s in range(4)]
    rounds = [round_(moves, result("out", 0, lines), players=4)]
    return game("general", order=(0, 2, 1, 3), teams=True, rounds=rounds, reason="time")


def bazaar(drew: bool) -> Game:
    """Seat 0 goes out, dealt 7 with a bazaar of 14: playing 7 tiles, or 8 (one drawn)."""
    tiles = ["0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "1-2", "1-3"][: 8 if drew else 7]
    moves = [{"seat": 0, "play": tile, "end": 1} for tile in tiles]
    outcome = result("out", 0, [line(0), line(1, 30)])
    return game(rounds=[round_(moves, outcome, bazaar=["2-2"] * 14)], scores=(0, 101))


def rounds_won(winners: Sequence[int]) -> Game:
    return game(rounds=[out_round(s) for s in winners])


def comeback(first: Sequence[int]) -> Game:
    """«Козёл» for three: after round one the sides hold `first`; seat 0 wins the game."""
    rounds = [out_round(1, 3, first), out_round(0, 3, (60, 80, 101))]
    return game(order=(0, 1, 2), rounds=rounds, scores=(60, 80, 101))


def muggins(points: int) -> Game:
    moves = [{"seat": 0, "play": "5-5", "end": 1, "scored": points}]
    return game("muggins", rounds=[round_(moves)], scores=(250, 100))


def fish(seat: int) -> Game:
    return game(rounds=[round_(outcome=result("fish", seat, [line(0), line(1)]))])


def eggs(seat: int) -> Game:
    lines = [line(s, carry=s == seat) for s in range(2)]
    return game(rounds=[round_(outcome=result("out", seat, lines))])


def pair(seat: int) -> Game:
    moves = [{"seat": seat, "doubles": ["2-2", "5-5"], "ends": [0, 1]}]
    return game("sea_goat", rounds=[round_(moves)])


EARNS: dict[Achievement, Case] = {
    A.FIRST_WIN: Case(game(), lost(3)),
    A.FIRST_GOAT: Case(game(order=(1, 0)), won(2)),
    A.FISHERMAN: Case(fish(0)),
    A.EGGS: Case(eggs(0)),
    A.GENERAL: Case(general("6-6")),
    A.BALD_GOAT_MADE: Case(game("sea_goat", reason="bald_goat")),
    A.BALD_GOAT: Case(game("sea_goat", order=(1, 0), reason="bald_goat")),
    A.THREE_ROUNDS: Case(rounds_won((1, 0, 0, 0))),
    A.NO_BAZAAR: Case(bazaar(drew=False)),
    A.DOUBLE_PAIR: Case(pair(0)),
    A.MUGGINS_25: Case(muggins(25)),
    A.EXACT_61: Case(game("fives_threes", scores=(61, 40), exact=True)),
    A.CLEAN_WIN: Case(game(scores=(0, 101))),
    A.COMEBACK: Case(comeback((50, 10, 20))),
    A.THREE_HARD: Case(game(order=(0, 1, 2, 3), computers=(None, HARD, HARD, HARD))),
    A.FULL_TABLE: Case(game(order=(0, 1, 2, 3))),
    A.WIN_STREAK: Case(game(), [*lost(1), *won(2)]),
    A.TEN_WINS: Case(game(), [*won(9), *lost(4)]),
    A.FIFTY_GAMES: Case(game(order=(1, 0)), [*won(9), *lost(40)]),
    A.WHOLE_FAMILY: Case(game("muggins"), formats("muggins")),
}
"""A game that earns each achievement for seat 0 …"""
NEAR: dict[Achievement, Case] = {
    A.FIRST_WIN: Case(game(), [*lost(3), *won(1)]),  # won before
    A.FIRST_GOAT: Case(game(order=(1, 0)), lost(1)),  # a goat before
    A.FISHERMAN: Case(fish(1)),  # the other closed the fish
    A.EGGS: Case(eggs(1)),  # the other took them
    A.GENERAL: Case(general("5-5")),  # out with another double
    A.BALD_GOAT_MADE: Case(game("sea_goat", reason="target")),  # won on points
    A.BALD_GOAT: Case(game("sea_goat", order=(1, 0), reason="target")),  # lost on points
    A.THREE_ROUNDS: Case(rounds_won((0, 0, 1, 0))),  # two, then the other
    A.NO_BAZAAR: Case(bazaar(drew=True)),  # one tile drawn
    A.DOUBLE_PAIR: Case(pair(1)),  # the other played the pair
    A.MUGGINS_25: Case(muggins(20)),
    A.EXACT_61: Case(game("fives_threes", scores=(61, 40), exact=False)),  # no exact=yes
    A.CLEAN_WIN: Case(game(scores=(5, 101))),  # five points written down
    A.COMEBACK: Case(comeback((20, 10, 50))),  # second after round one, not last
    A.THREE_HARD: Case(game(order=(0, 1, 2, 3), computers=(None, HARD, "normal", HARD))),
    A.FULL_TABLE: Case(game(order=(0, 1, 2, 3), computers=(None, None, None, HARD))),
    A.WIN_STREAK: Case(game(), [*won(1), *lost(1), *won(1)]),  # the streak broke
    A.TEN_WINS: Case(game(), [*won(8), *lost(5)]),  # the ninth
    A.FIFTY_GAMES: Case(game(), [*won(9), *lost(39)]),  # the 49th
    A.WHOLE_FAMILY: Case(game("muggins"), formats("general")[:-1]),  # one game never played
}
"""… and one that nearly does."""


def test_every_achievement_is_defined_once_with_its_cases() -> None:
    assert list(DEFINITIONS) == list(Achievement)
    assert len(Achievement) == 20
    assert set(EARNS) == set(NEAR) == set(Achievement)


@pytest.mark.parametrize("achievement", list(Achievement))
def test_a_game_earns_it(achievement: Achievement) -> None:
    case = EARNS[achievement]
    assert achievement in earned(case.game, 0, case.past)


@pytest.mark.parametrize("achievement", list(Achievement))
def test_a_near_miss_does_not(achievement: Achievement) -> None:
    case = NEAR[achievement]
    assert achievement not in earned(case.game, 0, case.past)


def test_every_achievement_has_both_texts_and_a_medal() -> None:
    for language in LANGUAGES:
        known = messages(language)
        for achievement in Achievement:
            assert f"badge-{achievement}" in known, (language, achievement)
            assert f"badge-{achievement}-rule" in known, (language, achievement)
    for achievement in Achievement:
        mark = MARKS[achievement]
        assert clean(mark, bold=True) == mark  # the font draws it


def test_games_with_computers_count_only_for_those_that_say_so() -> None:
    """A streak, the milestones and a full table are people's: a game with a computer
    earns none of them, and earlier games with computers are not counted."""
    with_computers = Past(win=True, goat=False, format="goat", computers=True)
    assert A.WIN_STREAK not in earned(game(), 0, [*won(1), with_computers])
    assert A.WIN_STREAK in earned(game(), 0, [*won(1), with_computers, *won(1)])  # skipped
    with_computer = game(computers=(None, HARD))
    assert A.WIN_STREAK not in earned(with_computer, 0, won(2))
    assert A.FIRST_WIN in earned(with_computer, 0, [])
    assert not {d.achievement for d in DEFINITIONS.values() if not d.computers} & set(
        earned(game(order=(0, 1, 2, 3), computers=(None, HARD, HARD, HARD)), 0, won(49))
    )


def test_partners_share_their_side_s_wins() -> None:
    """2×2: rounds the partner went out in count, and both partners win."""
    rounds = [out_round(s, 4) for s in (0, 2, 0)]
    teams = game("goat_teams", order=(0, 2, 1, 3), teams=True, rounds=rounds)
    assert {A.THREE_ROUNDS, A.FIRST_WIN} <= set(earned(teams, 2, []))
    assert A.THREE_ROUNDS not in earned(teams, 1, [])


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_judges_read_real_games_as_the_engine_played_them(preset: str) -> None:
    """Random games of every preset: judging every seat works, and «without the bazaar»
    (as many tiles played as dealt) is exactly a round the engine's replay shows the
    seat went out in without drawing."""
    rules = parse_rules(preset, players=TABLES.get(preset, 4))
    for seed in range(3):
        _, log = play(rules, seed, random.Random(seed))
        seats = [Seat(f"P{i}", HARD if i else None) for i in range(rules.players)]
        record = records.build(rules, seats, seed, log, records.Played(7, AT, AT))
        judged = Game(json.loads(json.dumps(record)))
        for seat in range(rules.players):
            earned(judged, seat, [])
        for round_record, states in records.every_round(record):
            result = round_record["result"]
            if result is None or result["reason"] != "out":
                continue
            seat = result["seat"]
            drew = any(isinstance(e, TilesDrawn) and e.seat == seat for e in states[-1].history)
            alone = Game({**judged.record, "rounds": [round_record]})
            assert (A.NO_BAZAAR in earned(alone, seat, [])) == (
                not drew and rules.draw != "none" and len(round_record["deal"]["bazaar"]) > 0
            ), (preset, seed, round_record["round"])
