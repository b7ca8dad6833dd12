"""The watchdog: every running game always has a way forward — a computer's move on its
way, or, for a person to move, a hand with buttons and (in a timed game) a clock. It looks
at start-up and then every `EVERY` seconds; what it has to repair is a bug somewhere, so
it says so as an error."""

from __future__ import annotations

import asyncio
import logging

from bot.core.follow_up import FollowUp
from bot.core.service import GameService

log = logging.getLogger(__name__)
EVERY = 30.0  # seconds between two looks


class Watchdog:
    def __init__(self, service: GameService, follow_up: FollowUp, every: float = EVERY) -> None:
        self.service = service
        self.follow_up = follow_up
        self.every = every

    async def check(self) -> dict[int, list[str]]:
        """Repair every running game that has no way forward; what each one lacked."""
        repaired = {}
        for game_id in await self.service.running_ids():
            game = await self.service.game(game_id)  # one at a time: presses go between
            if game is None or not self.follow_up.lacks(game):
                continue
            async with self.service.lock(game_id):  # between two turns
                fresh = await self.service.game(game_id)
                if fresh is None or not fresh.is_open or fresh.owner != self.service.worker:
                    continue  # over, or another worker's turn to show it
                missing = self.follow_up.repair(fresh)
            if missing:
                log.error("game %s at move %s had no %s: repaired", game_id, fresh.version, missing)
                repaired[game_id] = missing
        return repaired

    async def run(self) -> None:
        """Look now, then every `every` seconds, until cancelled."""
        while True:
            try:
                await self.check()
            except Exception:
                log.exception("the watchdog's look failed")
            await asyncio.sleep(self.every)
