"""Computer players on the spinner tables (Осёл, Телефон, Muggins, RULES §5–§7): every
level plays whole games legally from its seat's view, and the normal level scores, blocks
and closes doubles where it should."""

from __future__ import annotations

import random

import pytest

from bot.ai import Level, choose
from bot.ai.search import RACE_GAME, outcome_value
from bot.game import (
    GameState,
    Move,
    Phase,
    Play,
    PlayDoubles,
    apply,
    new_game,
    next_round,
    parse_rules,
    seat_view,
)
from bot.game.events import Scored
from tests.helpers import (
    check_hidden_tiles_change_nothing,
    computers_play,
    crafted,
    one_against,
    play_chain,
    seats,
    tile,
)

PRESETS = ["donkey", "telephone", "muggins"]
GAMES = {Level.EASY: 24, Level.NORMAL: 24, Level.HARD: 3}


@pytest.mark.parametrize("level", list(Level))
@pytest.mark.parametrize("preset", PRESETS)
def test_every_level_plays_whole_spinner_games_legally(preset: str, level: Level) -> None:
    for game in range(GAMES[level]):
        players = 2 + game % 3
        rules = parse_rules(preset, players=players)
        levels = one_against(level, players, game % players)
        assert computers_play(rules, levels, seed=100 * game + players).outcome is not None


@pytest.mark.parametrize("preset", PRESETS)
def test_hidden_tiles_do_not_change_the_move(preset: str) -> None:
    """Two states that differ only in what the seat cannot see give the same move."""
    check_hidden_tiles_change_nothing(parse_rules(preset, players=3), checks=8)


def normal(state: GameState) -> Move:
    return choose(seat_view(state, state.to_move), Level.NORMAL, random.Random(0))


def test_normal_takes_the_points_on_the_table() -> None:
    """Ends 3 and 4: 1-3 on the 3 makes 1 + 4 = 5, a point; the others make none."""
    rules = parse_rules("telephone", players=2)
    state = crafted(rules, [["1-3", "0-4", "2-6", "0-0"], ["3-4", "6-6", "5-6"]], to_move=1)
    state, _ = play_chain(state, [("3-4", 0)])
    _, events = apply(state, normal(state))
    assert any(isinstance(e, Scored) and e.seat == 0 for e in events)


def test_normal_does_not_leave_the_next_player_an_easy_five() -> None:
    """Ends 3 and 5: 3-4 leaves 4 + 5 = 9, which 4-5 or 5-6 (unseen) makes 10; 1-5 leaves
    3 + 1 = 4, which no unseen tile makes a multiple of 5. Normal sheds the lighter tile."""
    rules = parse_rules("telephone", players=2)
    state = crafted(rules, [["1-2", "1-5", "3-4"], ["3-5", "0-1", "0-2", "0-3"]], to_move=1)
    state, _ = play_chain(state, [("3-5", 0)])
    assert normal(state) == Play(tile(rules, "1-5"), 1)


def test_normal_closes_both_ends_when_the_fish_goes_to_the_heavier_hand() -> None:
    """Осёл: 3-3 and 5-5 face down on a 3-5 line end the round as a fish, and the other
    hand, far heavier, takes it."""
    rules = parse_rules("donkey", players=2)
    light = ["3-3", "5-5", "0-1", "0-2", "1-2", "0-0"]
    heavy = ["3-5", "4-6", "5-6", "6-6", "4-5", "4-4", "3-6"]
    state = crafted(rules, [light, heavy], to_move=1)
    state, _ = play_chain(state, [("3-5", 0)])
    move = normal(state)
    assert isinstance(move, PlayDoubles) and move.closed == (True, True)
    after, _ = apply(state, move)
    assert after.last_round is not None and after.last_round.reason == "fish"
    assert next(r for r in after.last_round.results if r.seat == 1).round_points > 0


@pytest.mark.parametrize("preset", ["telephone", "muggins"])
def test_hard_counts_a_race_won_as_a_win_and_points_as_good(preset: str) -> None:
    """Race games have no goats: first place is the win, and more points are better."""
    rules = parse_rules(preset, players=2)
    state, _ = new_game(rules, seats(2), seed=4)
    rng = random.Random(4)
    while state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.ROUND_OVER:
            state, _ = next_round(state)
            continue
        state, _ = apply(state, choose(seat_view(state, state.to_move), Level.NORMAL, rng))
    assert state.outcome is not None
    winner = next(p.side for p in state.outcome.places if p.place == 1)
    assert outcome_value(rules, winner, state) > RACE_GAME / 2
    assert outcome_value(rules, 1 - winner, state) < -RACE_GAME / 2
    ahead = state._replace(outcome=None, next_leader=None)
    assert outcome_value(rules, winner, ahead) > 0 > outcome_value(rules, 1 - winner, ahead)


@pytest.mark.parametrize("preset", PRESETS)
def test_normal_sees_a_line_before_its_spinner_close_into_a_fish(preset: str) -> None:
    """Ends 3 and 4, no double down, every plain 4 but 3-4 down (docs/RULES.md §1.6): 3-4 on
    the 3 closes the line into a fish, where this hand of 6-6 and 5-5 is the heavier —
    normal plays it on the 4 instead."""
    rules = parse_rules(preset, players=2)
    heavy = ["1-4", "0-1", "0-4", "4-6", "3-4", "6-6", "5-5"]
    light = ["4-5", "5-6", "2-4", "2-3", "0-0", "1-2", "0-2"]
    state = crafted(rules, [heavy, light])
    line = [("1-4", 0), ("4-5", 1), ("0-1", 0), ("5-6", 1), ("0-4", 0), ("2-4", 0)]
    state, _ = play_chain(state, [*line, ("4-6", 1), ("2-3", 0)])
    assert state.ends == (3, 4) and state.to_move == 0
    closing = Play(tile(rules, "3-4"), 0)
    after, _ = apply(state, closing)
    assert after.last_round is not None and after.last_round.reason == "fish"
    assert normal(state) == Play(tile(rules, "3-4"), 1)
