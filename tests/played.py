"""A digest of what the engine and the computers do: random games of every preset (states,
events, legal moves) and the normal and hard levels' moves in positions of them, played on
from the state as the bot stores and loads it.

`tests/test_compiled.py` runs it as a script against the mypyc build (`KOZEL_COMPILE=1`)
and compares it with the plain build's, which imports it: the two must play alike. Prints
the engine module's path (which build played), then the digest.
"""

from __future__ import annotations

import hashlib
import json
import random

from bot.ai import Level, choose
from bot.ai.search import hard_move
from bot.game import engine
from bot.game.engine import apply, legal_moves, new_game, next_round
from bot.game.rules import PRESETS
from bot.game.serial import state_from_json, state_to_json
from bot.game.state import Phase
from bot.game.typed import parse_rules
from bot.game.view import seat_view

TABLES = {"sea_goat": 2, "telephone": 3, "muggins": 2, "fives_threes": 2, "room": 6}
GAMES = 2  # per preset
MOVES = 400  # at most, per game
EVERY = 9  # a computers' position every this many moves
WORLDS = 4  # the hard level's sampled worlds per decision (no clock)


def digest() -> str:
    """The digest of `GAMES` random games of every preset and the computers' moves."""
    out = hashlib.sha256()
    for preset in sorted(PRESETS):
        rules = parse_rules(preset, players=TABLES.get(preset, 4))
        for game in range(GAMES):
            chooser = random.Random(game)
            state, events = new_game(rules, [f"p{i}" for i in range(rules.players)], game)
            for step in range(MOVES):
                if state.phase is Phase.GAME_OVER:
                    break
                if state.phase is Phase.ROUND_OVER:
                    state, events = next_round(state)
                    continue
                moves = legal_moves(state)
                out.update(repr((state, events, moves)).encode())
                if step % EVERY == 0:  # from the state as the bot stores and loads it
                    state = state_from_json(json.loads(json.dumps(state_to_json(state))))
                    view = seat_view(state, state.to_move)
                    thinking = random.Random(step)
                    computers = (
                        choose(view, Level.NORMAL, thinking),
                        hard_move(view, thinking, None, WORLDS),
                    )
                    out.update(repr(computers).encode())
                state, events = apply(state, moves[chooser.randrange(len(moves))])
    return out.hexdigest()


if __name__ == "__main__":
    print(engine.__file__)
    print(digest())
