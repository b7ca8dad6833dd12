"""The hand's questions and the move of several doubles built in its buttons: every step's
data within Telegram's 64 bytes and read back whole as the choice it carries, each step
leading to the next, the move sent once «done», and the buttons of the previous version
still doing what they did (`tests/game/test_choosing.py`: what a choice means)."""

from __future__ import annotations

from itertools import product

import pytest
from aiogram.types import InlineKeyboardMarkup

from bot.game import apply, legal_moves
from bot.game.choosing import Asking, Choice, Chose, Placed, Query, meaning
from bot.game.illegal import IllegalMoveError
from bot.game.moves import Move, Play, PlayDoubles
from bot.game.state import GameState
from bot.telegram.buttons import (
    BuildAct,
    DoublesButton,
    MoveButton,
    choice_of,
    doubles_button,
    packed,
    tile_button,
    unpacked,
)
from bot.telegram.keyboards import ask_keyboard, hand_keyboard
from bot.ui.i18n import texts_for
from bot.ui.texts import PLAYABLE
from tests.hand_tables import DONKEY, SEA_GOAT, donkey_table, in_order, sea_goat_table
from tests.helpers import tile

RU = texts_for("ru")
BIG = 2**63 - 1  # the largest game id and move number a button may carry


def test_placed_doubles_pack_small_and_come_back_whole() -> None:
    every = [Placed(t, arm, closed) for t, arm, closed in product(range(91), range(4), (0, 1))]
    for i in range(0, len(every), 4):
        four = tuple(Placed(p.tile, p.arm, bool(p.closed)) for p in every[i : i + 4])
        assert len(packed(four)) == 8
        assert unpacked(packed(four)) == four
    button = doubles_button(BIG, BIG, every[-4:], 90, 3, 1)
    data = button.pack()
    assert len(data.encode()) <= 64, data
    assert DoublesButton.unpack(data) == button


def keyboard_data(keyboard: InlineKeyboardMarkup) -> list[str]:
    return [b.callback_data or "" for row in keyboard.inline_keyboard for b in row]


def steps_of(state: GameState, keyboard: InlineKeyboardMarkup) -> list[str]:
    """The data of every button, each within the limit and read back as it was."""
    data = keyboard_data(keyboard)
    for item in data:
        assert len(item.encode()) <= 64, item
        factory = DoublesButton if item.startswith("h:") else MoveButton
        assert factory.unpack(item).pack() == item
    return data


def press(state: GameState, data: str) -> Move | Asking:
    """What a pressed button's data means in `state`."""
    factory = DoublesButton if data.startswith("h:") else MoveButton
    return meaning(state, choice_of(factory.unpack(data)))


def test_every_step_of_every_move_of_doubles_fits_and_leads_to_a_legal_move() -> None:
    """Walk every path through the questions from the hand, at the largest ids: each one
    ends in a legal move, and every legal move of the doubles is reached."""
    state = donkey_table()
    hand = [t for t in range(DONKEY.tiles.size) if state.hands[1] >> t & 1]
    start = hand_keyboard(RU, BIG, BIG, DONKEY, hand, legal_moves(state))
    reached: set[Move] = set()
    steps_of(state, start)
    waiting = [
        b.callback_data or ""
        for row in start.inline_keyboard
        for b in row
        if b.text.startswith(PLAYABLE) or (b.callback_data or "").startswith("h:")
    ]
    seen: set[str] = set()
    while waiting:
        data = waiting.pop()
        if data in seen:
            continue
        seen.add(data)
        meant = press(state, data)
        if isinstance(meant, Asking):
            if meant.query is not Query.TILES:
                waiting += steps_of(state, ask_keyboard(RU, BIG, BIG, state, meant))
            continue
        apply(state, meant)  # the engine takes it as built
        assert in_order(meant) in legal_moves(state), meant
        reached.add(in_order(meant))
    doubles = {m for m in legal_moves(state) if isinstance(m, PlayDoubles)}
    assert doubles and doubles <= reached


def test_each_step_button_carries_its_choice() -> None:
    state = donkey_table()
    three, one, five_six = (tile(DONKEY, name) for name in ("3-3", "1-1", "5-6"))
    closed = Placed(three, 0, True)
    assert choice_of(tile_button(1, 2, three)) == Choice(Chose.TILE, three)
    assert choice_of(doubles_button(1, 2, (), three, 0, 1)) == Choice(Chose.PLACE, three, 0, True)
    assert choice_of(doubles_button(1, 2, (closed,), one, 1, 0)) == Choice(
        Chose.PLACE, one, 1, False, (closed,)
    )
    done = doubles_button(1, 2, (closed, Placed(one, 1)), act=BuildAct.DONE)
    assert press(state, done.pack()) == PlayDoubles((three, one), (0, 1), (True, False))
    # a plain tile that fits two arms asks which, by arrow
    ask = press(state, tile_button(1, 2, five_six).pack())
    assert ask == Asking(Query.END, tile=five_six, choices=(2, 3))
    labels = [b.text for row in ask_keyboard(RU, 1, 2, state, ask).inline_keyboard for b in row]
    assert labels == ["⬆ 5", "⬇ 5", RU("back")]


@pytest.mark.parametrize(("number", "arm", "face"), [(255, -1, -1), (28, -1, -1), (100, 0, 0)])
def test_a_tile_number_past_the_set_is_refused(number: int, arm: int, face: int) -> None:
    """A forged step names a tile the set has not: refused before its pips are read."""
    with pytest.raises(IllegalMoveError):
        press(donkey_table(), doubles_button(1, 2, (), number, arm, face).pack())
    with pytest.raises(IllegalMoveError):
        press(donkey_table(), MoveButton(game=1, version=2, kind="t", tile=number).pack())


def test_sea_goats_pair_is_one_button_then_done() -> None:
    rules, state = SEA_GOAT, sea_goat_table()
    pair = next(m for m in legal_moves(state) if isinstance(m, PlayDoubles))
    hand = [t for t in range(rules.tiles.size) if state.hands[0] >> t & 1]
    keyboard = hand_keyboard(RU, 1, 2, rules, hand, legal_moves(state))
    (button,) = [b for row in keyboard.inline_keyboard for b in row if b.text.startswith("Два")]
    ask = press(state, button.callback_data or "")
    assert isinstance(ask, Asking) and ask.query is Query.READY and not ask.choices
    (done,) = [d for d in keyboard_data(ask_keyboard(RU, 1, 2, state, ask)) if ":d:" in d]
    assert press(state, done) == pair
    # picking one of the two doubles starts the same move
    ask = press(state, tile_button(1, 2, tile(rules, "2-2")).pack())
    assert ask == Asking(Query.READY, (Placed(tile(rules, "2-2"), 0),), choices=(pair.tiles[1],))


def test_the_previous_versions_hand_buttons_do_what_they_did() -> None:
    rules, state = SEA_GOAT, sea_goat_table()
    pair = next(m for m in legal_moves(state) if isinstance(m, PlayDoubles))
    game = "m:7:3"
    assert press(state, f"{game}:2:-1:-1") == pair
    assert press(state, f"{game}:t:{tile(rules, '1-2')}:1") == Play(tile(rules, "1-2"), 1)
    assert press(state, f"{game}:t:{tile(rules, '1-2')}:-1") == Asking(
        Query.END, tile=tile(rules, "1-2"), choices=(0, 1)
    )
    assert press(state, f"{game}:b:-1:-1") == Asking(Query.TILES)
