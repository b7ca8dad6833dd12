"""Random legal rounds of a preset (Козёл by default) through the engine's public API, on
one core.

    python bench/engine.py --players 4 --seconds 5 --seed 1 [--preset telephone]
    python bench/engine.py --preset all            # every preset, time per move beside Козёл's
    python bench/engine.py --compare               # abw333/dominoes' own loop, interleaved
    python bench/engine.py --preset all --compare  # every preset and abw333's loop, in turns

It measures the installed engine: plain Python after `pip install -e .`, the mypyc build
after `KOZEL_COMPILE=1 pip install .` (the last line says which).

`--compare` needs abw333's `dominoes` 6.1.0 (`pip install -e '.[bench]'`): its loop is
`Game.new()`, then a random move of `valid_moves` until `result`. One abw333 `Game` is one
hand, so it is compared with our rounds. The two loops take turns in `--slice`-second
slices until each has had `--seconds`, so a busy machine slows both alike; the ratio is
ours over abw333's. Every loop first runs `--warmup` seconds untimed (1 by default), as in a
bot that has been up a while.

Prints progress lines, then as its last line JSON
`{"rounds_per_s": …, "moves_per_s": …, "players": …, "preset": …, "compiled": …}` (with
`--compare`, also `abw333_games_per_s` and `ratio`; with `--preset all`, one such record
per preset under `presets`, each with its `move_vs_goat`, and with `--compare` its `ratio`
and abw333's figures under `abw333`).
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import time
from typing import Any, Protocol

from bot.game import engine
from bot.game.engine import apply, legal_moves, new_game, next_round
from bot.game.rules import PRESETS
from bot.game.state import Phase
from bot.game.typed import parse_rules

COMPILED = not engine.__file__.endswith(".py")
TABLES = {"sea_goat": 2, "telephone": 2, "muggins": 2, "fives_threes": 2, "room": 6}


class Loop(Protocol):
    rounds: int
    moves: int
    elapsed: float

    def run(self, seconds: float) -> None: ...


class Ours:
    """Random legal rounds of a preset; a finished game starts the next one."""

    def __init__(self, preset: str, players: int, seed: int) -> None:
        self.rules = parse_rules(preset, players=players)
        self.seats = [f"seat{i}" for i in range(players)]
        self.chooser = random.Random(seed)
        self.games = seed * 1_000_000
        self.state, _ = new_game(self.rules, self.seats, self.games)
        self.rounds = self.moves = 0
        self.elapsed = 0.0

    def run(self, seconds: float) -> None:
        state, chooser = self.state, self.chooser
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            if state.phase is Phase.PLAYING:
                options = legal_moves(state)
                state, _ = apply(state, options[int(chooser.random() * len(options))])
                self.moves += 1
                continue
            self.rounds += 1
            if self.rounds % 64 == 0 and time.perf_counter() >= deadline:
                break
            if state.phase is Phase.GAME_OVER:
                self.games += 1
                state, _ = new_game(self.rules, self.seats, self.games)
            else:
                state, _ = next_round(state)
        self.state = state
        self.elapsed += time.perf_counter() - start


class Abw333:
    """abw333/dominoes' own loop: one `Game` is one hand, random valid moves to its end."""

    def __init__(self, seed: int) -> None:
        try:
            dominoes = importlib.import_module("dominoes")  # optional: the `bench` extra
        except ImportError as error:
            raise SystemExit("--compare needs abw333's dominoes: pip install '.[bench]'") from error
        self.game_class: Any = dominoes.Game
        self.chooser = random.Random(seed)
        self.rounds = self.moves = 0
        self.elapsed = 0.0

    def run(self, seconds: float) -> None:
        new, chooser = self.game_class.new, self.chooser
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            game = new()
            while game.result is None:
                options = game.valid_moves
                game.make_move(*options[int(chooser.random() * len(options))])
                self.moves += 1
            self.rounds += 1
            if self.rounds % 64 == 0 and time.perf_counter() >= deadline:
                break
        self.elapsed += time.perf_counter() - start


