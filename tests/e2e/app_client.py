"""The table app's side of the end-to-end tests: `initData` as Telegram signs it for the
bot's token, a session, a press, and the live stream's events."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncGenerator
from typing import Any

import aiohttp

from bot.game.moves import Draw, Move, Play
from bot.playground import FakeTelegram, User
from bot.webapp.init_data import signed


def init_data(fake: FakeTelegram, user: User, start_param: str) -> str:
    """What Telegram gives the app `user` opened from the group's button."""
    person = {"id": user.id, "first_name": user.first_name, "language_code": "ru"}
    fields = {
        "user": json.dumps(person, ensure_ascii=False),
        "chat_instance": "-4242",
        "chat_type": "group",
        "start_param": start_param,
        "auth_date": str(int(time.time())),
    }
    return signed(fields, fake.token)


async def bearer(
    web: aiohttp.ClientSession, base: str, fake: FakeTelegram, user: User, start_param: str
) -> dict[str, str]:
    """The `Authorization` header of a session `user` opened."""
    body = {"init_data": init_data(fake, user, start_param)}
    async with web.post(f"{base}/api/session", json=body) as session:
        assert session.status == 200, await session.text()
        return {"Authorization": f"Bearer {(await session.json())['token']}"}


def choice_of(move: Move) -> dict[str, Any]:
    """A move as the page's `Choice`."""
    if isinstance(move, Play):
        return {"chose": "tile", "tile": move.tile, "end": move.end}
    return {"chose": "draw" if isinstance(move, Draw) else "pass"}


async def table_events(stream: aiohttp.ClientResponse) -> AsyncGenerator[tuple[int, str], None]:
    """The stream's `table` events as they come: their id and their data as sent (comments
    skipped)."""
    event: dict[str, str] = {}
    async for raw in stream.content:
        line = raw.decode().rstrip("\n")
        if line:
            key, _, value = line.partition(": ")
            event[key] = value
            continue
        if event.get("event") == "table":
            yield int(event["id"]), event["data"]
        event = {}


async def next_table(stream: aiohttp.ClientResponse, timeout: float) -> dict[str, Any]:
    """The stream's next `table` event's data (comments skipped)."""
    async with asyncio.timeout(timeout), contextlib.aclosing(table_events(stream)) as events:
        async for version, raw in events:
            data: dict[str, Any] = json.loads(raw)
            assert version == data["version"]
            return data
    raise AssertionError("the stream ended")
