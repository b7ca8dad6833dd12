"""How true the hard level's sampled worlds are: at positions of normal-level games, the
chance the worlds give each unseen tile to be in each other hand, against where it is.

    python bench/worlds.py --worlds 64 --games 6

For `room` (6 players, double-9) and `goat` (4 players), with the worlds weighted by the
other seats' plays (`bot.ai.inference`) and unweighted: the calibration in ten bins
(`predicted` is the bins' average chance, `actual` how often the tile was there; a true
world sampler has them equal), the weighted mean gap between the two, and the effective
number of worlds (Kish's (Σw)²/Σw², median and 10th percentile). Prints JSON last.
"""

from __future__ import annotations

import argparse
import json
import random

from bot.ai import Level, choose
from bot.ai.inference import likelihood
from bot.ai.knowledge import infer
from bot.ai.sampling import sample_deal
from bot.game import GameState, Phase, apply, new_game, next_round, parse_rules, seat_view

BINS = 10
EVERY = 7  # look at every 7th position with some history
HISTORY = 8


class Calibration:
    """Per bin: the summed predictions, the tiles that were there, the count."""

    def __init__(self, weighted: bool) -> None:
        self.weighted = weighted
        self.bins = [[0.0, 0, 0] for _ in range(BINS)]
        self.ess: list[float] = []

    def add(self, state: GameState, worlds: int, rng: random.Random) -> None:
        seat = state.to_move
        view = seat_view(state, seat)
        know = infer(view)
        size = state.rules.tiles.size
        counts = [[0.0] * size for _ in state.hands]
        total = total_sq = 0.0
        for _ in range(worlds):
            hands, _bazaar = sample_deal(view, know, rng)
            w = likelihood(view, hands) if self.weighted else 1.0
            total += w
            total_sq += w * w
            for s, hand in enumerate(hands):
                for t in range(size):
                    if hand >> t & 1:
                        counts[s][t] += w
        self.ess.append(total * total / total_sq)
        for s in range(len(state.hands)):
            for t in range(size):
                if s != seat and know.unseen >> t & 1:
                    p = counts[s][t] / total
                    row = self.bins[min(BINS - 1, int(p * BINS))]
                    row[0] += p
                    row[1] += state.hands[s] >> t & 1
                    row[2] += 1

    def summary(self) -> dict[str, object]:
        rows = [
            {"predicted": round(p / n, 3), "actual": round(a / n, 3), "count": n}
            for p, a, n in self.bins
            if n
        ]
        seen = sum(int(r["count"]) for r in rows)
        gap = sum(abs(r["predicted"] - r["actual"]) * int(r["count"]) for r in rows) / seen
        ess = sorted(self.ess)
        return {
            "mean_gap": round(gap, 4),
            "ess_median": round(ess[len(ess) // 2], 1),
            "ess_p10": round(ess[len(ess) // 10], 1),
            "bins": rows,
        }


def measure(preset: str, players: int, games: int, worlds: int) -> dict[str, Calibration]:
    """Both samplers at the same positions of `games` normal-level games."""
    rules = parse_rules(preset, players=players)
    samplers = {"weighted": Calibration(True), "unweighted": Calibration(False)}
    for game in range(games):
        rng = random.Random(game)
        state, _ = new_game(rules, [f"p{s}" for s in range(players)], game)
        moves = 0
        while state.phase is not Phase.GAME_OVER:
            if state.phase is Phase.ROUND_OVER:
                state, _ = next_round(state)
                continue
            if moves % EVERY == 0 and len(state.history) > HISTORY:
                for calibration in samplers.values():
                    calibration.add(state, worlds, random.Random(moves))
            view = seat_view(state, state.to_move)
            state, _ = apply(state, choose(view, Level.NORMAL, rng))
            moves += 1
    return samplers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worlds", type=int, default=64)
    parser.add_argument("--games", type=int, default=6)
    args = parser.parse_args()
    out = {}
    for preset, players in (("room", 6), ("goat", 4)):
        samplers = measure(preset, players, args.games, args.worlds)
        summaries = {name: c.summary() for name, c in samplers.items()}
        print(preset, {name: s["mean_gap"] for name, s in summaries.items()}, flush=True)
        out[preset] = summaries
    print(json.dumps(out))


if __name__ == "__main__":
    main()
