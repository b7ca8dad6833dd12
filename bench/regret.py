"""The computers' decisions judged against the true deal: a low-noise measure of how much
better the hard level chooses than the normal one, where a win rate needs thousands of games.

    python bench/regret.py --preset fives_threes --players 2 --games 60 --budgets 0.1,0.3

Positions come from normal-against-normal games of the preset (every decision with more
than one candidate). Each candidate of a position is valued in the **true** deal: played,
then the round finished with the normal heuristic for every seat and judged as the hard
level judges a round (`bot.ai.search.outcome_value`). A level's regret at a position is the
best candidate's value less the value of the move it chose (0: it chose as a player who saw
every hand would). Reports each level's mean regret, and per hard budget its paired
difference from normal on the same positions (negative: hard chose better), how often the
two chose differently, and how often each was the better where they did. Budgets side by
side show whether more thinking changes the choice.

Prints progress lines, then the JSON as its last line.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import NamedTuple

from bot.ai import Level, choose
from bot.ai.knowledge import infer
from bot.ai.search import candidates, outcome_value, rollout, track_voids
from bot.game import GameState, Move, Phase, apply, new_game, next_round, parse_rules, seat_view

Values = dict[Move, float]
POSITIONS: list[tuple[GameState, Values]] = []  # filled before the workers fork


class Job(NamedTuple):
    position: int
    level: Level
    budget_s: float | None


def positions(preset: str, players: int, games: int, seed: int) -> list[GameState]:
    """Every decision with more than one candidate in normal-against-normal games."""
    rules = parse_rules(preset, players=players)
    found: list[GameState] = []
    for game in range(games):
        deal = seed * 1_000_003 + game
        state, _ = new_game(rules, [str(s) for s in range(players)], deal)
        rng = random.Random(deal)
        while state.phase is not Phase.GAME_OVER:
            if state.phase is Phase.ROUND_OVER:
                state, _ = next_round(state)
                continue
            view = seat_view(state, state.to_move)
            if len(candidates(view)) > 1:
                found.append(state)
            state, _ = apply(state, choose(view, Level.NORMAL, rng))
    return found


def true_value(state: GameState, move: Move) -> float:
    """The move's value in the true deal, the round finished by the normal heuristic."""
    view = seat_view(state, state.to_move)
    seen = list(infer(view).voids())
    after, events = apply(state, move)
    track_voids(seen, events)
    return outcome_value(state.rules, state.rules.side_of(view.seat), rollout(after, seen))


def true_values(state: GameState) -> Values:
    return {move: true_value(state, move) for move in candidates(seat_view(state, state.to_move))}


def regret(job: Job) -> float:
    state, values = POSITIONS[job.position]
    view = seat_view(state, state.to_move)
    move = choose(view, job.level, random.Random(job.position), budget_s=job.budget_s)
    chosen = values[move] if move in values else true_value(state, move)  # normal's duplicate
    return max(values.values()) - chosen


def paired(hard: list[float], normal: list[float]) -> dict[str, object]:
    diffs = [h - n for h, n in zip(hard, normal, strict=True)]
    differ = [d for d in diffs if d]
    mean = statistics.mean(diffs)
    error = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
    return {
        "mean_regret": round(statistics.mean(hard), 3),
        "vs_normal": round(mean, 3),
        "ci95": [round(mean - error, 3), round(mean + error, 3)],
        "chose_differently": len(differ),
        "hard_better": sum(d < 0 for d in differ),
        "normal_better": sum(d > 0 for d in differ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="fives_threes")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--budgets", default="0.1,0.3", help="hard level's seconds per move")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    start = time.perf_counter()
    states = positions(args.preset, args.players, args.games, args.seed)
    POSITIONS.extend((s, true_values(s)) for s in states)
    print(f"{len(POSITIONS)} positions, {time.perf_counter() - start:.0f} s", flush=True)
    budgets = [float(b) for b in args.budgets.split(",")]
    runs: dict[str, list[float]] = {}
    with ProcessPoolExecutor(args.workers) as pool:
        for level, budget in [(Level.NORMAL, None), *((Level.HARD, b) for b in budgets)]:
            jobs = [Job(i, level, budget) for i in range(len(POSITIONS))]
            name = level.value if budget is None else f"{level.value}@{budget}"
            runs[name] = list(pool.map(regret, jobs, chunksize=8))
            print(f"{name}: {statistics.mean(runs[name]):.3f}", flush=True)
    normal = runs.pop(Level.NORMAL.value)
    report = {
        "preset": args.preset,
        "players": args.players,
        "positions": len(POSITIONS),
        "normal_mean_regret": round(statistics.mean(normal), 3),
        "hard": {name: paired(values, normal) for name, values in runs.items()},
        "seconds": round(time.perf_counter() - start),
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
