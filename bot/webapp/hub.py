"""The live streams' wake-up calls: one in-process hub hears every committed change to a
game (`bot.core.screen.Listener`) and wakes the streams watching that game."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager


class Hub:
    """Game id → the events of the streams watching it; a change sets them all."""

    def __init__(self) -> None:
        self._watching: dict[int, set[asyncio.Event]] = {}

    def changed(self, game_id: int) -> None:
        for woken in self._watching.get(game_id, ()):
            woken.set()

    @contextmanager
    def watch(self, game_id: int) -> Iterator[asyncio.Event]:
        """An event set at each change to `game_id` while the block runs (the stream
        clears it once it has looked)."""
        woken = asyncio.Event()
        watchers = self._watching.setdefault(game_id, set())
        watchers.add(woken)
        try:
            yield woken
        finally:
            watchers.discard(woken)
            if not watchers:
                del self._watching[game_id]
