"""Three webhook workers on one PostgreSQL behind the fake's round-robin balancer, ten
groups playing with turn clocks and computers; the worker that sends the bot's messages is
killed (SIGKILL) mid-game and another restarted (`bench/workers.py`, run here in full)."""

from __future__ import annotations

import argparse
import json

import pytest

from bench.workers import run
from tests.postgres import PostgresServer


@pytest.mark.alone
async def test_three_workers_survive_the_senders_death_and_a_restart(
    postgres: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPUTER_PACE_SECONDS", "0.05")  # as `run` sets it, undone after
    args = argparse.Namespace(workers=3, groups=10, seed=1, database=postgres.url())
    result = await run(args)
    said = json.dumps(result, ensure_ascii=False)  # whole: pytest would cut a dict short
    assert result["finished"] == result["replayed"] == 10, said  # no move applied twice
    assert result["groups_told_each_round_once"] == result["ends_told"] == 10, said
    assert result["refused"] == 0 and result["stalled_joins"] == 0, said  # no violation
    assert result["tracebacks"] == 0 and result["sender_replaced"], said
    assert result["ok"], said
