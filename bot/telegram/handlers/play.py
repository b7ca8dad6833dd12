"""Presses on the private hand: play a tile (asking which end when it matters), draw, pass."""

from __future__ import annotations

from functools import partial

from aiogram import Router
from aiogram.types import CallbackQuery

from bot.core.errors import GameError
from bot.core.service import GameService
from bot.core.turns import Turns
from bot.game.engine import legal_moves
from bot.game.tiles import tiles_of
from bot.telegram.buttons import MoveButton, MoveKind, pressed_move
from bot.telegram.keyboards import hand_keyboard
from bot.telegram.messenger import Messenger
from bot.ui.i18n import Texts

router = Router(name="play")


@router.callback_query(MoveButton.filter())
async def press(
    callback: CallbackQuery,
    callback_data: MoveButton,
    service: GameService,
    messenger: Messenger,
    turns: Turns,
    t: Texts,
) -> None:
    button, user_id = callback_data, callback.from_user.id
    back = await service.present(button.game, user_id)
    if back is not None:  # the computer played for them: the seat is theirs again
        turns.follow(back)
        messenger.hands.again(back, user_id)
        await callback.answer(t("welcome-back"))
        return
    choose = partial(pressed_move, button)
    game = await service.press(button.game, user_id, button.version, choose, turns.after)
    if game is None:  # played
        await callback.answer()
        return
    # the tile fits two ends differently (or back to the tiles): swap the hand's buttons,
    # on the hand as stored when the swap goes out (the press may come from the one a
    # restart, /start or the turn's first hand replaced, or from one not yet stored)
    state = game.state
    assert state is not None
    hand = list(tiles_of(state.hands[state.to_move]))
    choosing = None if button.kind is MoveKind.BACK else button.tile
    legal = legal_moves(state)
    keyboard = hand_keyboard(t, game.id, button.version, state.rules, hand, legal, choosing)
    if callback.message is None:
        raise GameError("no-such-game")
    messenger.hands.show_choice(game, state.to_move, callback.message.message_id, keyboard)
    await callback.answer(t("pick-end") if choosing is not None else None)
