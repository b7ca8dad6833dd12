"""The room's hand keyboard with big sets: readable rows, buttons within Telegram's 64 bytes."""

from __future__ import annotations

from bot.game import parse_rules
from bot.game.moves import Draw, Play
from bot.telegram.keyboards import TILES_PER_ROW, hand_keyboard
from bot.ui.i18n import texts_for
from bot.ui.texts import PLAYABLE


def test_a_double_12_hand_of_every_tile_fits_the_limits():
    rules = parse_rules("room set=12", players=10)
    hand = list(range(rules.tiles.size))  # far more than any hand: every tile up to 12-12
    legal = [Play(t, end) for t in hand[::3] for end in (0, 1)] + [Draw()]
    keyboard = hand_keyboard(texts_for("ru"), 2**53, 10**9, rules, hand, legal)
    rows = keyboard.inline_keyboard
    assert all(len(row) <= TILES_PER_ROW for row in rows)
    buttons = [button for row in rows for button in row]
    assert all(len((b.callback_data or "").encode()) <= 64 for b in buttons)
    assert sum(b.text.startswith("✅") for b in buttons) == len(hand[::3])
    assert f"{PLAYABLE}12-12" in {b.text for b in buttons}
