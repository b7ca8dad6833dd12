"""bench/load.py's capacity search: which number of groups it runs next, and when a run
passes the bar (the next player told within 2 s, p95, with no 429 and no group stalled)."""

from __future__ import annotations

from typing import Any

from bench.capacity import next_groups, passes


def found(passing: int, start: int) -> tuple[int, list[int]]:
    """The search against a load that passes up to `passing` groups: its answer, its runs."""
    tried: dict[int, bool] = {}
    while (groups := next_groups(tried, start)) is not None:
        assert groups not in tried
        tried[groups] = groups <= passing
    return max((g for g, passed in tried.items() if passed), default=0), list(tried)


def test_the_search_doubles_then_bisects_to_a_tenth() -> None:
    best, runs = found(47, 10)
    assert runs[:4] == [10, 20, 40, 80]
    assert 43 <= best <= 47
    assert len(runs) <= 8


def test_the_search_goes_down_when_the_first_run_fails() -> None:
    assert found(3, 10)[0] == 3
    assert found(0, 10) == (0, [10, 5, 2, 1])


def result(**changed: Any) -> dict[str, Any]:
    return {"moves": 100, "turn_told_s_p95": 1.5, "http_429": 0, "stalled_groups": 0} | changed


def test_a_run_passes_within_2_s_and_no_429() -> None:
    assert passes(result())
    assert passes(result(turn_told_s_p95=2.0))
    assert not passes(result(turn_told_s_p95=2.1))
    assert not passes(result(http_429=1))
    assert not passes(result(stalled_groups=1))
    assert not passes(result(moves=0, turn_told_s_p95=None))
