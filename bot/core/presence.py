"""Who is at a game's table in the app: a person whose page holds a live stream of the game
on this worker (the page lets it go when Telegram puts the app away). While they are, their
private hand need not follow each move; the moment the last of their streams ends, whoever
listens (`on_left`) brings it up to date."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager

Left = Callable[[int, int], None]
"""Told `(game_id, user_id)` when a person is no longer at that game's table in the app."""


class Presence:
    """The people at a table in the app on this worker, by game: how many streams each holds."""

    def __init__(self) -> None:
        self._streams: Counter[tuple[int, int]] = Counter()
        self._left: list[Left] = []
        self._hushed = False

    def on_left(self, listener: Left) -> None:
        self._left.append(listener)

    def hush(self) -> None:
        """From now on nobody is told of a person leaving (the server stops: the streams
        end, not the people's stay)."""
        self._hushed = True

    def here(self, game_id: int, user_id: int) -> bool:
        """Whether the person follows the game in the app now."""
        return self._streams[game_id, user_id] > 0

    @contextmanager
    def at_the_table(self, game_id: int, user_id: int) -> Iterator[None]:
        """While one of the person's streams of the game is open."""
        key = (game_id, user_id)
        self._streams[key] += 1
        try:
            yield
        finally:
            self._streams[key] -= 1
            if self._streams[key] <= 0:
                del self._streams[key]
                for listener in () if self._hushed else self._left:
                    listener(game_id, user_id)
