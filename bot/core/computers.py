"""Computer seats at the table — and away people's seats: each plays from its own seat's
view, paced for humans."""

from __future__ import annotations

import asyncio
import logging
import random

from bot.ai import Level, choose
from bot.core.errors import GameError
from bot.core.rows import GameRow, GameStatus
from bot.core.service import GameService
from bot.game.state import Phase
from bot.game.view import seat_view

log = logging.getLogger(__name__)


class Computers:
    """Plays while a computer (or an away person's seat) is to move, about `pace` seconds a
    move; each move goes through the service, which moves the game on from it."""

    def __init__(self, service: GameService, pace: float) -> None:
        self.service = service
        self.pace = pace
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()  # woken while already playing: look once more
        self._closing = asyncio.Event()

    def wake(self, game: GameRow) -> None:
        """Start playing the game's computer seats, unless already at it."""
        if not any(not p.human or p.away for p in game.players):
            return
        task = self._tasks.get(game.id)
        if task is not None and not task.done():
            self._again.add(game.id)  # it may be just deciding that nobody is to move
        elif not self._closing.is_set():
            self._tasks[game.id] = asyncio.create_task(self._play(game.id))

    def busy(self, game_id: int) -> bool:
        """Whether a computer is playing the game now (thinking or waiting its pace)."""
        task = self._tasks.get(game_id)
        return task is not None and not task.done()

    async def close(self) -> None:
        """Stop thinking; let a move already being made finish its messages."""
        self._closing.set()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def _play(self, game_id: int) -> None:
        try:
            while True:
                self._again.discard(game_id)
                if not await self._move_once(game_id) and game_id not in self._again:
                    break
        except Exception:
            log.exception("computer player of game %s failed", game_id)
        finally:
            if self._tasks.get(game_id) is asyncio.current_task():
                del self._tasks[game_id]
                self._again.discard(game_id)

    async def _move_once(self, game_id: int) -> bool:
        try:
            await asyncio.wait_for(self._closing.wait(), self.pace)
            return False  # the bot is stopping
        except TimeoutError:
            pass
        game = await self.service.game(game_id)
        if game is None or game.status is not GameStatus.ACTIVE or game.state is None:
            return False
        state = game.state
        player = game.players[state.to_move]
        if state.phase is not Phase.PLAYING or not (player.computer or player.away):
            return False
        view = seat_view(state, player.seat)
        rng = random.Random(f"{game.seed}:{game.version}")
        move = await asyncio.to_thread(choose, view, player.computer or Level.NORMAL, rng)
        try:
            await self.service.play(game_id, player.user_id, game.version, move)
        except GameError as error:  # a person acted first (e.g. /leave): look again
            log.info("computer move in game %s dropped: %s", game_id, error)
        return True
