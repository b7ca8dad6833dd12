"""Computer seats at the table — and away people's seats: each plays from its own seat's
view, paced for humans."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable

from bot.ai import Level, choose
from bot.game.state import Phase
from bot.game.view import seat_view
from bot.messenger import Messenger
from bot.service import GameError, GameService, Turn, game_state
from bot.storage import GameRow

log = logging.getLogger(__name__)


class Robots:
    """Wakes up after every stored turn and plays while a computer is to move."""

    def __init__(
        self,
        service: GameService,
        messenger: Messenger,
        pace: float,
        on_turn: Callable[[GameRow], None] = lambda game: None,
    ) -> None:
        self.service = service
        self.messenger = messenger
        self.pace = pace
        self.on_turn = on_turn  # after every shown turn (the turn clocks)
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._closing = asyncio.Event()

    async def show_and_wake(self, turn: Turn) -> None:
        """Show a turn, then let a computer move if it is one's turn, and start the clock."""
        await self.messenger.show_turn(turn)
        if any(not p.human or p.away for p in turn.game.players):
            self.wake(turn.game.id)
        self.on_turn(turn.game)

    def wake(self, game_id: int) -> None:
        task = self._tasks.get(game_id)
        if not self._closing.is_set() and (task is None or task.done()):
            self._tasks[game_id] = asyncio.create_task(self._play(game_id))

    async def close(self) -> None:
        """Stop thinking; let a move already being made finish its messages."""
        self._closing.set()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def _play(self, game_id: int) -> None:
        """Move for every computer seat in turn, about `pace` seconds each."""
        try:
            while await self._move_once(game_id):
                pass
        except Exception:
            log.exception("computer player of game %s failed", game_id)

    async def _move_once(self, game_id: int) -> bool:
        try:
            await asyncio.wait_for(self._closing.wait(), self.pace)
            return False  # the bot is stopping
        except TimeoutError:
            pass
        game = await self.service.storage.game(game_id)
        if game is None or game.status != "active":
            return False
        state = game_state(game)
        player = game.players[state.to_move]
        if state.phase is not Phase.PLAYING or not (player.robot or player.away):
            return False
        view = seat_view(state, player.seat)
        rng = random.Random(f"{game.seed}:{game.version}")
        level = Level(player.robot or Level.NORMAL)
        move = await asyncio.to_thread(choose, view, level, rng)
        try:
            await self.service.play(game_id, player.user_id, game.version, move, self.show_and_wake)
        except GameError as error:  # a person acted first (e.g. /leave): look again
            log.info("computer move in game %s dropped: %s", game_id, error)
        return True
