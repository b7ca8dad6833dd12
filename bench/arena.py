"""The computer players against each other, through the same `SeatView` the bot gives them.

    python bench/arena.py --games 400 --seed 1
    python bench/arena.py --only room

* `hard_vs_normal`, `normal_vs_easy`: 4-player Козёл, one candidate against three
  opponents; each deal is played four times with the candidate in every seat. The goat
  rate is the share of games the candidate ends as a goat (a fair share is 25 %).
* `teams_hard_vs_heaviest`: 2×2 Козёл (all 28 tiles dealt), a hard pair against a
  «heaviest tile first» pair; each deal is played twice with the pairs' seats swapped. A
  round is won by the side that went out, on a fish by the side that did not take the
  points; eggs count half.
* `room`: the game room (`room`, 6 players, double-9), one hard seat against five normal
  ones; each deal is played six times with the hard seat in every seat (816 games by
  default: 136 deals, enough for the interval to tell 3.4 from 3.5). The average place
  is the hard seat's finishing place (1 best; a fair share is 3.5). Its 95 % interval is
  over the deals (mean ± 1.96·sd/√deals of each deal's average place): a deal's six places
  sum to 21 whenever hard plays as normal would, so its luck cancels, which the interval
  over single games (`ci95_games`, mean ± 1.96·sd/√games) ignores.
* `telephone_hard_vs_normal`, `telephone_normal_vs_easy`, `muggins_…`, `fives_threes_…`
  (the same two): 2-player Телефон, Muggins and Fives and Threes, each deal played twice
  with the seats swapped. The win rate is the share of games the candidate places first
  (a shared first place counts half; a fair share is 50 %).
* `donkey_hard_vs_normal`: 4-player Осёл, as `hard_vs_normal`: the goat rate of one hard
  seat against three normal ones (a fair share is 25 %).
* `bykovo_hard_vs_normal`: the Bykovo tournament (`bykovo`, 4 players), one hard seat
  against three normal ones, the hard seat in every seat of each deal. Judged by the
  round: `avg_round_place` is the hard seat's average place in a round (1–4 from
  `RoundEnded.order`, 1 best; a fair share is 2.5), `ci95` its interval over rounds and
  `ci95_games` the same with the rounds of one game clustered (they share a score sheet
  and who rests); `round_win_rate` the share of rounds it placed first.
* `general_normal_vs_blind`, `general_hard_vs_normal`: «Генерал» (`general`, 4 players,
  two teams), a match of `GENERAL_ROUNDS` rounds, then its time is up; each deal is played
  twice with the teams' seats swapped. `blind` is the normal heuristic without its
  knowledge of Generals (it sheds 0-0 and 6-6 as it sheds any double). Reports each
  team's Generals per decided round (a fish is replayed: not counted) with Wilson
  intervals, the candidate team's share of the decided rounds won and of the matches
  (placed first: by Generals, then rounds won, then lot).
* `--only telephone` (`muggins`, `fives_threes`, `donkey`, `bykovo`, `general`) plays that
  preset's matchups.
* `decision_ms_p50` / `_p95`: the time of every `choose` call per level (forced moves
  included), measured while `--workers` games run in parallel.

Games run in worker processes; 95 % intervals are Wilson's. Prints progress lines, then
the JSON as its last line.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import NamedTuple

from bot.ai import Level, choose, heaviest
from bot.ai.knowledge import infer
from bot.ai.policy import goat_scores
from bot.ai.position import best, view_position
from bot.ai.weights import DEFAULT
from bot.game import Move, Phase, SeatView, apply, new_game, next_round, parse_rules, seat_view
from bot.game.engine import time_up
from bot.game.events import RoundEnded

Player = Callable[[SeatView, random.Random], Move]
HEAVIEST = "heaviest"
BLIND = "blind"  # the normal heuristic, not knowing about Generals
BLIND_WEIGHTS = DEFAULT._replace(general=0.0)
GENERAL_ROUNDS = 12  # «Генерал»: the rounds of one match (the arena has no clock)


class Matchup(NamedTuple):
    preset: str
    players: int
    candidate: str
    opponent: str
    games: int  # by default


class Task(NamedTuple):
    matchup: str
    game: int
    seed: int
    budget_s: float | None


class Result(NamedTuple):
    matchup: str
    deal: int
    goat: bool  # the candidate (individual matchups)
    place: int  # the candidate's finishing place
    rounds: int
    rounds_won: float  # the candidate pair (teams)
    won: float  # the candidate placed first: 1, shared: 1/2 (race games)
    timings: dict[str, list[float]]
    round_places: tuple[int, ...] = ()  # Bykovo: the candidate's place in each round, 1 best
    generals: tuple[int, int] = (0, 0)  # «Генерал»: the candidate team's and the other's


MATCHUPS: dict[str, Matchup] = {
    "hard_vs_normal": Matchup("goat", 4, Level.HARD, Level.NORMAL, 100),
    "normal_vs_easy": Matchup("goat", 4, Level.NORMAL, Level.EASY, 100),
    "teams_hard_vs_heaviest": Matchup("goat_teams", 4, Level.HARD, HEAVIEST, 100),
    "room": Matchup("room", 6, Level.HARD, Level.NORMAL, 816),
    "telephone_hard_vs_normal": Matchup("telephone", 2, Level.HARD, Level.NORMAL, 200),
    "telephone_normal_vs_easy": Matchup("telephone", 2, Level.NORMAL, Level.EASY, 200),
    "muggins_hard_vs_normal": Matchup("muggins", 2, Level.HARD, Level.NORMAL, 200),
    "muggins_normal_vs_easy": Matchup("muggins", 2, Level.NORMAL, Level.EASY, 200),
    "fives_threes_hard_vs_normal": Matchup("fives_threes", 2, Level.HARD, Level.NORMAL, 200),
    "fives_threes_normal_vs_easy": Matchup("fives_threes", 2, Level.NORMAL, Level.EASY, 200),
    "donkey_hard_vs_normal": Matchup("donkey", 4, Level.HARD, Level.NORMAL, 200),
    "bykovo_hard_vs_normal": Matchup("bykovo", 4, Level.HARD, Level.NORMAL, 40),
    "general_normal_vs_blind": Matchup("general", 4, Level.NORMAL, BLIND, 200),
    "general_hard_vs_normal": Matchup("general", 4, Level.HARD, Level.NORMAL, 60),
}
GOAT_RATES = ("hard_vs_normal", "normal_vs_easy", "donkey_hard_vs_normal")
RACES = ("telephone", "muggins", "fives_threes")  # judged by the win rate
PRESET_GROUPS = {
    preset: [name for name, m in MATCHUPS.items() if m.preset == preset]
    for preset in (*RACES, "donkey", "bykovo", "general")
}


def _player(name: str, budget_s: float | None, timings: dict[str, list[float]]) -> Player:
    def play(view: SeatView, rng: random.Random) -> Move:
        if name == HEAVIEST:
            return heaviest(view)
        if name == BLIND:
            moves = view.legal_moves()
            position = view_position(view, infer(view).voids())
            return best(moves, goat_scores(position, moves, BLIND_WEIGHTS))
        start = time.perf_counter()
        move = choose(view, Level(name), rng, budget_s=budget_s)
        timings.setdefault(name, []).append(time.perf_counter() - start)
        return move

    return play


def _round_won(ended: RoundEnded, side: int) -> float:
    if ended.reason == "out":
        return float(ended.seat % 2 == side)
    takers = {r.side for r in ended.results if r.round_points > 0}
    if ended.eggs or len(takers) != 1:
        return 0.5
    return float(side not in takers)


def play_game(task: Task) -> Result:
    """One game of the matchup; the candidate's seat (or side) rotates with the index."""
    matchup = MATCHUPS[task.matchup]
    rules = parse_rules(matchup.preset, players=matchup.players)
    teams = rules.teams
    rotations = rules.sides
    deal = task.seed * 1_000_003 + task.game // rotations
    mine = task.game % rotations
    timings: dict[str, list[float]] = {}
    cand = _player(matchup.candidate, task.budget_s, timings)
    opp = _player(matchup.opponent, task.budget_s, timings)
    seats = range(rules.players)
    players = [cand if rules.side_of(seat) == mine else opp for seat in seats]
    rngs = [random.Random(f"{task.matchup}:{task.seed}:{task.game}:{s}") for s in seats]
    state, _ = new_game(rules, [f"p{s}" for s in seats], deal)
    rounds, won = 0, 0.0
    round_places: list[int] = []
    general = rules.format.timed
    while state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.ROUND_OVER:
            over = general and state.round_no >= GENERAL_ROUNDS
            state, _ = time_up(state) if over else next_round(state)
            continue
        seat = state.to_move
        state, _ = apply(state, players[seat](seat_view(state, seat), rngs[seat]))
        if state.phase is Phase.PLAYING or state.last_round is None:
            continue
        if general and state.last_round.reason != "out":
            continue  # a fish is replayed: nothing was decided
        if teams:
            rounds += 1
            won += _round_won(state.last_round, mine)
        if state.last_round.order and mine in state.last_round.order:
            round_places.append(state.last_round.order.index(mine) + 1)
    assert state.outcome is not None
    mine_place = next(p for p in state.outcome.places if p.side == mine)
    firsts = {p.side for p in state.outcome.places if p.place == 1}
    first = 1 / len(firsts) if mine in firsts else 0.0
    return Result(
        task.matchup,
        deal,
        mine_place.goat,
        mine_place.place,
        rounds,
        won,
        first,
        timings,
        tuple(round_places),
        (state.tally.scores[mine], state.tally.scores[1 - mine]) if general else (0, 0),
    )


