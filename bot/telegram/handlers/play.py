"""Presses on the private hand: play a tile (asking which end, open or closed, when it
matters), draw, pass, and build a move of several doubles step by step."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import CallbackQuery

from bot.core.errors import GameError
from bot.core.service import GameService
from bot.core.tables import Moved, Pending, Returned
from bot.game.choosing import Asking, Query
from bot.game.state import GameState
from bot.telegram.buttons import DoublesButton, MoveButton, choice_of
from bot.telegram.keyboards import ask_keyboard
from bot.telegram.messenger import Messenger
from bot.ui import hand as hand_words
from bot.ui.i18n import Texts

router = Router(name="play")

ANSWERS = {
    Query.END: "pick-end",
    Query.ARM: "pick-end",
    Query.FACE: "hand-pick-face",
    Query.DOUBLE: "hand-pick-double",
    Query.READY: "hand-ready",
}
"""The short answer to a press that asks something."""
QUESTIONS = {
    Query.END: "hand-ask-end",
    Query.ARM: "hand-ask-end",
    Query.FACE: "hand-ask-face",
    Query.DOUBLE: "hand-ask-double",
    Query.READY: "hand-ask-ready",
}
"""What the hand's text says while its buttons ask something (the toast goes by)."""


@router.callback_query(MoveButton.filter())
async def press_tile(
    callback: CallbackQuery,
    callback_data: MoveButton,
    service: GameService,
    messenger: Messenger,
    t: Texts,
) -> None:
    await _press(callback, callback_data, service, messenger, t)


@router.callback_query(DoublesButton.filter())
async def press_step(
    callback: CallbackQuery,
    callback_data: DoublesButton,
    service: GameService,
    messenger: Messenger,
    t: Texts,
) -> None:
    await _press(callback, callback_data, service, messenger, t)


async def _press(
    callback: CallbackQuery,
    button: MoveButton | DoublesButton,
    service: GameService,
    messenger: Messenger,
    t: Texts,
) -> None:
    """A hand button of a game at a version, through the core's one door: the move it means
    is played, or the hand asks what comes first (its buttons swapped, the move as built
    shown), or a person back from away is welcomed."""
    user_id = callback.from_user.id
    acted = await service.act(button.game, user_id, button.version, choice_of(button))
    if isinstance(acted, Returned):
        messenger.hands.again(acted.game, user_id)
        await callback.answer(t("welcome-back"))
        return
    if isinstance(acted, Moved):
        await callback.answer()
        return
    if callback.message is None:
        raise GameError("no-such-game")
    _show(acted, button.version, callback.message.message_id, messenger, t)
    key = ANSWERS.get(acted.asking.query)
    await callback.answer(t(key) if key is not None else None)


def _show(pending: Pending, version: int, pressed: int, messenger: Messenger, t: Texts) -> None:
    """Swap the hand's buttons for what it asks, on the hand as stored when the swap goes
    out (the press may come from the one a restart, /start or the turn's first hand
    replaced, or from one not yet stored); the question and a move being built are shown
    under the hand (none when the buttons are the tiles again)."""
    game, state, ask = pending.game, pending.state, pending.asking
    keyboard = ask_keyboard(t, game.id, version, state, ask)
    lines = [] if ask.query is Query.TILES else [_question(t, state, ask)]
    if ask.query not in {Query.TILES, Query.END} and (ask.placed or ask.tile >= 0):
        lines.append(hand_words.building(t, state, ask.placed, ask.tile))
    line = "\n".join(lines) if lines else None
    messenger.hands.show_choice(game, state.to_move, pressed, keyboard, line)


def _question(t: Texts, state: GameState, ask: Asking) -> str:
    """The hand's question in words that name what its buttons show."""
    key = QUESTIONS[ask.query]
    if ask.query is Query.DOUBLE and not ask.placed:
        key = "hand-ask-first-double"
    elif ask.query is Query.READY and not ask.choices:
        key = "hand-ask-last"
    tile = state.rules.tiles.name(ask.tile) if ask.tile >= 0 else ""
    return t(key, tile=tile)
