"""The pages that hold a live stream, looked at together: the server is not told that a
page went before it writes to it, so one sweep every `GONE_SECONDS` wakes the stream of a
page whose connection closed (its person has left the table), and a stopping server wakes
them all. A quiet stream sleeps until then, whatever the number of pages."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager, suppress

from aiohttp import web

GONE_SECONDS = 1.0  # how soon a page that let its stream go is missed


class Pages:
    """Each open stream's request, by the event that wakes it."""

    def __init__(self) -> None:
        self._open: dict[asyncio.Event, web.Request] = {}
        self._sweep: asyncio.Task[None] | None = None

    @contextmanager
    def open(self, request: web.Request, woken: asyncio.Event) -> Iterator[None]:
        """`request`'s stream is open while the block runs; `woken` is set if it goes."""
        self._open[woken] = request
        if self._sweep is None or self._sweep.done():
            self._sweep = asyncio.create_task(self._sweeping())
        try:
            yield
        finally:
            del self._open[woken]

    async def _sweeping(self) -> None:
        while self._open:
            await asyncio.sleep(GONE_SECONDS)
            for woken, request in list(self._open.items()):
                if request.transport is None:
                    woken.set()

    async def close(self) -> None:
        """The server stops: every stream is woken (and sees it), the sweep ends."""
        for woken in self._open:
            woken.set()
        if self._sweep is not None:
            self._sweep.cancel()
            with suppress(asyncio.CancelledError):
                await self._sweep