def wilson(hits: float, n: int) -> list[float]:
    """The 95 % Wilson score interval of a proportion."""
    if n == 0:
        return [0.0, 1.0]
    z = 1.959964
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def mean_ci(values: list[float]) -> tuple[float, list[float]]:
    """The mean and its 95 % normal interval, mean ± 1.96·sd/√n."""
    n = len(values)
    if n < 2:
        return float(sum(values)), [0.0, math.inf]
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = 1.959964 * sd / math.sqrt(n)
    return round(mean, 4), [round(mean - half, 4), round(mean + half, 4)]


def clustered_ci(groups: list[list[float]]) -> list[float]:
    """The 95 % interval of the mean of all values, its variance from the groups' sums
    (values in one group may be correlated; the groups are independent)."""
    values = [v for g in groups for v in g]
    n, k = len(values), len(groups)
    if k < 2:
        return [0.0, math.inf]
    mean = sum(values) / n
    var = sum(sum(v - mean for v in g) ** 2 for g in groups) / (n * n) * k / (k - 1)
    half = 1.959964 * math.sqrt(var)
    return [round(mean - half, 4), round(mean + half, 4)]


def percentile_ms(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1e3, 3)


def summarize(results: list[Result]) -> dict[str, object]:
    """Every matchup that was played, then the decision times per level."""
    out: dict[str, object] = {}
    played = {r.matchup for r in results}
    for matchup in sorted(played & set(GOAT_RATES)):
        games = [r for r in results if r.matchup == matchup]
        goats = sum(r.goat for r in games)
        out[matchup] = {
            "goat_rate": round(goats / max(1, len(games)), 4),
            "ci95": wilson(goats, len(games)),
            "games": len(games),
        }
    for matchup in sorted(m for m in played if MATCHUPS[m].preset in RACES):
        games = [r for r in results if r.matchup == matchup]
        won = sum(r.won for r in games)
        out[matchup] = {
            "win_rate": round(won / max(1, len(games)), 4),
            "ci95": wilson(won, len(games)),
            "interval": "wilson",
            "games": len(games),
        }
    if "teams_hard_vs_heaviest" in played:
        teams = [r for r in results if r.matchup == "teams_hard_vs_heaviest"]
        rounds = sum(r.rounds for r in teams)
        won = sum(r.rounds_won for r in teams)
        out["teams_hard_vs_heaviest"] = {
            "round_win_rate": round(won / max(1, rounds), 4),
            "ci95": wilson(won, rounds),
            "rounds": rounds,
        }
    for matchup in sorted(m for m in played if MATCHUPS[m].preset == "general"):
        games = [r for r in results if r.matchup == matchup]
        rounds = sum(r.rounds for r in games)
        won = sum(r.rounds_won for r in games)
        mine, theirs = (sum(r.generals[i] for r in games) for i in (0, 1))
        matches = sum(r.won for r in games)
        out[matchup] = {
            "generals_per_round": round(mine / max(1, rounds), 4),
            "ci95": wilson(mine, rounds),
            "opponent_generals_per_round": round(theirs / max(1, rounds), 4),
            "opponent_ci95": wilson(theirs, rounds),
            "round_win_rate": round(won / max(1, rounds), 4),
            "round_win_ci95": wilson(won, rounds),
            "match_win_rate": round(matches / max(1, len(games)), 4),
            "match_win_ci95": wilson(matches, len(games)),
            "rounds": rounds,
            "games": len(games),
        }
    if "room" in played:
        room = [r for r in results if r.matchup == "room"]
        by_deal: dict[int, list[int]] = {}
        for r in room:
            by_deal.setdefault(r.deal, []).append(r.place)
        mean, ci = mean_ci([sum(p) / len(p) for p in by_deal.values()])
        out["room"] = {
            "avg_place": mean,
            "ci95": ci,
            "ci95_games": mean_ci([float(r.place) for r in room])[1],
            "games": len(room),
        }
    if "bykovo_hard_vs_normal" in played:
        games_played = [r for r in results if r.matchup == "bykovo_hard_vs_normal"]
        places = [float(p) for r in games_played for p in r.round_places]
        mean, ci = mean_ci(places)
        firsts = sum(p == 1 for p in places)
        out["bykovo_hard_vs_normal"] = {
            "avg_round_place": mean,
            "ci95": ci,
            "ci95_games": clustered_ci([[float(p) for p in r.round_places] for r in games_played]),
            "round_win_rate": round(firsts / max(1, len(places)), 4),
            "rounds": len(places),
            "games": len(games_played),
            "avg_game_place": round(sum(r.place for r in games_played) / len(games_played), 4),
        }
    timings: dict[str, list[float]] = {level.value: [] for level in Level}
    for r in results:
        for level, values in r.timings.items():
            timings[level] += values
    for name, q in (("decision_ms_p50", 0.5), ("decision_ms_p95", 0.95)):
        out[name] = {level: percentile_ms(values, q) for level, values in timings.items()}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, help="games per matchup (default: its own)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--budget", type=float, default=None, help="hard level's seconds/move")
    parser.add_argument(
        "--only", choices=sorted([*MATCHUPS, *PRESET_GROUPS]), action="append",
        help="a matchup, or a preset's matchups",
    )  # fmt: skip
    args = parser.parse_args()
    names = [m for name in args.only or MATCHUPS for m in PRESET_GROUPS.get(name, [name])]
    tasks = [
        Task(m, i, args.seed, args.budget)
        for m in names
        for i in range(args.games or MATCHUPS[m].games)
    ]
    results: list[Result] = []
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        futures = [pool.submit(play_game, task) for task in tasks]
        for done, future in enumerate(as_completed(futures), start=1):
            results.append(future.result())
            if done % max(1, len(tasks) // 20) == 0 or done == len(tasks):
                print(f"{done}/{len(tasks)} games, {time.perf_counter() - start:.0f} s", flush=True)
    print(json.dumps(summarize(results)))


if __name__ == "__main__":
    main()