def warm(loops: list[Loop], seconds: float) -> None:
    """Run each loop `seconds` untimed first, as a bot that has been up a while runs: the
    engine's caches (the plays at each set of open ends) filled, abw333's code warm too."""
    for loop in loops:
        loop.run(seconds)
        loop.rounds = loop.moves = 0
        loop.elapsed = 0.0


def interleave(loops: list[Loop], seconds: float, slice_s: float) -> None:
    """Run the loops in turn, a slice each, until every one has had `seconds`."""
    while any(loop.elapsed < seconds for loop in loops):
        for loop in loops:
            if loop.elapsed < seconds:
                loop.run(min(slice_s, seconds - loop.elapsed))


def per_second(loop: Loop) -> float:
    return loop.rounds / loop.elapsed


def us_per_move(loop: Loop) -> float:
    return loop.elapsed / loop.moves * 1e6


def report(loop: Ours, preset: str) -> dict[str, object]:
    return {
        "rounds_per_s": round(per_second(loop)),
        "moves_per_s": round(loop.moves / loop.elapsed),
        "us_per_move": round(us_per_move(loop), 2),
        "players": len(loop.seats),
        "preset": preset,
        "compiled": COMPILED,
    }


def every_preset(
    players: int, seconds: float, seed: int, slice_s: float, warmup: float, compare: bool
) -> dict[str, object]:
    """Every preset's rounds in one interleaved run (abw333's loop among them with
    `compare`); each move's time beside Козёл's, and each preset's rounds beside abw333's
    games."""
    loops = {name: Ours(name, TABLES.get(name, players), seed) for name in PRESETS}
    theirs = [Abw333(seed)] if compare else []
    warm([*loops.values(), *theirs], warmup)
    interleave([*loops.values(), *theirs], seconds, slice_s)
    rows = {}
    for name, loop in loops.items():
        rows[name] = report(loop, name) | {
            "move_vs_goat": round(us_per_move(loop) / us_per_move(loops["goat"]), 2)
        }
        if theirs:
            rows[name]["ratio"] = round(per_second(loop) / per_second(theirs[0]), 2)
        print(f"{name}: {us_per_move(loop):.1f} µs a move, {rows[name]['move_vs_goat']}× Козёл's")
    found: dict[str, object] = {"presets": rows, "seconds": seconds, "compiled": COMPILED}
    if theirs:
        found["abw333"] = {
            "games_per_s": round(per_second(theirs[0])),
            "us_per_move": round(us_per_move(theirs[0]), 2),
        }
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="goat", help="a preset, or `all`")
    parser.add_argument("--compare", action="store_true", help="abw333's loop beside ours")
    parser.add_argument("--slice", type=float, default=0.5, help="seconds per turn")
    parser.add_argument("--warmup", type=float, default=1.0, help="untimed seconds per loop")
    args = parser.parse_args()
    print(f"engine: {engine.__file__}")
    if args.preset == "all":
        rows = every_preset(
            args.players, args.seconds, args.seed, args.slice, args.warmup, args.compare
        )
        print(json.dumps(rows))
        return
    ours = Ours(args.preset, args.players, args.seed)
    if not args.compare:
        warm([ours], args.warmup)
        ours.run(args.seconds)
        print(json.dumps(report(ours, args.preset)))
        return
    theirs = Abw333(args.seed)
    warm([ours, theirs], args.warmup)
    interleave([ours, theirs], args.seconds, args.slice)
    ratio = per_second(ours) / per_second(theirs)
    print(f"ours {per_second(ours):.0f} rounds/s, abw333 {per_second(theirs):.0f} games/s")
    print(
        json.dumps(
            report(ours, args.preset)
            | {"abw333_games_per_s": round(per_second(theirs)), "ratio": round(ratio, 2)}
        )
    )


if __name__ == "__main__":
    main()
