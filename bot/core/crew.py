"""Workers sharing one database. A game's duties — its clock, its computers' moves, the
watchdog's looks, what a crash left unsaid — belong to the worker that stored its last
change (`games.owner`). Each worker beats every `BEAT` seconds; one that stops hands its
games back, one silent for `DEAD` seconds is taken for dead, and the first worker to look
adopts the games nobody alive holds and resumes them (shows their stored state again and
moves them on). On SQLite the bot is one process: it adopts every game when it starts."""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Callable

from bot.core.follow_up import FollowUp
from bot.core.storage import Storage
from bot.core.workers import BEAT, DEAD

log = logging.getLogger(__name__)
ABOUT = 3 * BEAT  # seconds of silence after which a worker's share of the sending is taken


class Crew:
    """This worker's part: beating, adopting orphaned games, handing its own back."""

    def __init__(self, storage: Storage, follow_up: FollowUp, now: Callable[[], float]) -> None:
        self.storage = storage
        self.follow_up = follow_up
        self.now = now

    async def start(self) -> None:
        """Sign in and take over what nobody alive holds (after a restart: everything a
        stopped or dead process left)."""
        await self.storage.workers.beat(self.now())
        await self._adopt()

    async def run(self) -> None:
        """Beat, and (with other workers about) adopt a dead one's games, until cancelled."""
        while True:
            await asyncio.sleep(BEAT)
            try:
                await self.storage.workers.beat(self.now())
                if self.storage.database.shared:
                    await self._adopt()
            except Exception:
                log.exception("worker %s: beating or adopting failed", self.storage.worker)

    async def about(self) -> list[str]:
        """The workers to share the sending with (this one included): those heard from in
        the last `ABOUT` seconds, in the order of their ids."""
        if not self.storage.database.shared:
            return [self.storage.worker]
        return await self.storage.workers.alive(self.now() - ABOUT)

    async def leave(self) -> None:
        """A stop: this worker's games are anybody's at once (they resume there)."""
        await self.storage.workers.leave()

    async def _adopt(self) -> None:
        shared = self.storage.database.shared
        alive_since = self.now() - DEAD if shared else math.inf  # alone: nobody else lives
        games = await self.storage.workers.adopt(alive_since)
        if games:
            log.info("worker %s adopts games %s", self.storage.worker, [g.id for g in games])
        await self.follow_up.resume(games)
