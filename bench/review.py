"""«Разбор»: the CPU a person's review of a finished game takes, per preset.

    python bench/review.py [--presets goat,telephone,room] [--games 2] [--seed 1]

Plays `--games` random games of each preset to their end (random legal moves, as the
record's property test does), builds each game's record and reviews seat 0's moves with
`bot.ai.review.review` (`WORLDS` worlds a decision, within `BUDGET_S` CPU seconds). Prints a
line per game, then JSON as its last line: per preset the mean and the most CPU seconds a
review took, the decisions looked at of those there were, and the slips found.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path[0] = str(Path(__file__).resolve().parents[1])  # the repository, not bench/

from bot.ai.review import BUDGET_S, WORLDS, review  # noqa: E402
from bot.game import serial  # noqa: E402
from bot.game.engine import legal_moves, new_game  # noqa: E402
from bot.game.record import Played, Seat, Stamped, build  # noqa: E402
from bot.game.rules import RuleSet  # noqa: E402
from bot.game.state import Phase  # noqa: E402
from bot.game.typed import parse_rules  # noqa: E402

TABLES = {"sea_goat": 2, "telephone": 3, "muggins": 2, "fives_threes": 2, "room": 6, "bykovo": 6}
MOST_ENTRIES = 3000


def played_game(rules: RuleSet, seed: int) -> dict[str, Any]:
    """A random game to its end, as its record."""
    chooser = random.Random(seed)
    state = new_game(rules, [str(s) for s in range(rules.players)], seed)[0]
    log: list[Stamped] = []
    while state.phase is not Phase.GAME_OVER and len(log) < MOST_ENTRIES:
        if state.phase is Phase.ROUND_OVER:
            entry = (
                serial.TIME_UP if rules.format.timed and state.round_no >= 4 else serial.NEXT_ROUND
            )
        else:
            moves = legal_moves(state)
            entry = serial.encode(moves[chooser.randrange(len(moves))])
        state = serial.step(state, entry)
        log.append(Stamped(entry))
    seats = [Seat(f"seat {s}") for s in range(rules.players)]
    return build(rules, seats, seed, log, Played(seed))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--presets", default="goat,telephone,fives_threes,room,bykovo")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    results: dict[str, Any] = {}
    for preset in args.presets.split(","):
        rules = parse_rules(preset, players=TABLES.get(preset, 4))
        cpu, looked, decisions, slips = [], 0, 0, 0
        for game in range(args.games):
            record = played_game(rules, args.seed * 1000 + game)
            found = review(record, 0, seed=game)
            cpu.append(found.cpu_s)
            looked += found.looked
            decisions += found.decisions
            slips += len(found.slips)
            print(
                f"{preset} game {game}: {len(record['rounds'])} rounds, "
                f"{found.looked}/{found.decisions} decisions, {len(found.slips)} slips, "
                f"{found.cpu_s:.2f} s CPU",
                file=sys.stderr,
            )
        results[preset] = {
            "cpu_s_mean": round(sum(cpu) / len(cpu), 2),
            "cpu_s_most": round(max(cpu), 2),
            "decisions_looked": looked,
            "decisions": decisions,
            "slips": slips,
        }
    print(json.dumps({"worlds": WORLDS, "budget_s": BUDGET_S, "presets": results}))


if __name__ == "__main__":
    main()
