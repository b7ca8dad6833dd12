"""One sweep wakes the stream of a page whose connection closed, and only that one; a
stopping server wakes them all."""

from __future__ import annotations

import asyncio
from contextlib import ExitStack
from typing import Any, cast

import pytest
from aiohttp import web

from bot.webapp import pages
from bot.webapp.pages import Pages

WAIT = 30.0  # seconds: only a failing test waits that long


class Page:
    """A request as the sweep sees it: a transport until the connection closes."""

    def __init__(self) -> None:
        self.transport: object | None = object()


def _request(page: Page) -> web.Request:
    return cast(web.Request, cast(Any, page))


async def test_a_gone_page_wakes_its_stream_and_no_other(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pages, "GONE_SECONDS", 0.01)
    here, gone = Page(), Page()
    kept, missed = asyncio.Event(), asyncio.Event()
    board = Pages()
    with board.open(_request(here), kept), board.open(_request(gone), missed):
        await asyncio.sleep(0.05)
        assert not kept.is_set() and not missed.is_set()
        gone.transport = None
        async with asyncio.timeout(WAIT):
            await missed.wait()
        assert not kept.is_set()
    await board.close()


async def test_a_stopping_server_wakes_every_stream() -> None:
    board = Pages()
    woken = [asyncio.Event() for _ in range(3)]
    with ExitStack() as open_pages:
        for event in woken:
            open_pages.enter_context(board.open(_request(Page()), event))
        await board.close()
        assert all(event.is_set() for event in woken)
