"""What the lobbies and the tables share: the storage, the clock and one lock per game.

Every change runs under the game's lock and is committed in one transaction before the
caller sends any message about it. Bad input raises `GameError` with a short answer for
the user; nothing is changed then.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Callable

from bot.core.errors import GameError
from bot.core.rows import GameRow
from bot.core.screen import Onward, Standstill
from bot.core.storage import Storage
from bot.game.state import GameState, Phase


def game_state(game: GameRow) -> GameState:
    """The running game's state (a lobby has none), under today's edition of its rules (a
    game stored by an older version goes on under them: `_commit` logs the change)."""
    state = game.state
    if state is None:
        raise GameError("no-such-game")
    rules = state.rules.current()
    return state if rules is state.rules else state._replace(rules=rules)


AWAY_AFTER = 3
"""Turns in a row timed out after which the seat is away: the computer plays it at once."""
LOBBY_IDLE = 600
"""Seconds a lobby waits without anything happening before it is closed (/extend: more)."""
LOBBY_TRIES = 3
"""Times a lobby change is read and made again when another worker changed the seats."""


class LockedGames:
    """The games of every chat, each changed under its own lock.

    `clock` gives the time (epoch seconds) for turn and lobby deadlines; `onward` moves a
    game on after every change (`wire`).
    """

    def __init__(self, storage: Storage, clock: Callable[[], float] = time.time) -> None:
        self.storage = storage
        self.clock = clock
        # a lock lives while someone holds it or waits for it: no game's lock is kept after
        # its last press, and a forged id adds nothing that stays
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.onward: Onward = Standstill()

    def wire(self, onward: Onward) -> None:
        """What moves the games on after every stored turn, a new lobby or a seat taken
        back (`FollowUp`), given once."""
        self.onward = onward

    def lock(self, game_id: int) -> asyncio.Lock:
        """The game's lock: presses from different private chats arrive at once."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def _idle_until(self) -> float:
        """A lobby where something just happened waits `LOBBY_IDLE` seconds from now."""
        return self.clock() + LOBBY_IDLE

    def _deadline(self, game: GameRow, state: GameState) -> float | None:
        """When the person now to move runs out of time; None when nobody is timed."""
        timeout = state.rules.turn_timeout
        if state.phase is not Phase.PLAYING or not timeout:
            return None
        player = game.players[state.to_move]
        return None if not player.human or player.away else self.clock() + timeout

    async def _reload(self, game_id: int) -> GameRow:
        game = await self.storage.games.game(game_id)
        assert game is not None
        return game
