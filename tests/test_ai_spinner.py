"""Computer players on the spinner tables (Осёл, Телефон, Muggins, RULES §5–§7): every
level plays whole games legally from its seat's view, and the normal level scores, blocks
and closes doubles where it should."""

from __future__ import annotations

import random

import pytest

from bot.ai import Level, choose
from bot.ai.knowledge import infer
from bot.ai.sampling import sample_deal
from bot.game import Phase, apply, legal_moves, new_game, next_round, parse_rules, seat_view
from bot.game.rules import RuleSet
from tests.helpers import seats

PRESETS = ["donkey", "telephone", "muggins"]
GAMES = {Level.EASY: 24, Level.NORMAL: 24, Level.HARD: 3}


def play_game(rules: RuleSet, levels: list[Level], seed: int) -> int:
    """Play one game to its end, checking every move; the number of moves made."""
    rng = random.Random(seed)
    state, _ = new_game(rules, seats(rules.players), seed)
    made = 0
    while state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.ROUND_OVER:
            state, _ = next_round(state)
            continue
        seat = state.to_move
        move = choose(seat_view(state, seat), levels[seat], rng, samples=1)
        assert move in legal_moves(state)
        state, _ = apply(state, move)
        made += 1
        assert made < 5_000, "the game does not end"
    assert state.outcome is not None
    return made


@pytest.mark.parametrize("level", list(Level))
@pytest.mark.parametrize("preset", PRESETS)
def test_every_level_plays_whole_spinner_games_legally(preset: str, level: Level) -> None:
    for game in range(GAMES[level]):
        players = 2 + game % 3
        rules = parse_rules(preset, players=players)
        others = Level.NORMAL if level is Level.HARD else level
        levels = [level if seat == game % players else others for seat in range(players)]
        assert play_game(rules, levels, seed=100 * game + players)


@pytest.mark.parametrize("preset", PRESETS)
def test_hidden_tiles_do_not_change_the_move(preset: str) -> None:
    """Two states that differ only in what the seat cannot see give the same move."""
    rules = parse_rules(preset, players=3)
    rng = random.Random(2)
    state, _ = new_game(rules, seats(3), seed=7)
    checked = 0
    while state.phase is Phase.PLAYING and checked < 8:
        seat = state.to_move
        view = seat_view(state, seat)
        hands, bazaar = sample_deal(view, infer(view), random.Random(checked))
        other = state._replace(hands=hands, bazaar=bazaar)
        assert seat_view(other, seat) == view
        for level in Level:
            moves = [
                choose(seat_view(s, seat), level, random.Random(9), samples=3)
                for s in (state, other)
            ]
            assert moves[0] == moves[1]
        checked += 1
        state, _ = apply(state, rng.choice(legal_moves(state)))
