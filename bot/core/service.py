"""Game service: lobby and play on top of the engine and the storage (`Lobbies` before
the deal, `Tables` after it; `bot.core.guarded` says how every change is made)."""

from __future__ import annotations

from bot.core import journal
from bot.core.errors import GameError
from bot.core.lobbies import Lobbies
from bot.core.rows import GameRow, GameStatus
from bot.core.tables import Tables
from bot.game.events import EndReason


class GameService(Lobbies, Tables):
    """Lobbies and games of every chat; one instance shared by the handlers."""

    # -- reading -----------------------------------------------------------------------

    async def game(self, game_id: int) -> GameRow | None:
        return await self.storage.games.game(game_id)

    async def open_game(self, chat_id: int, thread_id: int) -> GameRow | None:
        """The lobby or running game of a chat (topic)."""
        return await self.storage.games.open_game(chat_id, thread_id)

    async def running_games_of(self, user_id: int) -> list[GameRow]:
        """The running games the user sits in, each read between two turns."""
        running = []
        for game in await self.storage.games.open_games_of(user_id):
            async with self.lock(game.id):
                fresh = await self.storage.games.game(game.id)
            if fresh is not None and fresh.status is GameStatus.ACTIVE:
                running.append(fresh)
        return running

    async def running_ids(self) -> list[int]:
        return await self.storage.games.running_ids()

    @property
    def worker(self) -> str:
        """This worker among those sharing the database (`crew`)."""
        return self.storage.worker

    # -- ending ----------------------------------------------------------------------

    async def cancel_lobby(self, game_id: int, user_id: int, admin: bool) -> GameRow:
        """The lobby's ✖ (its creator or a chat admin); a game that has started is ended
        only through /endgame's confirmation."""
        async with self.lock(game_id):
            game = await self.lobby(game_id)
            return await self._cancel(game, user_id, admin, EndReason.CANCELLED)

    async def end_game(self, game_id: int, user_id: int, admin: bool) -> GameRow:
        """/endgame, confirmed: the lobby or running game ends unrated."""
        async with self.lock(game_id):
            game = await self.storage.games.game(game_id)
            if game is None or not game.is_open:
                raise GameError("no-such-game")
            return await self._cancel(game, user_id, admin, EndReason.ENDED)

    async def _cancel(self, game: GameRow, user_id: int, admin: bool, why: EndReason) -> GameRow:
        if user_id != game.creator_id and not admin:
            raise GameError("not-creator-or-admin")
        await self.storage.games.cancel(game.id, why)
        journal.ended(game, why)
        return await self._reload(game.id)

    async def bot_removed(self, chat_id: int) -> list[GameRow]:
        """The bot left the group: its open games are cancelled (and returned)."""
        ended = []
        for game in await self.storage.games.open_games_in(chat_id):
            async with self.lock(game.id):
                if await self.storage.games.cancel(game.id, EndReason.BOT_REMOVED):
                    ended.append(await self._reload(game.id))
        return ended

    async def topic_game(self, chat_id: int, thread_id: int) -> GameRow:
        """The topic's open game (for /endgame, /kick, /leave)."""
        game = await self.storage.games.open_game(chat_id, thread_id)
        if game is None:
            raise GameError("no-open-game")
        return game

    async def remove(self, game: GameRow, user_id: int) -> GameRow | None:
        """The user leaves the lobby (the lobby as it is now), or the running game, where
        the computer takes the seat (None)."""
        if game.status is GameStatus.LOBBY:
            return await self.leave_lobby(game.id, user_id)
        await self.leave_game(game.id, user_id)
        return None
