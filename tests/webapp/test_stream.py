"""The live table over Server-Sent Events: the view at once, then each change — a move made
anywhere, a seat taken in Telegram — a comment to keep the line open, a reconnection that
catches up, and the streams ending when the server stops."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.core.guarded import game_state
from bot.core.rows import GameRow, Player
from bot.game.engine import legal_moves
from bot.ui.i18n import Texts, texts_for
from bot.ui.table_app import seat_part, shared_view, table_view
from bot.webapp import streams
from bot.webapp.backstage import Views
from tests.webapp.harness import START, AppUnderTest, app_under_test, lobby, started

EN = texts_for("en")

WAIT = 30.0  # seconds: only a failing test waits that long


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[AppUnderTest]:
    async for under_test in app_under_test(tmp_path, tmp_path):
        yield under_test


async def next_event(stream: aiohttp.ClientResponse) -> dict[str, Any]:
    """The stream's next event or comment: its fields (a comment as `{"comment": …}`)."""
    fields: dict[str, Any] = {}
    async with asyncio.timeout(WAIT):
        while True:
            line = (await stream.content.readline()).decode()
            if line in ("\n", ""):
                return fields
            key, _, value = line.rstrip("\n").partition(":")
            fields[key or "comment"] = json.loads(value) if key == "data" else value.strip()


async def test_a_move_made_anywhere_reaches_the_stream_and_a_reconnection_catches_up(
    app: AppUnderTest,
) -> None:
    game = await started(app.service)
    headers = await app.bearer(2, game)
    async with app.client.get("/api/stream", params={"since": -1}, headers=headers) as stream:
        assert stream.headers["Content-Type"] == "text/event-stream"
        first = await next_event(stream)
        assert first["event"] == "table" and first["id"] == str(game.version)
        assert first["data"]["version"] == game.version and first["data"]["view"]["seat"] == 1

        state = game_state(game)  # a move as Telegram's hand makes it, not through the app
        mover = game.players[state.to_move].user_id
        await app.service.play(game.id, mover, game.version, legal_moves(state)[0])
        moved = await next_event(stream)
        assert moved["id"] == str(game.version + 1)
        assert moved["data"]["version"] == game.version + 1

    async with app.client.get(
        "/api/stream", params={"since": game.version}, headers=headers
    ) as again:
        caught_up = await next_event(again)
        assert caught_up["data"]["version"] == game.version + 1


async def test_a_seat_taken_in_telegram_shows_in_the_lobby_and_the_line_is_kept_open(
    app: AppUnderTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(streams, "KEEP_ALIVE_SECONDS", 0.05)
    game = await lobby(app.service)
    async with app.client.get("/api/stream", headers=await app.bearer(1, game)) as stream:
        assert (await next_event(stream))["data"]["view"]["players"] == ["P1"]
        assert await next_event(stream) == {"comment": "keep-alive"}
        await app.service.join(game.id, Player(0, 2, "P2"))
        while (event := await next_event(stream)).get("event") != "table":
            assert event == {"comment": "keep-alive"}
        assert event["id"] == "0" and event["data"]["view"]["players"] == ["P1", "P2"]


async def test_streams_end_when_the_server_stops_and_need_a_pass(app: AppUnderTest) -> None:
    game = await started(app.service)
    refused = await app.client.get("/api/stream")
    assert refused.status == 401
    async with app.client.get("/api/stream", headers=await app.bearer(1, game)) as stream:
        await next_event(stream)
        app.backstage.closing.set()
        async with asyncio.timeout(WAIT):
            assert await stream.content.read() == b""


async def test_the_readers_of_a_move_share_one_build_of_what_they_see_alike(
    app: AppUnderTest,
) -> None:
    """Two seats and two watchers follow a game: each gets exactly the view
    `table_view` gives them, while the part they see alike is built once per change."""
    built: list[int] = []

    def shared(t: Texts, game: GameRow, now: float, code: str | None) -> dict[str, Any]:
        built.append(game.version)
        return shared_view(t, game, now, code)

    app.backstage.views = Views(shared, seat_part)
    app.telegram.members.update({3, 4})
    game = await started(app.service)
    async with contextlib.AsyncExitStack() as streams_open:
        readers = {
            user: await streams_open.enter_async_context(
                app.client.get("/api/stream", headers=await app.bearer(user, game))
            )
            for user in (1, 2, 3, 4)
        }
        for stream in readers.values():
            await next_event(stream)
        state = game_state(game)
        await app.service.play(
            game.id, game.players[state.to_move].user_id, game.version, legal_moves(state)[0]
        )
        moved = {user: (await next_event(stream))["data"] for user, stream in readers.items()}
    stored = await app.stored(game)
    for user, data in moved.items():
        seat = stored.seat_of(user)
        assert data == {"version": stored.version, "view": table_view(EN, stored, seat, START)}
    assert built.count(stored.version) == 1
