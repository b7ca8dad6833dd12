"""Turn clocks with a clock moved by hand: the warning, the computer moving for a person,
away seats and coming back, and clocks that go on from stored deadlines after a restart."""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.core.errors import GameError
from bot.core.guarded import AWAY_AFTER, LOBBY_IDLE, game_state
from bot.core.rows import GameRow, Player
from bot.core.screen import Turn
from bot.core.service import GameService
from bot.core.storage import Storage
from bot.core.tables import Returned
from bot.core.timers import WARN_BEFORE, Timers
from bot.game.choosing import Choice, Chose
from bot.game.engine import apply, legal_moves
from bot.game.serial import decode
from bot.game.state import Phase

START = 1_000_000.0
SETTLE_WITHIN = 60.0  # seconds: tasks still busy after that are stuck


class HandClock:
    """Time stands still until `advance` moves it; sleepers wake in order."""

    def __init__(self) -> None:
        self.time = START
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self.time

    async def sleep(self, seconds: float) -> None:
        future = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.time + seconds, next(self._order), future))
        await future

    async def advance(self, seconds: float) -> None:
        target = self.time + seconds
        await self.settle()
        while self._sleepers and self._sleepers[0][0] <= target:
            wake_at, _, future = heapq.heappop(self._sleepers)
            self.time = max(self.time, wake_at)
            if not future.done():
                future.set_result(None)
            await self.settle()
        self.time = target

    async def settle(self) -> None:
        """Let every task that can run, run: until each of the others sleeps on this clock
        (the storage works in a thread, however long a loaded machine takes)."""
        async with asyncio.timeout(SETTLE_WITHIN):
            while True:
                await asyncio.sleep(0.01)
                asleep = sum(not future.done() for *_, future in self._sleepers)
                others = asyncio.all_tasks() - {asyncio.current_task()}
                if sum(not task.done() for task in others) <= asleep:
                    return


class Messages:
    """What the clocks would have told Telegram."""

    def __init__(self) -> None:
        self.turns: list[Turn] = []
        self.warnings: list[tuple[int, int, int]] = []
        self.closed: list[tuple[int, str]] = []
        self.live = True  # the person to move has a hand with buttons
        self.anew: list[int] = []  # games whose mover got their hand anew

    async def show_turn(self, turn: Turn) -> None:
        self.turns.append(turn)

    async def dealt(self, game: GameRow) -> None:
        pass

    async def warn(self, game_id: int, version: int, seconds: int) -> None:
        self.warnings.append((game_id, version, seconds))

    def show_ended(self, game: GameRow) -> None:
        assert game.end_reason is not None
        self.closed.append((game.id, game.end_reason))

    async def resume(self, game: GameRow) -> None:
        pass

    def hand_is_live(self, game: GameRow) -> bool:
        return self.live

    def show_hand_anew(self, game: GameRow) -> None:
        self.anew.append(game.id)


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    opened = await Storage.open(tmp_path / "kozel.sqlite3")
    yield opened
    await opened.close()


async def started(service: GameService, options: str) -> GameRow:
    """A two-person game, dealt."""
    people = [Player(0, 1, "Маша"), Player(0, 2, "Серёжа")]
    for person in people:
        await service.storage.people.remember_user(person.user_id, person.name, None)
        await service.storage.people.set_started(person.user_id)
    game, _ = await service.new_lobby(-100, 0, people[0], options)
    await service.join(game.id, people[1])

    await service.start(game.id, 1)
    row = await service.storage.games.game(game.id)
    assert row is not None
    return row


class Told:
    """A service's way on after a turn: each stored turn to `tell`; the tests arm the
    clocks by hand."""

    def __init__(self, tell: Callable[[Turn], Awaitable[None]]) -> None:
        self.tell = tell

    async def after(self, turn: Turn) -> None:
        await self.tell(turn)

    def follow(self, game: GameRow) -> None:
        pass


