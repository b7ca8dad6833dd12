"""The courier: what a worker posts is kept in the outbox, then said by the sender of its
chat's shard. Workers share the shards evenly; on PostgreSQL two couriers hand shards over
as a second worker comes and goes, and every post is said once, in order in its chat;
alone on SQLite one courier holds every shard. A courier whose claims' connections are cut
lets go of those shards and takes them again, and nothing it was to say is lost."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import Any

import asyncpg
import pytest

import bot.telegram.courier as courier_module
from bot.core.outbox import SHARDS, Outbox
from bot.core.storage import Storage
from bot.telegram.courier import Courier, fair_share
from bot.telegram.pacing import Limits, Pacing
from tests.conftest import PATIENCE, Opener
from tests.postgres import PostgresServer

CHATS = [-1_001_000_000_000 - n for n in range(8)] + [7_000_000_000 + n for n in range(8)]


def test_the_shards_are_shared_out_evenly() -> None:
    for count in range(1, SHARDS + 4):
        about = [f"worker{n:02}" for n in range(count)]
        shares = [fair_share(worker, about) for worker in about]
        held = [share for share, _ in shares]
        assert sum(held) == SHARDS and max(held) - min(held) <= 1, (count, shares)
        assert len({first for _, first in shares}) == min(count, SHARDS)  # each its own start
    # one not heard of yet counts itself as the last of the workers
    assert fair_share("new", ["a", "b", "c"]) == fair_share("z", ["a", "b", "c", "z"])
    assert fair_share("alone", []) == (SHARDS, 0)


class Worker:
    """A courier on its own storage whose one job records what it says, and by whom."""

    def __init__(self, name: str, storage: Storage, said: dict[int, list[tuple[str, int]]]):
        self.name = name
        self.about: list[str] = [name]
        self.courier = Courier(
            Outbox(storage.database), Pacing(Limits(paced=False)), (list, list), name
        )

        async def say(payload: Any) -> None:
            chat, number = payload
            await asyncio.sleep(0.002)  # a request on the wire
            said[chat].append((self.name, number))

        self.courier.kind("say", say)

    async def workers(self) -> list[str]:
        return self.about

    def post(self, numbers: range) -> None:
        for number in numbers:
            chat = CHATS[number % len(CHATS)]
            self.courier.post(chat, "say", (chat, number))


async def wait_for(condition: Any, seconds: float = 10) -> None:
    async with asyncio.timeout(seconds * PATIENCE):
        while not condition():
            await asyncio.sleep(0.02)


async def test_the_workers_share_the_sending_and_say_each_post_once(
    open_storage: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(courier_module, "BEAT", 0.1)
    said: dict[int, list[tuple[str, int]]] = defaultdict(list)
    first = await open_storage()
    one = Worker("a", first, said)
    one.courier.start(one.workers)
    await wait_for(lambda: one.courier.shards == list(range(SHARDS)))
    one.post(range(40))
    posted = 40
    if first.database.shared:
        two = Worker("b", await open_storage(), said)
        two.post(range(40, 80))  # kept before anybody in `b` sends
        one.about = two.about = ["a", "b"]
        two.courier.start(two.workers)
        await wait_for(lambda: len(one.courier.shards) == len(two.courier.shards) == SHARDS // 2)
        assert set(one.courier.shards).isdisjoint(two.courier.shards)
        one.post(range(80, 120))
        two.post(range(120, 160))
        await wait_for(lambda: sum(map(len, said.values())) == 160)
        two.post(range(160, 200))  # `b` stops: `a` says what it left, and sends it all
        await two.courier.close()
        one.about = ["a"]
        await wait_for(lambda: one.courier.shards == list(range(SHARDS)))
        posted = 200
        assert {name for lines in said.values() for name, _ in lines} == {"a", "b"}
    await wait_for(lambda: sum(map(len, said.values())) == posted)
    await one.courier.close()
    for chat, lines in said.items():  # in its chat, in the order each worker posted it
        for poster in ("a", "b"):
            numbers = [n for _, n in lines if ("a" if n < 40 or 80 <= n < 120 else "b") == poster]
            assert numbers == sorted(numbers), (chat, lines)
    assert sorted(n for lines in said.values() for _, n in lines) == list(range(posted))
    assert await Outbox(first.database).after(0) == []  # every row said is deleted


async def test_a_courier_whose_claims_are_cut_takes_its_shards_again_and_loses_nothing(
    postgres: PostgresServer, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(courier_module, "BEAT", 0.1)
    caplog.set_level("INFO", logger=courier_module.__name__)

    def taken() -> int:
        return sum("sends the bot's messages of shards" in m for m in caplog.messages)

    url = await postgres.fresh()
    storage = await Storage.connect(url)
    said: dict[int, list[tuple[str, int]]] = defaultdict(list)
    one = Worker("a", storage, said)
    try:
        one.courier.start(one.workers)
        await wait_for(lambda: one.courier.shards == list(range(SHARDS)))
        one.post(range(40))
        await wait_for(lambda: sum(map(len, said.values())) == 40)
        while await Outbox(storage.database).after(0):  # said and deleted: none is owed
            await asyncio.sleep(0.02)
        admin = await asyncpg.connect(url)
        try:  # the server ends every connection holding a shard's lock
            cut = await admin.fetchval(
                "SELECT COUNT(pg_terminate_backend(pid)) FROM pg_locks "
                "WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()"
            )
        finally:
            await admin.close()
        assert cut == SHARDS
        one.post(range(40, 80))
        await wait_for(lambda: taken() >= 2 and one.courier.shards == list(range(SHARDS)))
        assert any("lost the claims of shards" in m for m in caplog.messages)
        await wait_for(lambda: sum(map(len, said.values())) == 80)
    finally:
        await one.courier.close()
        await storage.close()
    assert sorted(n for lines in said.values() for _, n in lines) == list(range(80))
