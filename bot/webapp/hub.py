"""The live streams' wake-up calls: one in-process hub hears every committed change to a
game (`bot.core.screen.Listener`) and wakes the streams watching that game; the streams a
change wakes together share one read of the game, and each distinct view of it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TypeVar, cast

from bot.core.rows import GameRow

T = TypeVar("T")

Read = tuple[GameRow | None, str | None]
"""A game as stored, with the deal code of the round it stands after (if any)."""

Fetch = Callable[[int, GameRow | None], Awaitable[Read]]
"""Reads a game by id for the streams; given the game as the change committed it, if this
worker made the change, it need not read it again."""


@dataclass(slots=True)
class SharedRead:
    """One read of a game, shared by the streams it was read for; what they send of it,
    made once for each kind of reader (a seat's view, everyone's part in a language)."""

    read: Read
    _made: dict[Hashable, object] = field(default_factory=dict)

    def made(self, kind: Hashable, make: Callable[[], T]) -> T:
        """`make()` for readers of `kind`, made by the first of them to ask (a kind is
        always made by the same `make`)."""
        if kind not in self._made:
            self._made[kind] = make()
        return cast(T, self._made[kind])


class Hub:
    """Game id → the events of the streams watching it; a change sets them all."""

    def __init__(self) -> None:
        self._watching: dict[int, set[asyncio.Event]] = {}
        self._reading: dict[int, asyncio.Future[SharedRead]] = {}
        self._committed: dict[int, GameRow] = {}  # a watched game as its last change left it

    def changed(self, game_id: int, game: GameRow | None = None) -> None:
        self._reading.pop(game_id, None)  # a read begun before this change is stale
        self._committed.pop(game_id, None)
        watching = self._watching.get(game_id, ())
        if game is not None and watching:
            self._committed[game_id] = game
        for woken in watching:
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
                self._committed.pop(game_id, None)

    async def read(self, game_id: int, fetch: Fetch) -> SharedRead:
        """`fetch(game_id, committed)`, one for every stream of the game asking before it
        is done (and before the game changes again)."""
        reading = self._reading.get(game_id)
        if reading is None:
            fetching = fetch(game_id, self._committed.get(game_id))
            reading = self._reading[game_id] = asyncio.ensure_future(_shared(fetching))

            def done(finished: asyncio.Future[SharedRead]) -> None:
                if self._reading.get(game_id) is finished:
                    del self._reading[game_id]

            reading.add_done_callback(done)
        return await asyncio.shield(reading)


async def _shared(reading: Awaitable[Read]) -> SharedRead:
    return SharedRead(await reading)
