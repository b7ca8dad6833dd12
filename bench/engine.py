"""Random legal rounds of a preset (Козёл by default) through the engine's public API, on
one core.

    python bench/engine.py --players 4 --seconds 5 --seed 1 [--preset telephone]

It measures the installed engine: plain Python after `pip install -e .`, the mypyc build
after `KOZEL_COMPILE=1 pip install .` (the last line says which).

Prints progress lines, then as its last line JSON
`{"rounds_per_s": …, "moves_per_s": …, "players": …, "preset": …, "compiled": …}`.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from bot.game import engine
from bot.game.engine import apply, legal_moves, new_game, next_round
from bot.game.rules import parse_rules
from bot.game.state import Phase


def play(players: int, seconds: float, seed: int, preset: str = "goat") -> dict[str, object]:
    rules = parse_rules(preset, players=players)
    seats = [f"seat{i}" for i in range(players)]
    chooser = random.Random(seed)
    games = seed * 1_000_000
    state, _ = new_game(rules, seats, games)
    rounds = moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        if state.phase is Phase.PLAYING:
            options = legal_moves(state)
            state, _ = apply(state, options[int(chooser.random() * len(options))])
            moves += 1
            continue
        rounds += 1
        if rounds % 256 == 0 and time.perf_counter() >= deadline:
            break
        if state.phase is Phase.GAME_OVER:
            games += 1
            state, _ = new_game(rules, seats, games)
        else:
            state, _ = next_round(state)
    elapsed = time.perf_counter() - start
    return {
        "rounds_per_s": round(rounds / elapsed),
        "moves_per_s": round(moves / elapsed),
        "us_per_round": round(elapsed / rounds * 1e6, 1),
        "players": players,
        "preset": preset,
        "compiled": not engine.__file__.endswith(".py"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="goat")
    args = parser.parse_args()
    result = play(args.players, args.seconds, args.seed, args.preset)
    print(f"engine: {engine.__file__}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
