"""A hand and the table app: the watchdog counts a person's hand as live while they are in
the app, and from the moment they leave it until the job bringing it up to date has run
(or `COMING_BACK` seconds passed: another worker may be the one bringing it)."""

from __future__ import annotations

import pytest
from aiogram import Bot

import bot.telegram.messenger.hands as hands_module
from bot.core.outbox import Outbox
from bot.core.presence import Presence
from bot.core.storage import Storage
from bot.game.state import GameState
from bot.telegram.courier import Courier
from bot.telegram.messenger.gateway import Gateway
from bot.telegram.messenger.hands import Hands
from bot.telegram.messenger.parcels import pack, unpack
from bot.telegram.pacing import Limits, Pacing
from tests.core.test_timers import clocks, started, storage  # noqa: F401 - the fixture


async def test_a_hand_on_its_way_back_from_the_app_is_live(
    storage: Storage,  # noqa: F811 - the fixture
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, service, _, _ = clocks(storage)
    game = await started(service, "goat")
    state = game.state
    assert isinstance(state, GameState)
    courier = Courier(Outbox(storage.database), Pacing(Limits(paced=False)), (pack, unpack), "w")
    presence = Presence()
    bot = Bot("100500:never-asked")  # the courier is not started: nothing is sent
    hands = Hands(Gateway(bot, storage, courier, "kozel_bot", "table"), presence)
    mover = game.players[state.to_move].user_id
    assert not hands.is_live(game), "no hand shown, none on its way, not in the app"
    with presence.at_the_table(game.id, mover):
        assert hands.is_live(game), "in the app"
    assert hands.is_live(game), "left the app: the hand is on its way"
    await hands._back((game.id, mover))  # the job: it posts the hand itself
    assert hands.is_live(game), "its hand posted"
    hands._posted.clear()  # (as if said and lost)
    with presence.at_the_table(game.id, mover):
        pass  # in and out again: this time the job is another worker's
    assert hands.is_live(game)
    monkeypatch.setattr(hands_module, "COMING_BACK", 0.0)
    assert not hands.is_live(game), "only for a while: then the watchdog repairs it"
    await courier.close()
