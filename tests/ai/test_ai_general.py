"""Computer players in «Генерал» (docs/RULES.md §8): every level moves legally with a queue
of 2–4 teams; normal, when its team trails, keeps 0-0 or 6-6 for its last tile while the
double can still be played, plays for the round when level or ahead, and never buries the
double; hard judges a round by wins and Generals, a fish by nothing."""

from __future__ import annotations

import random

import pytest

from bot.ai import Level, choose
from bot.ai.policy import goat_scores, normal_move
from bot.ai.position import Position
from bot.ai.search import GENERAL_WORTH, outcome_value
from bot.ai.weights import DEFAULT
from bot.game import (
    GameState,
    Phase,
    apply,
    legal_moves,
    new_game,
    next_round,
    parse_rules,
    seat_view,
)
from bot.game.moves import Move, Play
from bot.game.rules import RuleSet
from bot.game.table import LINE
from tests.helpers import mask, plays, redealt, seats, tile

GENERAL = parse_rules("general")
BLIND = DEFAULT._replace(general=0.0)  # the same heuristic, not knowing about Generals


TRAILING = ((0, 1), (3, 2))  # Generals and rounds won per side: seat 0's side is behind
LEVEL = ((1, 1), (2, 2))
AHEAD = ((1, 0), (2, 5))  # ahead on Generals, behind on rounds won


