"""Worlds per hard decision: how many sampled worlds the hard level searches in its time.

    python bench/decisions.py --presets goat,telephone,bykovo,room --positions 40 --samples 16

Positions come from normal-against-normal games of each preset (every third decision with
more than one candidate, up to `--positions`). Each is searched by the hard level with a
fixed number of worlds (`--samples`, so no early stop and no clock inside the search); the
worlds searched per second over all positions give the worlds a 0.3 s decision, and the
game's own budget (`bot.ai.knobs`), has time for. The same positions and worlds for every
version: to compare two, run each (`PYTHONPATH=<checkout>`) in turn, several times, on one
machine. `--warmup N` first searches N other positions untimed (from the next seed), as a bot
that has been up a while has: the race heuristic's table of replies (`races.reply_fives`)
then holds what many decisions share, and the timed ones measure the steady state.

Prints a line per preset, then the JSON as its last line:
`{"presets": {name: {"positions", "worlds_per_s", "per_0_3_s", "budget_s", "per_budget"}}}`.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from bot.ai import Level, choose
from bot.ai.knobs import KNOBS
from bot.ai.search import candidates, hard_move
from bot.game import Phase, apply, new_game, next_round, parse_rules, seat_view
from bot.game.view import SeatView

PLAYERS = {"telephone": 2, "muggins": 2, "sea_goat": 2, "fives_threes": 2, "room": 6}
EVERY = 3  # take every third decision: positions from more rounds


def positions(preset: str, count: int, seed: int) -> list[SeatView]:
    """Decisions with more than one candidate from normal-against-normal games."""
    rules = parse_rules(preset, players=PLAYERS.get(preset, 4))
    found: list[SeatView] = []
    seen = 0
    game = 0
    while len(found) < count:
        deal = seed * 1_000_003 + game
        state, _ = new_game(rules, [str(s) for s in range(rules.players)], deal)
        rng = random.Random(deal)
        while state.phase is not Phase.GAME_OVER and len(found) < count:
            if state.phase is Phase.ROUND_OVER:
                state, _ = next_round(state)
                continue
            view = seat_view(state, state.to_move)
            if len(candidates(view)) > 1:
                seen += 1
                if seen % EVERY == 0:
                    found.append(view)
            state, _ = apply(state, choose(view, Level.NORMAL, rng))
        game += 1
    return found


def measure(preset: str, count: int, samples: int, seed: int, warmup: int) -> dict[str, float]:
    for i, view in enumerate(positions(preset, warmup, seed + 1) if warmup else ()):
        hard_move(view, random.Random(i), None, samples)  # untimed: other positions
    views = positions(preset, count, seed)
    start = time.perf_counter()
    for i, view in enumerate(views):
        hard_move(view, random.Random(seed + i), None, samples)
    elapsed = time.perf_counter() - start
    rate = len(views) * samples / elapsed
    budget = KNOBS[views[0].rules.format].budget_s
    return {
        "positions": len(views),
        "worlds_per_s": round(rate),
        "per_0_3_s": round(rate * 0.3, 1),
        "budget_s": budget,
        "per_budget": round(rate * budget, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presets", default="goat,telephone,bykovo,room")
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--samples", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--warmup", type=int, default=0, help="positions searched untimed first")
    args = parser.parse_args()
    report = {}
    for preset in args.presets.split(","):
        report[preset] = measure(preset, args.positions, args.samples, args.seed, args.warmup)
        print(preset, report[preset], flush=True)
    print(json.dumps({"presets": report}))


if __name__ == "__main__":
    main()