def clocks(storage: Storage) -> tuple[HandClock, GameService, Timers, Messages]:
    clock = HandClock()
    service = GameService(storage, clock.now)
    messages = Messages()
    timers = Timers(service, messages, clock)
    return clock, service, timers, messages


async def test_a_warning_then_the_computer_moves_for_the_person(storage: Storage) -> None:
    clock, service, timers, messages = clocks(storage)
    game = await started(service, "goat turn_timeout=60")
    assert game.deadline == START + 60
    service.wire(Told(messages.show_turn))
    timers.arm(game)
    mover = game_state(game).to_move

    await clock.advance(60 - WARN_BEFORE - 1)
    assert messages.warnings == []
    await clock.advance(1)
    assert messages.warnings == [(game.id, game.version, WARN_BEFORE)]
    await clock.advance(WARN_BEFORE - 1)
    assert messages.turns == []
    await clock.advance(1)

    (turn,) = messages.turns
    assert turn.timed_out == mover
    after = await storage.games.game(game.id)
    assert after is not None and after.version == game.version + 1
    assert after.players[mover].missed == 1 and not after.players[mover].away
    # the log holds the computer's move: replaying it gives the stored state
    move = decode((await storage.games.log(game.id))[game.version])
    assert turn.before is not None
    assert apply(turn.before, move)[0] == (turn.closed or turn.state)
    # the other person's clock starts now
    if turn.state.phase is Phase.PLAYING:
        assert after.deadline == clock.now() + 60
    await timers.close()


def counted(
    trips: list[str], name: str, method: Callable[..., Awaitable[Any]]
) -> Callable[..., Awaitable[Any]]:
    async def call(*args: Any, **kwargs: Any) -> Any:
        trips.append(name)
        return await method(*args, **kwargs)

    return call


