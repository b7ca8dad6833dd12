"""The one door for what a person does at their hand (`GameService.act`), without any
shell: a choice is read once under the game's lock — the move played and the game moved
on, or the question with the state it was asked on, or a refusal that changes nothing —
and a person back from away gets their seat back first."""

from __future__ import annotations

import pytest

from bot.core.errors import GameError
from bot.core.guarded import game_state
from bot.core.rows import GameRow
from bot.core.screen import Turn
from bot.core.storage import Storage
from bot.core.tables import Moved, Pending, Returned
from bot.game.choosing import Asking, Choice, Chose, Query
from bot.game.engine import legal_moves
from bot.game.moves import Play
from tests.core.test_timers import clocks, started, storage  # noqa: F401 - the fixture


class Onward:
    """What the service was wired to: the turns it stored, the games it moved on."""

    def __init__(self) -> None:
        self.turns: list[Turn] = []
        self.followed: list[int] = []

    async def after(self, turn: Turn) -> None:
        self.turns.append(turn)

    def follow(self, game: GameRow) -> None:
        self.followed.append(game.id)


async def test_a_choice_plays_asks_or_is_refused_through_one_door(
    storage: Storage,  # noqa: F811 - the fixture
) -> None:
    _, service, _, _ = clocks(storage)
    game = await started(service, "goat turn_timeout=0")
    onward = Onward()
    service.wire(onward)
    state = game_state(game)
    mover = game.players[state.to_move].user_id

    back = await service.act(game.id, mover, game.version, Choice(Chose.BACK))
    assert back == Pending(game, state, Asking(Query.TILES))
    with pytest.raises(GameError) as refused:  # a tile past the set: as a forged button
        await service.act(game.id, mover, game.version, Choice(Chose.TILE, 255))
    assert refused.value.key == "does-not-fit"
    assert await service.game(game.id) == game and onward.turns == []

    move = next(m for m in legal_moves(state) if isinstance(m, Play))
    choice = Choice(Chose.TILE, move.tile, move.end)
    assert await service.act(game.id, mover, game.version, choice) == Moved(move)
    (turn,) = onward.turns  # moved on by what the service was wired to, once
    assert turn.before == state and turn.game.version == game.version + 1
    with pytest.raises(GameError) as stale:
        await service.act(game.id, mover, game.version, choice)
    assert stale.value.key in {"stale", "not-your-turn"}


async def test_a_person_back_from_away_gets_their_seat_back_and_nothing_is_played(
    storage: Storage,  # noqa: F811 - the fixture
) -> None:
    _, service, _, _ = clocks(storage)
    game = await started(service, "goat turn_timeout=0")
    onward = Onward()
    service.wire(onward)
    seat = game_state(game).to_move
    await storage.games.set_missed(game.id, seat, 3, True)
    user = game.players[seat].user_id

    acted = await service.act(game.id, user, game.version, Choice(Chose.DRAW))
    assert isinstance(acted, Returned) and not acted.game.players[seat].away
    assert onward.followed == [game.id] and onward.turns == []
    stored = await service.game(game.id)
    assert stored is not None and stored.version == game.version
