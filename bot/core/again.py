"""«Ещё партию»: a new lobby like a finished game's — same chat, topic and rules; its
presser seated as creator, its computers seated again (the people join as usual)."""

from __future__ import annotations

import secrets

from bot.core.errors import GameError
from bot.core.guarded import LOBBY_IDLE
from bot.core.rows import GameRow, GameStatus, Player
from bot.core.service import GameService


async def play_again(service: GameService, game_id: int, presser: Player) -> tuple[GameRow, bool]:
    """The new lobby (True), its clock started, or the chat's open lobby or game (False):
    then nothing is made."""
    storage = service.storage
    last = await storage.games.game(game_id)
    if last is None or last.status is not GameStatus.FINISHED:
        raise GameError("again-not-finished")
    deadline = service.clock() + LOBBY_IDLE
    seed = secrets.randbits(48)
    game = await storage.games.create_lobby(
        last.chat_id, last.thread_id, presser, last.rules, seed, deadline
    )
    if game is None:
        existing = await storage.games.open_game(last.chat_id, last.thread_id)
        if existing is None:  # it ended between the two statements
            return await play_again(service, game_id, presser)
        return existing, False
    computers = [p for p in last.players if p.computer is not None]
    room = max(0, last.rules.most_players - len(game.players))
    seats = [
        *game.players,
        *(
            Player(len(game.players) + i, p.user_id, p.name, computer=p.computer)
            for i, p in enumerate(computers[:room])
        ),
    ]
    async with service.lock(game.id):
        await storage.games.set_seats(game, seats, deadline)
    reloaded = await storage.games.game(game.id)
    assert reloaded is not None
    service.onward.follow(reloaded)
    return reloaded, True
