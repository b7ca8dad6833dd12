"""An upgrade to the formats loses no game of any format: the version before them stores a
game of every preset mid-round, a finished game of every preset and the hand buttons it
showed; today's version loads the games and finishes them, replays the finished logs to
their stored results, and takes the old buttons as the same moves."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from typing import Any

import pytest

from bot.game import Phase, apply, legal_moves, next_round
from bot.game.choosing import meaning
from bot.game.engine import time_up
from bot.game.rules import RuleSet
from bot.game.serial import move_from_json, replay, state_from_json
from bot.game.state import GameState
from bot.telegram.buttons import MoveButton, choice_of
from tests.e2e.process import previous_version

PREVIOUS = "41ff36d"
"""The last commit before the formats (`bot/game/formats/`)."""
PLAYERS = {
    "goat": 3,
    "goat_teams": 4,
    "donkey": 3,
    "sea_goat": 2,
    "classic": 3,
    "room": 5,
    "telephone": 3,
    "muggins": 2,
    "bykovo": 5,
    "general": 6,
}
"""Every preset of the previous version, with a number of players it seats."""

STORE = r"""
import json, random, sys
from bot.game import apply, legal_moves, new_game, next_round, parse_rules
from bot.game.engine import time_up
from bot.game.moves import Play, Draw, Pass
from bot.game.serial import NEXT_ROUND, TIME_UP, encode, state_to_json
from bot.game.state import Phase
from bot.telegram.buttons import move_button

def play(rules, seed, stop):
    seats = [str(100 + s) for s in range(rules.players)]
    state = new_game(rules, seats, seed)[0]
    log, rng, moves = [], random.Random(seed), 0
    while state.phase is not Phase.GAME_OVER and not stop(state, moves):
        if state.phase is Phase.ROUND_OVER:
            if rules.minutes and rules.preset == "general" and state.round_no >= 3:
                state, entry = time_up(state)[0], TIME_UP
            else:
                state, entry = next_round(state)[0], NEXT_ROUND
        else:
            move = rng.choice(legal_moves(state))
            state, entry = apply(state, move)[0], encode(move)
            moves += 1
        log.append(entry)
    return seats, log, state

out = {}
for name, players in json.loads(sys.argv[1]).items():
    rules = parse_rules(name, players=players)
    mid = lambda s, m: s.round_no == 2 and s.phase is Phase.PLAYING and s.history and m % 5 == 0
    seats, log, state = play(rules, 7, mid)
    buttons = [
        [move_button(1, 9, move).pack(), encode(move)]
        for move in legal_moves(state)
        if isinstance(move, (Draw, Pass)) or (isinstance(move, Play) and not move.closed)
    ]
    _, finished_log, finished = play(rules, 8, lambda s, m: False)
    out[name] = {
        "rules": rules.options(),
        "seats": seats,
        "log": log,
        "state": state_to_json(state),
        "buttons": buttons,
        "finished_log": finished_log,
        "finished": state_to_json(finished),
    }
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What the previous version stored, by preset."""
    folder = previous_version(PREVIOUS, tmp_path_factory.mktemp("previous"))
    env = {**os.environ, "PYTHONPATH": str(folder)}
    done = subprocess.run(
        [sys.executable, "-c", STORE, json.dumps(PLAYERS)],
        cwd=folder,
        env=env,
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def finish(state: GameState, seed: int) -> GameState:
    """Play the game to its end with random legal moves («Генерал»: its time runs out)."""
    rng = random.Random(seed)
    for _ in range(20_000):
        if state.phase is Phase.GAME_OVER:
            return state
        if state.phase is Phase.ROUND_OVER:
            timed = state.rules.format.timed and state.round_no >= 4
            state = time_up(state)[0] if timed else next_round(state)[0]
        else:
            state = apply(state, rng.choice(legal_moves(state)))[0]
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("preset", list(PLAYERS))
def test_a_game_stored_mid_round_loads_takes_the_old_buttons_and_finishes(
    stored: dict[str, Any], preset: str
) -> None:
    old = stored[preset]
    state = state_from_json(old["state"])
    assert state.phase is Phase.PLAYING and state.round_no == 2
    rules = RuleSet.from_options(old["rules"])
    assert replay(rules, old["seats"], 7, old["log"]) == state
    for data, move in old["buttons"]:
        assert meaning(state, choice_of(MoveButton.unpack(data))) == move_from_json(move), data
    assert old["buttons"], "the seat to move had buttons"
    end = finish(state, seed=3)
    assert end.outcome is not None and len(end.outcome.places) == rules.players


@pytest.mark.parametrize("preset", list(PLAYERS))
def test_a_finished_game_s_log_replays_to_its_stored_result(
    stored: dict[str, Any], preset: str
) -> None:
    old = stored[preset]
    final = state_from_json(old["finished"])
    again = replay(RuleSet.from_options(old["rules"]), old["seats"], 8, old["finished_log"])
    assert final.phase is Phase.GAME_OVER and final.outcome is not None
    assert again.outcome == final.outcome
    assert again.tally == final.tally
    assert again == final
