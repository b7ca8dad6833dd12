"""Every change committed to a game is heard: by this worker's listener at once, and on
PostgreSQL by every other worker's (NOTIFY), each once."""

from __future__ import annotations

import asyncio

import pytest

from bot.core import reading
from bot.core.guarded import game_state
from bot.core.rows import GameRow, Player
from bot.core.service import GameService
from bot.game.engine import legal_moves
from bot.game.events import EndReason
from bot.game.serial import JSON, state_from_json
from bot.game.state import GameState
from bot.game.typed import parse_rules
from tests.conftest import Opener
from tests.webapp.harness import started

WAIT = 30.0  # seconds: only a failing test waits that long


class Heard:
    def __init__(self) -> None:
        self.games: list[int] = []
        self.rows: list[GameRow | None] = []
        self.news = asyncio.Event()

    def changed(self, game_id: int, game: GameRow | None = None) -> None:
        self.games.append(game_id)
        self.rows.append(game)
        self.news.set()


async def test_a_change_is_heard_here_at_once_and_by_the_other_workers(
    open_storage: Opener,
) -> None:
    here, there = await open_storage(), await open_storage()
    heard_here, heard_there = Heard(), Heard()
    listening = [
        await here.games.changes.listen(heard_here),
        await there.games.changes.listen(heard_there),
    ]
    game = await here.games.create_lobby(-100, 0, Player(0, 1, "Аня"), parse_rules("goat"), 7)
    assert game is not None
    assert heard_here.games == [] and heard_there.games == []  # nobody watches a new lobby

    await here.games.set_rules(game.id, parse_rules("goat target=51"))
    assert heard_here.games == [game.id]  # at once, before any round trip
    if here.database.shared:  # PostgreSQL: the other worker hears it too
        async with asyncio.timeout(WAIT):
            await heard_there.news.wait()
        assert heard_there.games == [game.id]
        await there.games.cancel(game.id, EndReason.CANCELLED)
        async with asyncio.timeout(WAIT):
            while len(heard_here.games) < 2:
                await asyncio.sleep(0.01)
        assert heard_here.games == [game.id, game.id] and heard_there.games == [game.id] * 2
    else:  # one process alone
        assert heard_there.games == []
    for claim in listening:
        await claim.release()


async def test_a_move_is_heard_here_with_the_game_as_stored(open_storage: Opener) -> None:
    """The worker that commits a move tells its listener the game as a read would give it
    (the table app's streams need not read it again)."""
    storage = await open_storage()
    heard = Heard()
    listening = await storage.games.changes.listen(heard)
    service = GameService(storage)
    game = await started(service)
    for _ in range(3):
        state = game_state(game)
        mover = game.players[state.to_move].user_id
        await service.play(game.id, mover, game.version, legal_moves(state)[0])
        stored = await storage.games.game(game.id)
        assert stored is not None and heard.rows[-1] == stored
        game = stored
    await listening.release()


async def test_a_game_s_state_is_decoded_again_only_when_its_stored_text_changed(
    open_storage: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker keeps the state its move stored and reads it back without decoding it; a
    move stored by another worker is decoded and read as that worker stored it."""
    decoded: list[int] = []

    def counted(data: dict[str, JSON]) -> GameState:
        decoded.append(1)
        return state_from_json(data)

    monkeypatch.setattr(reading, "state_from_json", counted)
    here, there = await open_storage(), await open_storage()
    game = await started(GameService(here))
    for mover_s, other in ((here, there), (there, here), (here, there)):
        state = game_state(game)
        mover = game.players[state.to_move].user_id
        await GameService(mover_s).play(game.id, mover, game.version, legal_moves(state)[0])
        decoded.clear()
        stored = await mover_s.games.game(game.id)
        assert decoded == []  # as its own move left it
        read = await other.games.game(game.id)
        assert decoded == [1]
        assert stored is not None and read is not None
        assert read.version == stored.version and read.state == stored.state
        game = stored
