"""A round's replay as an animated GIF (`bot.ui.replays.round_replay`): the CPU time and the
bytes of a long Козёл round and of the biggest table, a 10-player double-twelve room.

    python bench/replay.py [--runs 3] [--search 400] [--room-search 20]

Each round is the first of a game played by random legal moves (the same seeds, so the same
rounds, every time). Козёл: the first of seeds 0 … `--search` whose round has exactly
`--moves` moves (28), else the fewest above, else the most (four players hold all 28 tiles,
knocks are not moves: a round has at most 7 + 3 × 6 = 25). The room: the longest first
round of seeds 0 … `--room-search`. Each replay is made `--runs` times, the first with the
pictures' caches cold as a fresh bot has them; CPU time is `time.process_time`.

Prints a line per run, then as its last line JSON: for `goat` and `room`, the `seed`,
`moves`, `frames`, the GIF's `width`, `height` and `bytes`, `cpu_s` (the median run) and
`cpu_s_runs`, the targets and `met` (every run within the CPU target, the bytes within
theirs); `met` at the top says both are.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

# this folder has a render.py of its own: look the packages up from the repo root
sys.path[0] = str(Path(__file__).resolve().parents[1])

from bot.game import record as records  # noqa: E402
from bot.game import serial  # noqa: E402
from bot.game.engine import legal_moves, new_game  # noqa: E402
from bot.game.record import Seat, Stamped  # noqa: E402
from bot.game.rules import RuleSet  # noqa: E402
from bot.game.state import Phase  # noqa: E402
from bot.game.typed import parse_rules  # noqa: E402
from bot.ui.i18n import texts_for  # noqa: E402
from bot.ui.replays import round_replay  # noqa: E402

NAMES = (
    "Маша",
    "Серёжа",
    "Alexander the Great",
    "Оля",
    "Дядя Ваня",
    "Nick",
    "Екатерина Петровна",
    "Гоша",
    "Lena 🌸",
    "Тимофей",
)
TARGETS = {"goat": (3.0, 1_000_000), "room": (10.0, 5_000_000)}
"""CPU seconds and bytes a replay may take."""


def first_round(rules: RuleSet, seed: int) -> dict[str, Any]:
    """The record of a game whose first round was played by random legal moves."""
    state = new_game(rules, [str(s) for s in range(rules.players)], seed)[0]
    chooser = random.Random(seed)
    log = []
    while state.phase is Phase.PLAYING:
        moves = legal_moves(state)
        entry = serial.encode(moves[chooser.randrange(len(moves))])
        state = serial.step(state, entry)
        log.append(Stamped(entry))
    seats = [Seat(NAMES[i], "normal" if i % 3 == 2 else None) for i in range(rules.players)]
    return records.build(rules, seats, seed, log, records.Played(seed))


def moves_of(record: dict[str, Any]) -> int:
    return len(record["rounds"][0]["moves"])


def goat_round(moves: int, search: int) -> tuple[int, dict[str, Any]]:
    """The first seed whose round has exactly `moves` moves, else the fewest above, else
    the most."""
    rules = parse_rules("goat", players=4)
    found = [(seed, first_round(rules, seed)) for seed in range(search)]
    exact = [f for f in found if moves_of(f[1]) == moves]
    above = sorted((f for f in found if moves_of(f[1]) > moves), key=lambda f: moves_of(f[1]))
    return (exact or above or [max(found, key=lambda f: moves_of(f[1]))])[0]


def room_round(search: int) -> tuple[int, dict[str, Any]]:
    """The longest first round of a 10-player double-twelve room among `search` seeds."""
    rules = parse_rules("room max_pip=12", players=10)
    return max(((s, first_round(rules, s)) for s in range(search)), key=lambda f: moves_of(f[1]))


def measure(name: str, seed: int, record: dict[str, Any], runs: int) -> dict[str, Any]:
    t = texts_for("ru")
    times = []
    for run in range(runs):
        start = time.process_time()
        animation = round_replay(t, record, 1)
        times.append(time.process_time() - start)
        print(f"{name} run {run + 1}: {times[-1]:.2f} s CPU, {len(animation.data)} bytes")
    cpu_target, bytes_target = TARGETS[name]
    return {
        "seed": seed,
        "moves": moves_of(record),
        "frames": animation.frames,
        "width": animation.width,
        "height": animation.height,
        "bytes": len(animation.data),
        "cpu_s": round(statistics.median(times), 3),
        "cpu_s_runs": [round(s, 3) for s in times],
        "cpu_target_s": cpu_target,
        "bytes_target": bytes_target,
        "met": max(times) <= cpu_target and len(animation.data) <= bytes_target,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--moves", type=int, default=28, help="the Козёл round's moves")
    parser.add_argument("--search", type=int, default=400, help="Козёл seeds to look through")
    parser.add_argument("--room-search", type=int, default=20, help="room seeds to look through")
    args = parser.parse_args()
    seed, record = goat_round(args.moves, args.search)
    if moves_of(record) != args.moves:
        print(f"no Козёл round of {args.moves} moves in {args.search} seeds: {moves_of(record)}")
    report = {"goat": measure("goat", seed, record, args.runs)}
    seed, record = room_round(args.room_search)
    report["room"] = measure("room", seed, record, args.runs)
    print(json.dumps({**report, "met": all(r["met"] for r in report.values())}))


if __name__ == "__main__":
    main()
