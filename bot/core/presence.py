"""Who is at a game's table in the app: a person whose page holds a live stream of the game
(the page lets it go when Telegram puts the app away). While they are, their private hand
need not follow each move; the moment their stay ends, one listener (`on_left`) brings it
up to date.

Alone on its database a worker knows its own streams. With several workers (a `board`),
each tells the others of its people arriving and leaving and keeps a mirror of theirs, so
`here` is true on every worker without a read per move; the people of a worker that
stopped or went silent are swept by another, which tells `on_left` of them once."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress

from bot.core.database import Claim
from bot.core.presence_board import Key, PresenceBoard, Told
from bot.core.workers import BEAT, DEAD

log = logging.getLogger(__name__)
RETRY_SECONDS = 1.0  # after a write the database refused

Left = Callable[[int, int], None]
"""Told `(game_id, user_id)` when a person is no longer at that game's table in the app."""


class Presence:
    """The people at a table in the app, by game: how many streams each holds on this
    worker, and (with a `board`) on which other workers they are."""

    def __init__(self, board: PresenceBoard | None = None) -> None:
        self._streams: Counter[Key] = Counter()
        self._elsewhere: dict[Key, set[str]] = {}  # the other workers' people, as told
        self._left: list[Left] = []
        self._away: list[Left] = []
        self._hushed = False
        self._board = board
        self._changed: set[Key] = set()  # this worker's stays to write to the board
        self._written: set[Key] = set()  # … and those written there
        self._writing: asyncio.Task[None] | None = None
        self._sharing: asyncio.Task[None] | None = None

    def on_left(self, listener: Left) -> None:
        """`listener` is told once, on one worker, when a person's stay ends: on the
        worker their stream was on (once the others know), or on the one that swept the
        people of a worker gone."""
        self._left.append(listener)

    def on_away(self, listener: Left) -> None:
        """`listener` is told on this worker whenever a person is no longer at the table
        as far as it knows (their stream ended, here or on another worker)."""
        self._away.append(listener)

    def hush(self) -> None:
        """From now on nobody is told of a person leaving, and nothing more is written or
        swept (the bot stops: the streams end, not the people's stay; with other workers,
        what is left unwritten is swept by one of them)."""
        self._hushed = True

    def here(self, game_id: int, user_id: int) -> bool:
        """Whether the person follows the game in the app now (as this worker knows)."""
        key = (game_id, user_id)
        return self._streams[key] > 0 or key in self._elsewhere

    async def confirmed(self, game_id: int, user_id: int) -> bool:
        """Whether the person follows the game in the app now, the other workers' people
        read from the database (the mirror may lag behind a stay just ended)."""
        key = (game_id, user_id)
        if self._streams[key] > 0:
            return True
        return self._board is not None and await self._board.anywhere(key)

    @contextmanager
    def at_the_table(self, game_id: int, user_id: int) -> Iterator[None]:
        """While one of the person's streams of the game is open."""
        key = (game_id, user_id)
        self._streams[key] += 1
        if self._streams[key] == 1:
            self._write(key)
        try:
            yield
        finally:
            self._streams[key] -= 1
            if self._streams[key] <= 0:
                del self._streams[key]
                if not self._hushed:
                    self._tell(self._away, [key])
                    if self._board is None:
                        self._tell(self._left, [key])
                    else:
                        self._write(key)  # `on_left` once the others know

    def share(self) -> None:
        """With a board: hear the other workers' people, and every `BEAT` seconds sweep
        those of a worker silent for `DEAD` seconds, until `close`."""
        if self._board is not None and self._sharing is None:
            self._sharing = asyncio.create_task(self._share(self._board))

    async def close(self) -> None:
        """No more writing, hearing or sweeping (the bot stops: a stay not written is
        swept by another worker)."""
        self.hush()
        for task in (self._writing, self._sharing):
            if task is not None:
                task.cancel()
                with suppress(asyncio.CancelledError):
                    await task

    def _tell(self, listeners: list[Left], keys: Iterable[Key]) -> None:
        for key in keys:
            if not self.here(*key):
                for listener in listeners:
                    listener(*key)

    def _write(self, key: Key) -> None:
        if self._board is None or self._hushed:
            return
        self._changed.add(key)
        if self._writing is None or self._writing.done():
            self._writing = asyncio.create_task(self._write_changed(self._board))

    async def _write_changed(self, board: PresenceBoard) -> None:
        """The stays changed since the last write, one write at a time (so an arrival and
        the departure after it are stored in that order); then those ended are told."""
        while self._changed:
            keys, self._changed = self._changed, set()
            arrived = [key for key in keys if self._streams[key] > 0 and key not in self._written]
            gone = [key for key in keys if self._streams[key] <= 0 and key in self._written]
            try:
                await board.write(arrived, gone)
            except Exception:
                log.warning("presence: the other workers were not told of %s stays", len(keys))
                self._changed |= keys
                await asyncio.sleep(RETRY_SECONDS)
                continue
            self._written.update(arrived)
            self._written.difference_update(gone)
            if not self._hushed:
                self._tell(self._left, [key for key in keys if self._streams[key] <= 0])

    async def _share(self, board: PresenceBoard) -> None:
        listening: Claim | None = None
        try:
            while True:
                try:
                    if listening is None or not await listening.held():
                        if listening is not None:
                            await listening.release()
                            listening = None
                        listening = await self._listen(board)
                    swept = [] if self._hushed else await board.sweep(board.clock() - DEAD)
                    if swept:
                        log.info("presence: %s people of workers gone swept", len(swept))
                        self._tell(self._left, swept)
                except Exception:
                    log.warning("presence: the other workers' people are not heard now")
                await asyncio.sleep(BEAT)
        finally:
            if listening is not None:
                await listening.release()

    async def _listen(self, board: PresenceBoard) -> Claim:
        """Hear the other workers, then read who is there: what is heard meanwhile is
        taken after the read (a stay ended during it is not left standing)."""
        meanwhile: list[Told] | None = []

        def hear(told: Told) -> None:
            if meanwhile is None:
                self._heard(told)
            else:
                meanwhile.append(told)

        listening = await board.listen(hear)
        try:
            everyone = await board.everyone()
        except BaseException:
            await listening.release()
            raise
        known, self._elsewhere = self._elsewhere, {}
        for worker, key in everyone:
            self._elsewhere.setdefault(key, set()).add(worker)
        heard, meanwhile = meanwhile or [], None
        for told in heard:
            self._heard(told)
        self._tell(self._away, known)
        return listening

    def _heard(self, told: Told) -> None:
        for key in told.arrived:
            self._elsewhere.setdefault(key, set()).add(told.worker)
        for key in told.gone:
            workers = self._elsewhere.get(key, set())
            workers.discard(told.worker)
            if not workers:
                self._elsewhere.pop(key, None)
        self._tell(self._away, told.gone)
