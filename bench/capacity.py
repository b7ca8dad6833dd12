"""The capacity search of bench/load.py (`--capacity MINUTES`): the most groups for which the
next player is told it is their turn within `BAR_S` (p95) with no 429.

The load runs again and again with the same options but `--groups`: from `--groups`, the
number doubles while a run passes, then the gap between the most that passed and the
fewest that failed is halved until it is within `PRECISION` of the groups (or one group).
No new run starts after MINUTES of wall time; the search then says it was cut short.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

BAR_S = 2.0  # the next player told within this (p95)
PRECISION = 0.1  # the search stops when the gap is within this share of the groups


@dataclass(frozen=True)
class Trial:
    """One run of the search and its figures."""

    groups: int
    passed: bool
    result: dict[str, Any]

    def figures(self) -> dict[str, Any]:
        r = self.result
        return {
            "groups": self.groups,
            "passed": self.passed,
            "moves_per_s": r["moves_per_s"],
            "turn_told_s_p50": r["turn_told_s_p50"],
            "turn_told_s_p95": r["turn_told_s_p95"],
            "http_429": r["http_429"],
            "stalled_groups": r["stalled_groups"],
            "sends_edits_per_move": r["sends_edits_per_move"],
            "cpu_s_per_move": r["cpu_s_per_move"],
            "machine_cpu_busy": r["machine_cpu_busy"],
        }


def passes(result: dict[str, Any]) -> bool:
    """The run told the next player within `BAR_S` (p95), with no 429 and no group stalled."""
    told = result["turn_told_s_p95"]
    return (
        result["moves"] > 0
        and told is not None
        and told <= BAR_S
        and result["http_429"] == 0
        and result["stalled_groups"] == 0
    )


def next_groups(tried: dict[int, bool], start: int) -> int | None:
    """The groups of the next run after runs `tried` (groups → passed), or None: found."""
    if not tried:
        return start
    most = max((groups for groups, passed in tried.items() if passed), default=0)
    failed = [groups for groups, passed in tried.items() if not passed and groups > most]
    fewest = min(failed, default=None)
    if fewest is None:
        return most * 2
    if fewest - most <= max(1, round(most * PRECISION)):
        return None
    return (most + fewest) // 2


def search(
    args: argparse.Namespace, load: Callable[[argparse.Namespace], dict[str, Any]]
) -> dict[str, Any]:
    """Run `load` with growing, then bisected `--groups` for at most `args.capacity`
    minutes; the most groups that passed, and every run tried."""
    started = time.monotonic()
    trials: list[Trial] = []
    cut_short = False
    while (groups := next_groups({t.groups: t.passed for t in trials}, args.groups)) is not None:
        if time.monotonic() - started > args.capacity * 60:
            cut_short = True
            break
        result = load(argparse.Namespace(**vars(args) | {"groups": groups}))
        gc.unfreeze()  # what the run froze is garbage now
        gc.collect()
        trials.append(Trial(groups, passes(result), result))
        print(
            f"capacity: {groups} groups {'pass' if trials[-1].passed else 'fail'}: "
            f"told p95 {result['turn_told_s_p95']} s, 429 ×{result['http_429']}, "
            f"{result['moves_per_s']} moves/s",
            file=sys.stderr,
            flush=True,
        )
    best = max((t for t in trials if t.passed), key=lambda t: t.groups, default=None)
    return {
        "capacity_groups": best.groups if best else 0,
        "moves_per_s": best.result["moves_per_s"] if best else 0.0,
        "turn_told_s_p95": best.result["turn_told_s_p95"] if best else None,
        "sends_edits_per_move": best.result["sends_edits_per_move"] if best else None,
        "sends_edits_per_s": (
            round(best.result["sends_edits_per_move"] * best.result["moves_per_s"], 1)
            if best
            else None
        ),
        "api_calls_per_move": best.result["api_calls_per_move"] if best else None,
        "cpu_s_per_move": best.result["cpu_s_per_move"] if best else None,
        "bar_s": BAR_S,
        "app_share": args.app,
        "flood": not args.no_flood,
        "database": "postgres" if args.database else "sqlite",
        "workers": args.workers or 1,
        "seconds": args.seconds,
        "warmup": args.warmup,
        "cut_short": cut_short,
        "wall_s": round(time.monotonic() - started),
        "trials": [t.figures() for t in trials],
    }
