"""Presence shared by the workers on PostgreSQL: a person at a table on one worker is there
on every worker (a mirror, told by NOTIFY); their stay's end is told `on_left` once, on
their worker, and `on_away` everywhere; a silent worker's people are swept by another."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from bot.core.presence import Presence
from bot.core.presence_board import PresenceBoard
from bot.core.storage import Storage
from tests.postgres import PostgresServer

WAIT = 30.0  # seconds: only a failing test waits that long


async def until(condition: Callable[[], bool]) -> None:
    async with asyncio.timeout(WAIT):
        while not condition():
            await asyncio.sleep(0.01)


def presence_of(storage: Storage, clock: Callable[[], float] = time.time) -> Presence:
    return Presence(PresenceBoard(storage.database, storage.worker, clock))


async def test_a_stay_on_one_worker_is_known_on_the_other(postgres: PostgresServer) -> None:
    url = await postgres.fresh()
    one, two = await Storage.connect(url), await Storage.connect(url)
    here, there = presence_of(one), presence_of(two)
    told: dict[str, list[tuple[int, int]]] = {"left here": [], "left there": [], "away": []}
    here.on_left(lambda game, user: told["left here"].append((game, user)))
    there.on_left(lambda game, user: told["left there"].append((game, user)))
    there.on_away(lambda game, user: told["away"].append((game, user)))
    try:
        here.share()
        there.share()
        with here.at_the_table(1, 10):
            await until(lambda: there.here(1, 10))
            assert not there.here(1, 11) and await there.confirmed(1, 10)
        await until(lambda: not there.here(1, 10))
        await until(lambda: told["left here"] == [(1, 10)])
        assert told["left there"] == [] and told["away"] == [(1, 10)]
        assert not await there.confirmed(1, 10)
    finally:
        for presence in (here, there):
            await presence.close()
        for storage in (one, two):
            await storage.close()


async def test_the_people_of_a_silent_worker_are_swept_once(postgres: PostgresServer) -> None:
    url = await postgres.fresh()
    dead, alive = await Storage.connect(url), await Storage.connect(url)
    gone = presence_of(dead, lambda: time.time() - 60)  # there a minute, never beating
    survivor = presence_of(alive)
    left: list[tuple[int, int]] = []
    survivor.on_left(lambda game, user: left.append((game, user)))
    try:
        with gone.at_the_table(2, 20):
            async with asyncio.timeout(WAIT):  # stored
                while not await survivor.confirmed(2, 20):
                    await asyncio.sleep(0.01)
            survivor.share()
            await until(lambda: left == [(2, 20)])
            assert not survivor.here(2, 20) and not await survivor.confirmed(2, 20)
            await gone.close()  # it is dead: its stream's end says nothing
    finally:
        await survivor.close()
        for storage in (dead, alive):
            await storage.close()
    assert left == [(2, 20)]
