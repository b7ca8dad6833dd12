"""The engine's hot path (`_on_line`: a tile on a plain line) against the general one
(`_lay`): random games of every line preset, and random moves legal or not, give the same
states and events both ways — or the hot path leaves the move to the general one."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.game import IllegalMoveError, Phase, Play, legal_moves, new_game, next_round, parse_rules
from bot.game.engine import _lay, _on_line, apply
from bot.game.rules import PRESETS, RuleError
from bot.game.state import GameState

LINE_PRESETS = sorted(name for name in PRESETS if parse_rules(name).plain_line)
ROUNDS = 6


def tables(preset: str) -> list[int]:
    """The numbers of players the preset is played by."""
    rules = parse_rules(preset)
    found = []
    for players in range(rules.fewest_players, rules.most_players + 1):
        try:
            parse_rules(preset, players=players)
        except RuleError:
            continue
        found.append(players)
    return found


def both_ways(state: GameState, move: Play) -> bool:
    """Whether the hot path took `move`; if it did, it agrees with the general path."""
    fast = _on_line(state, move)
    if fast is None:
        return False
    assert fast == _lay(state, move)
    return True


def test_the_hot_path_covers_the_plain_line_presets() -> None:
    assert {"goat", "goat_teams", "sea_goat", "classic"} <= set(LINE_PRESETS)
    assert not parse_rules("telephone").plain_line  # a spinner
    assert not parse_rules("bykovo").plain_line  # the circle is finished


@pytest.mark.parametrize("preset", LINE_PRESETS)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), data=st.data())
def test_random_games_go_the_same_both_ways(preset: str, seed: int, data: st.DataObject) -> None:
    players = data.draw(st.sampled_from(tables(preset)), "players")
    rules = parse_rules(preset, players=players)
    chooser = random.Random(seed)
    state, _ = new_game(rules, [f"p{i}" for i in range(players)], seed)
    taken = 0
    for _ in range(ROUNDS):
        while state.phase is Phase.PLAYING:
            moves = legal_moves(state)
            move = moves[int(chooser.random() * len(moves))]
            if isinstance(move, Play):
                taken += both_ways(state, move)
            state, _ = apply(state, move)
        if state.phase is Phase.GAME_OVER:
            break
        state, _ = next_round(state)
    assert taken  # the hot path did play


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    moves=st.integers(1, 12),
    tile=st.integers(-2, 30),
    end=st.integers(-1, 3),
    closed=st.booleans(),
)
def test_a_move_the_hot_path_takes_is_legal_and_one_it_refuses_is_refused(
    seed: int, moves: int, tile: int, end: int, closed: bool
) -> None:
    rules = parse_rules("goat")
    chooser = random.Random(seed)
    state, _ = new_game(rules, ["a", "b", "c", "d"], seed)
    for _ in range(moves):
        if state.phase is not Phase.PLAYING:
            return
        options = legal_moves(state)
        state, _ = apply(state, options[int(chooser.random() * len(options))])
    if state.phase is not Phase.PLAYING:
        return
    move = Play(tile, end, closed)
    legal = move in legal_moves(state)
    if both_ways(state, move):
        assert legal
    elif not legal:
        with pytest.raises(IllegalMoveError):
            _lay(state, move)
