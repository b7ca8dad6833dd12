"""The group's picture at a calm pace, while everybody at a table plays in the table app.

Each such table's picture follows within `APP_PICTURE_SECONDS`; when so many tables wait
that their pictures would take more than `CALM_PART` of this process's pace of sends and
edits, each waits longer, so that the calm pictures never crowd out what people outside the
app wait for, and with each round's end (two pictures) a table played in the app takes less
than half the budget however fast it plays (at Telegram's usual 30 a second and one worker:
up to 165 tables every 30 s, 480 tables about every 87 s).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

CALM_PART = 1 / 4
"""The most of this process's pace of sends and edits that the calm pictures may take."""


class CalmPictures:
    """The tables whose picture waits, one timer a game; `show(game_id)` when it is due."""

    def __init__(
        self, seconds: float, per_second: Callable[[], float], show: Callable[[int], None]
    ) -> None:
        """`seconds`: the longest a picture waits while few tables do; `per_second()`:
        this process's pace of sends and edits now (its workers' share)."""
        self.seconds = seconds
        self._per_second = per_second
        self._show = show
        self._waiting: dict[int, asyncio.TimerHandle] = {}

    def wait(self) -> float:
        """How long a picture asked for now waits: `seconds`, or longer with many tables."""
        tables = len(self._waiting) + 1
        return max(self.seconds, tables / (CALM_PART * self._per_second()))

    def later(self, game_id: int) -> None:
        """The game's picture when its wait is over (unless one already waits)."""
        if game_id not in self._waiting:
            loop = asyncio.get_running_loop()
            self._waiting[game_id] = loop.call_later(self.wait(), self._due, game_id)

    def _due(self, game_id: int) -> None:
        del self._waiting[game_id]
        self._show(game_id)

    def forget(self, game_id: int) -> bool:
        """The game's picture waits no more; whether one was waiting."""
        waiting = self._waiting.pop(game_id, None)
        if waiting is None:
            return False
        waiting.cancel()
        return True
