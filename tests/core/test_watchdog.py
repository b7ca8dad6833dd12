"""The watchdog finds a running game without a way forward — no computer's move on its way,
no clock, no hand with buttons — and repairs it, saying so as an error."""

from __future__ import annotations

import logging

import pytest

from bot.core.computers import Computers
from bot.core.follow_up import FollowUp
from bot.core.storage import Storage
from bot.core.watchdog import Watchdog
from tests.core.test_timers import clocks, started, storage  # noqa: F401 - the fixture


async def test_each_missing_leg_is_repaired(
    storage: Storage,  # noqa: F811 - the fixture
    caplog: pytest.LogCaptureFixture,
) -> None:
    _, service, timers, screen = clocks(storage)
    computers = Computers(service, pace=3600)  # thinks for an hour: busy, never moves
    follow_up = FollowUp(screen, computers, timers)
    watchdog = Watchdog(service, follow_up)
    game = await started(service, "goat turn_timeout=60")
    assert game.state is not None
    try:
        follow_up.follow(game)
        assert await watchdog.check() == {}  # a clock, a hand: nothing to do

        timers._tasks.pop(game.id).cancel()  # the clock is lost
        assert await watchdog.check() == {game.id: ["clock"]}
        assert timers.armed(game.id)

        screen.live = False  # the mover's hand never arrived
        assert await watchdog.check() == {game.id: ["hand"]}
        assert screen.anew == [game.id]
        screen.live = True

        # the person is away: the computer plays their seat, but nobody woke it
        await storage.games.set_missed(game.id, game.state.to_move, 3, True)
        with caplog.at_level(logging.ERROR, logger="bot.core.watchdog"):
            assert await watchdog.check() == {game.id: ["computer"]}
        assert computers.busy(game.id)
        assert await watchdog.check() == {}
        assert f"game {game.id} at move {game.version} had no ['computer']" in caplog.text
    finally:
        await computers.close()
        await timers.close()
