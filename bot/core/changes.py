"""Who hears of a change committed to a game: this process's listener at once and, on a
database shared by several workers (PostgreSQL), every other worker's, through `NOTIFY` on
one channel — so a move committed on any worker wakes the table app's streams on all."""

from __future__ import annotations

import asyncio
import logging

from bot.core.database import Claim, Database
from bot.core.rows import GameRow
from bot.core.screen import Listener, Unheard

log = logging.getLogger(__name__)
CHANNEL = "kozel_games"
"""The channel's payload: `<game id> <worker>`, the worker that committed the change."""


class GameChanges:
    """Tells `listen`'s listener of each change, this worker's (`changed`) and, once it
    listens on a shared database, the others'."""

    def __init__(self, database: Database, worker: str) -> None:
        self.database = database
        self.worker = worker
        self._listener: Listener = Unheard()
        self._telling = False  # the other workers are told (a listener on a shared database)
        self._tasks: set[asyncio.Task[None]] = set()

    def changed(self, game_id: int, game: GameRow | None = None) -> None:
        """Game `game_id` changed here (committed): heard here now (with `game` as stored
        now, if the committer knows it), and by the others."""
        self._listener.changed(game_id, game)
        if self._telling:
            task = asyncio.create_task(self._tell(game_id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _tell(self, game_id: int) -> None:
        try:
            await self.database.write(
                "SELECT pg_notify(?, ?)", (CHANNEL, f"{game_id} {self.worker}")
            )
        except Exception:  # its streams elsewhere wake at the next change, or on a reconnect
            log.warning("game %s: the other workers were not told of a change", game_id)

    async def listen(self, listener: Listener) -> Claim:
        """`listener` hears of every change, wherever it was committed, until released
        (the claim's `held` says whether the other workers are still heard)."""
        self._listener = listener
        listening = await self.database.listen(CHANNEL, self._heard)
        self._telling = self.database.shared
        return listening

    def _heard(self, said: str) -> None:
        game, _, worker = said.partition(" ")
        if worker != self.worker and game.lstrip("-").isdigit():
            self._listener.changed(int(game))
