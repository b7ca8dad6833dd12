"""Message jobs kept in the outbox table: every payload the messenger posts comes back from
its JSON equal to what was posted, and a payload this version cannot read is refused."""

from __future__ import annotations

import json

import pytest
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.game import apply, new_game, parse_rules
from bot.game.events import RoundEnded
from bot.telegram.messenger.hand_news import HandNews
from bot.telegram.messenger.lobby import LobbyView
from bot.telegram.messenger.parcels import pack, unpack
from bot.telegram.messenger.table import TableNews
from tests.e2e.checks import bot_choices, plan_fish


def kept(payload: object) -> object:
    return unpack(json.loads(json.dumps(pack(payload))))


def test_every_kind_of_payload_comes_back_as_it_was_posted() -> None:
    rules = parse_rules("goat players=4")
    state, events = new_game(rules, ("Ann", "Bob", "Cid", "Dan"), 7)
    state, played = apply(state, bot_choices(state)[0])
    fish = state
    for move in plan_fish(state) or []:
        fish, _ = apply(fish, move)
    table = TableNews(state, (*events, *played), ("Ann left",), fresh=True, version=3)
    last = TableNews(fish, (), version=9, last=True)
    hand = HandNews(state, 3, drawn=(4, 9), fresh=True)
    closing = HandNews(None, 4, closing="hand-left")
    keyboard = InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="⬆ 5", callback_data="p:1:3:9:1")]]
    )
    ended = next((e for e in fish.history if isinstance(e, RoundEnded)), None)
    payloads: list[object] = [
        (1, table),
        (1, last),
        (1, 2, hand),
        (1, 0, closing),
        (1, LobbyView.SETTINGS),
        (1, "lobby-idle", {"minutes": 10, "name": "Маша"}),
        (5, None, "Двор"),
        (1, 2, 3, 77, keyboard),
        (1,),
    ]
    if ended is not None:
        payloads += [(1, ended, fish), (1, ended, fish, True)]  # the round: before, over
    for payload in payloads:
        assert kept(payload) == payload


def test_the_previous_version_s_table_news_is_not_a_round_s_last_picture() -> None:
    """An outbox row written before `last` existed reads as an ordinary picture; a newer
    picture of the round posted while the last waits keeps it the last."""
    state, _ = new_game(parse_rules("goat players=2"), ("Ann", "Bob"), 7)
    data = pack(TableNews(state, (), version=3))
    del data["v"]["last"]
    assert unpack(data) == TableNews(state, (), version=3)
    last = TableNews(state, (), version=4, last=True)
    assert TableNews(state, (), version=3).then(last).last
    assert last.then(TableNews(state, (), version=5)).last


@pytest.mark.parametrize(
    "data",
    [{"$": "telescope", "v": 1}, {"$": "hand", "v": {"colour": "red"}}, {"$": "state", "v": {}}],
)
def test_a_payload_this_version_cannot_read_is_refused(data: object) -> None:
    with pytest.raises(ValueError):
        unpack(data)