def position(
    rules: RuleSet,
    hand: list[str],
    ends: tuple[int, int],
    down: list[str],
    standing: tuple[tuple[int, int], tuple[int, int]] = TRAILING,
) -> Position:
    """Seat 0 to move with `hand` on a line with `ends`, `down` on the table; `standing`:
    the sides' Generals and rounds won."""
    held = len(hand)
    left = rules.tiles.size - len(down) - held
    sizes = (held, *(left // 3 + (i < left % 3) for i in range(3)))
    generals, wins = standing
    return Position(
        rules, 0, mask(rules, hand), ends, LINE, mask(rules, down), sizes, (0,) * 4, generals,
        wins=wins,
    )  # fmt: skip


def plays_on(rules: RuleSet, *moves: tuple[str, int]) -> list[Move]:
    return [Play(tile(rules, text), end) for text, end in moves]


SIXES = ["6-6", "6-5", "2-4", "2-5", "4-5", "0-2", "0-4"]


def test_normal_keeps_6_6_for_last_while_sixes_are_still_out_when_its_team_trails() -> None:
    """Ends 6|3: 6-6 or 6-5 fit. The heuristic without Generals sheds the double (doubles
    are ballast); knowing them, a trailing team plays 6-5 and keeps 6-6 — four sixes are
    still to come."""
    here = position(GENERAL, SIXES, (6, 3), ["1-1", "1-6", "1-3"])
    moves = plays_on(GENERAL, ("6-6", 0), ("6-5", 0))
    assert normal_move(here, moves) == moves[1]
    blind = goat_scores(here, moves, BLIND)
    assert blind[0] > blind[1]


@pytest.mark.parametrize("standing", [LEVEL, AHEAD], ids=["level", "ahead"])
def test_normal_plays_for_the_round_when_level_or_ahead(
    standing: tuple[tuple[int, int], tuple[int, int]],
) -> None:
    """Level (or ahead on Generals, whatever the rounds won), the round counts more: the
    double is shed as any double is."""
    here = position(GENERAL, SIXES, (6, 3), ["1-1", "1-6", "1-3"], standing)
    moves = plays_on(GENERAL, ("6-6", 0), ("6-5", 0))
    assert normal_move(here, moves) == moves[0]


def test_normal_does_not_bury_its_general_double() -> None:
    """Every other six is down and only the left end shows one: 6-5 there would leave 6-6
    unplayable for good (the seat could never go out). Normal keeps the 6 open (0-3 on
    the 3) or plays the double — never 6-5."""
    down = ["6-4", "0-4", "0-6", "2-6", "1-2", "1-1", "1-6", "3-6"]
    for standing in (TRAILING, LEVEL):
        here = position(GENERAL, ["6-6", "6-5", "0-3", "2-5"], (6, 3), down, standing)
        moves = plays_on(GENERAL, ("6-6", 0), ("6-5", 0), ("0-3", 1))
        scores = goat_scores(here, moves)
        assert scores[1] < min(scores[0], scores[2])
        assert normal_move(here, moves) != moves[1]
        pair = position(GENERAL, ["6-6", "6-5"], (6, 3), down, standing)
        assert normal_move(pair, moves[:2]) == moves[0]  # nothing else: the double first


def test_0_0_is_a_general_double_too() -> None:
    """Ends 0|3: 0-0 or 0-5. Trailing, normal keeps 0-0 while zeros are still out."""
    here = position(GENERAL, ["0-0", "0-5", "2-4", "4-5"], (0, 3), ["1-1", "0-1", "1-3"])
    moves = plays_on(GENERAL, ("0-0", 0), ("0-5", 0))
    assert normal_move(here, moves) == moves[1]


def test_other_games_shed_the_double_as_before() -> None:
    """Only «Генерал» keeps 6-6: in Козёл for two (teams of two) the same table sheds it."""
    teams = parse_rules("goat_teams")
    here = position(teams, SIXES, (6, 3), ["1-1"])
    moves = plays_on(teams, ("6-6", 0), ("6-5", 0))
    assert normal_move(here, moves) == moves[0]


def finished(winner_last: str) -> tuple[int, GameState]:
    """A four-seat match's first round played out: seat 0 leads 1-1 and goes out with
    `winner_last` («6-6» makes a General, «4-6» does not); the winner's side."""
    state, _ = new_game(GENERAL, seats(4), 1)
    second = "1-6"
    hands = {0: ["1-1", winner_last], 1: [second, "5-5"], 2: ["1-2", "4-4"], 3: ["2-3", "3-3"]}
    state = redealt(state, hands, "1-1")
    state, _ = plays(state, ("1-1", 0), (second, 0), ("1-2", 1), ("2-3", 1), (winner_last, 0))
    assert state.phase is Phase.ROUND_OVER
    return GENERAL.side_of(0), state


@pytest.mark.parametrize(("last", "worth"), [("6-6", 1 + GENERAL_WORTH), ("4-6", 1.0)])
def test_hard_values_a_round_by_the_win_and_a_general_more(last: str, worth: float) -> None:
    side, state = finished(last)
    assert outcome_value(GENERAL, side, state) == worth
    assert outcome_value(GENERAL, 1 - side, state) == -worth


def test_hard_values_a_fish_at_nothing() -> None:
    """A fish is replayed with nothing recorded: no side gains by it."""
    state, _ = new_game(GENERAL, seats(4), 1)
    hands = {0: ["1-1", "5-5"], 1: ["1-2", "6-6"], 2: ["4-4", "3-3"], 3: ["0-0", "3-4"]}
    state, _ = plays(redealt(state, hands, "1-1"), ("1-1", 0), ("1-2", 0))
    assert state.last_round is not None and state.last_round.reason == "fish"
    assert outcome_value(GENERAL, 0, state) == outcome_value(GENERAL, 1, state) == 0.0


@pytest.mark.parametrize("players", [4, 6, 8])
def test_every_level_moves_legally_with_the_queue(players: int) -> None:
    """Rounds played by the three levels; waiting teams are never asked to move."""
    rules = parse_rules("general", players=players)
    state, _ = new_game(rules, seats(players), players)
    rng = random.Random(players)
    levels = (Level.EASY, Level.NORMAL, Level.HARD)
    moves = rounds = 0
    while rounds < 3:
        if state.phase is Phase.ROUND_OVER:
            state, _ = next_round(state)
            rounds += 1
            continue
        seat = state.to_move
        assert not state.sits_out(seat)
        level = levels[moves % 3]
        move = choose(seat_view(state, seat), level, rng, samples=4)
        assert move in legal_moves(state)
        state, _ = apply(state, move)
        moves += 1