async def test_three_timeouts_make_the_seat_away_until_a_button_brings_them_back(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock, service, timers, messages = clocks(storage)
    game = await started(service, "goat turn_timeout=30")
    service.wire(Told(messages.show_turn))
    timers.arm(game)
    for _ in range(2 * AWAY_AFTER + 2):  # both run out of time, turn after turn
        before = len(messages.turns)
        await clock.advance(30)
        assert len(messages.turns) == before + 1
        latest = await storage.games.game(game.id)
        assert latest is not None
        if game_state(latest).phase is not Phase.PLAYING:
            break
        timers.arm(latest)
        if any(p.away for p in latest.players):
            break
    latest = await storage.games.game(game.id)
    assert latest is not None
    away = [p for p in latest.players if p.away]
    assert away and all(p.missed >= AWAY_AFTER for p in away)
    assert messages.turns[-1].game.players[messages.turns[-1].timed_out or 0].away
    if game_state(latest).to_move == away[0].seat:
        assert latest.deadline is None  # the computer moves for an away seat at once

    trips: list[str] = []  # the storage's round trips while the press is handled
    for name in ("game", "back", "set_missed", "set_deadline"):
        monkeypatch.setattr(storage.games, name, counted(trips, name, getattr(storage.games, name)))
    press = Choice(Chose.DRAW)  # whatever they pressed: their seat comes back first
    returned = await service.act(game.id, away[0].user_id, latest.version, press)
    assert trips == ["game", "back"]  # one load, one write
    assert isinstance(returned, Returned)
    back = returned.game
    assert back == await storage.games.game(game.id)
    player = back.players[away[0].seat]
    assert player.missed == 0 and not player.away
    if game_state(back).to_move == player.seat:
        assert back.deadline == clock.now() + 30
    with contextlib.suppress(GameError):  # only once: now the press is a press
        assert not isinstance(
            await service.act(game.id, away[0].user_id, back.version, press), Returned
        )
    await timers.close()


async def test_a_move_in_time_stops_the_clock(storage: Storage) -> None:
    clock, service, timers, messages = clocks(storage)
    game = await started(service, "goat turn_timeout=60")
    service.wire(Told(messages.show_turn))
    timers.arm(game)
    state = game_state(game)
    mover = game.players[state.to_move]
    await clock.advance(20)

    async def shown(turn: Turn) -> None:
        timers.arm(turn.game)

    service.wire(Told(shown))
    await service.play(game.id, mover.user_id, game.version, legal_moves(state)[0])
    await clock.advance(45)  # past the first deadline, before the second
    assert messages.turns == []
    await timers.close()


async def test_after_a_restart_a_passed_deadline_fires_at_once(storage: Storage) -> None:
    clock, service, timers, messages = clocks(storage)
    game = await started(service, "goat turn_timeout=60")
    await timers.close()  # the bot stops without arming…
    clock.time += 3600  # …and comes back an hour later
    again = Timers(service, messages, clock)
    open_game = await storage.games.game(game.id)
    assert open_game is not None
    service.wire(Told(messages.show_turn))
    again.arm(open_game)
    await clock.advance(0)
    assert [turn.timed_out for turn in messages.turns] == [game_state(game).to_move]
    await again.close()


async def test_untimed_games_have_no_clock(storage: Storage) -> None:
    _, service, _, _ = clocks(storage)
    game = await started(service, "goat turn_timeout=0")
    assert game.deadline is None


async def test_an_idle_lobby_closes_unless_something_happens_or_it_is_extended(
    storage: Storage,
) -> None:
    clock, service, timers, messages = clocks(storage)
    creator = Player(0, 1, "Маша")
    game, _ = await service.new_lobby(-100, 0, creator, "")
    assert game.deadline == START + LOBBY_IDLE
    timers.arm(game)
    await clock.advance(LOBBY_IDLE - 100)
    await service.join(game.id, Player(0, 2, "Серёжа"))  # something happens: 10 min more
    joined = await storage.games.game(game.id)
    with pytest.raises(GameError):  # a refused press changes nothing, the clock included
        await service.set_option(game.id, 2, "target", "150")
    assert (await storage.games.game(game.id)) == joined
    await clock.advance(100)
    assert messages.closed == []
    await service.extend(game.chat_id, game.thread_id)  # and 10 more on top
    await clock.advance(2 * LOBBY_IDLE - 100 - 1)
    assert messages.closed == []
    await clock.advance(1)
    assert messages.closed == [(game.id, "idle")]
    closed = await storage.games.game(game.id)
    assert closed is not None and closed.status == "cancelled" and closed.end_reason == "idle"
    await timers.close()


async def test_a_clock_that_loses_its_turn_to_another_worker_stores_nothing(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two workers on one database: while this one's clock plays for the person, the other
    stores that turn first (the person pressed there). The clock's move, made from the
    state before, is not stored on top of it, and the clock ends quietly."""
    clock, service, _, _ = clocks(storage)
    game = await started(service, "goat turn_timeout=60")
    told: list[Turn] = []

    async def tell(turn: Turn) -> None:
        told.append(turn)

    service.wire(Told(tell))
    while len(legal_moves(state := game_state(game))) < 2:  # past the forced lead
        await service.play(
            game.id, game.players[state.to_move].user_id, game.version, legal_moves(state)[0]
        )
        row = await storage.games.game(game.id)
        assert row is not None
        game = row
    told.clear()
    other = GameService(storage, clock.now)
    other.wire(Told(tell))
    seat = state.to_move
    pressed, *_, stand_in = legal_moves(state)

    set_missed = storage.games.set_missed

    async def pressed_meanwhile(*args: Any) -> None:
        await other.play(game.id, game.players[seat].user_id, game.version, pressed)
        await set_missed(*args)

    monkeypatch.setattr(storage.games, "set_missed", pressed_meanwhile)
    await service.time_out(game.id, game.version, lambda s, _: stand_in)

    stored = await storage.games.game(game.id)
    assert stored is not None and stored.version == game.version + 1
    assert decode((await storage.games.log(game.id))[game.version]) == pressed
    assert [turn.timed_out for turn in told] == [None]  # the press alone was told
