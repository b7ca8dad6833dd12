"""Presses on the private hand: play a tile (asking which end, open or closed, when it
matters), draw, pass, and build a move of several doubles step by step."""

from __future__ import annotations

from collections.abc import Callable

from aiogram import Router
from aiogram.types import CallbackQuery

from bot.core.errors import GameError
from bot.core.records import GameRow
from bot.core.service import GameService
from bot.core.turns import Turns
from bot.game.moves import Move
from bot.game.state import GameState
from bot.telegram.buttons import (
    Ask,
    Asked,
    DoublesButton,
    MoveButton,
    built_move,
    pressed_move,
)
from bot.telegram.keyboards import ask_keyboard
from bot.telegram.messenger import Messenger
from bot.ui import hand as hand_words
from bot.ui.i18n import Texts

router = Router(name="play")

ANSWERS = {
    Asked.END: "pick-end",
    Asked.ARM: "pick-end",
    Asked.FACE: "hand-pick-face",
    Asked.DOUBLE: "hand-pick-double",
    Asked.READY: "hand-ready",
}
"""The short answer to a press that asks something."""
QUESTIONS = {
    Asked.END: "hand-ask-end",
    Asked.ARM: "hand-ask-end",
    Asked.FACE: "hand-ask-face",
    Asked.DOUBLE: "hand-ask-double",
    Asked.READY: "hand-ask-ready",
}
"""What the hand's text says while its buttons ask something (the toast goes by)."""


@router.callback_query(MoveButton.filter())
async def press_tile(
    callback: CallbackQuery,
    callback_data: MoveButton,
    service: GameService,
    messenger: Messenger,
    turns: Turns,
    t: Texts,
) -> None:
    button = callback_data

    def answer(state: GameState) -> Move | Ask:
        return pressed_move(button, state)

    await _press(callback, button, answer, service, messenger, turns, t)


@router.callback_query(DoublesButton.filter())
async def press_step(
    callback: CallbackQuery,
    callback_data: DoublesButton,
    service: GameService,
    messenger: Messenger,
    turns: Turns,
    t: Texts,
) -> None:
    button = callback_data

    def answer(state: GameState) -> Move | Ask:
        return built_move(button, state)

    await _press(callback, button, answer, service, messenger, turns, t)


async def _press(
    callback: CallbackQuery,
    button: MoveButton | DoublesButton,
    answer: Callable[[GameState], Move | Ask],
    service: GameService,
    messenger: Messenger,
    turns: Turns,
    t: Texts,
) -> None:
    """A hand button of a game at a version: the move it means is played, or the hand asks
    what comes first (its buttons swapped, the move as built shown)."""
    game_id, version = button.game, button.version
    user_id = callback.from_user.id
    back = await service.present(game_id, user_id)
    if back is not None:  # the computer played for them: the seat is theirs again
        turns.follow(back)
        messenger.hands.again(back, user_id)
        await callback.answer(t("welcome-back"))
        return

    def choose(state: GameState) -> Move | None:
        meant = answer(state)
        return None if isinstance(meant, Ask) else meant

    game = await service.press(game_id, user_id, version, choose, turns.after)
    if game is None:  # played
        await callback.answer()
        return
    state = game.state
    assert state is not None
    ask = answer(state)
    assert isinstance(ask, Ask)
    if callback.message is None:
        raise GameError("no-such-game")
    _show(game, state, version, ask, callback.message.message_id, messenger, t)
    key = ANSWERS.get(ask.asked)
    await callback.answer(t(key) if key is not None else None)


def _show(
    game: GameRow,
    state: GameState,
    version: int,
    ask: Ask,
    pressed: int,
    messenger: Messenger,
    t: Texts,
) -> None:
    """Swap the hand's buttons for `ask`, on the hand as stored when the swap goes out (the
    press may come from the one a restart, /start or the turn's first hand replaced, or
    from one not yet stored); the question and a move being built are shown under the
    hand (none when the buttons are the tiles again)."""
    keyboard = ask_keyboard(t, game.id, version, state, ask)
    lines = [] if ask.asked is Asked.TILES else [_question(t, state, ask)]
    if ask.asked not in {Asked.TILES, Asked.END} and (ask.placed or ask.tile >= 0):
        lines.append(hand_words.building(t, state, ask.placed, ask.tile))
    line = "\n".join(lines) if lines else None
    messenger.hands.show_choice(game, state.to_move, pressed, keyboard, line)


def _question(t: Texts, state: GameState, ask: Ask) -> str:
    """The hand's question in words that name what its buttons show."""
    key = QUESTIONS[ask.asked]
    if ask.asked is Asked.DOUBLE and not ask.placed:
        key = "hand-ask-first-double"
    elif ask.asked is Asked.READY and not ask.choices:
        key = "hand-ask-last"
    tile = state.rules.tiles.name(ask.tile) if ask.tile >= 0 else ""
    return t(key, tile=tile)
