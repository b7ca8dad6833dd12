"""Presses on the private hand: play a tile (asking which end when it matters), draw, pass."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import CallbackQuery

from bot.game.engine import DRAW, PASS, legal_moves
from bot.game.moves import Move, Play, PlayDoubles
from bot.game.state import GameState
from bot.game.tiles import tiles_of
from bot.handlers.common import answer_then_show
from bot.i18n import Texts
from bot.keyboards import MoveButton, hand_keyboard
from bot.messenger import Messenger
from bot.robots import Robots
from bot.service import GameError, GameService
from bot.timers import Timers

router = Router(name="play")


def _chosen(button: MoveButton, state: GameState) -> Move | None:
    """The move a press means, or None when the tile fits two ends differently."""
    legal = legal_moves(state)
    if button.kind == "d":
        return DRAW
    if button.kind == "p":
        return PASS
    if button.kind == "2":
        return next((m for m in legal if isinstance(m, PlayDoubles)), PlayDoubles((), ()))
    if button.end >= 0:
        return Play(button.tile, button.end)
    plays = [m for m in legal if isinstance(m, Play) and m.tile == button.tile]
    if not plays:
        raise GameError("does-not-fit")
    same_ends = len(set(state.ends)) == 1
    return plays[0] if len(plays) == 1 or same_ends else None


@router.callback_query(MoveButton.filter())
async def press(
    callback: CallbackQuery,
    callback_data: MoveButton,
    service: GameService,
    messenger: Messenger,
    robots: Robots,
    timers: Timers,
    t: Texts,
) -> None:
    button, user_id = callback_data, callback.from_user.id
    back = await service.present(button.game, user_id)
    if back is not None:  # the computer played for them: the seat is theirs again
        await callback.answer(t("welcome-back"))
        timers.arm(back)
        messenger.hands_again(back, user_id)
        return
    state = await service.my_turn(button.game, user_id, button.version)
    move = None if button.kind == "b" else _chosen(button, state)
    if move is None:
        await _ask_or_restore(callback, button, service, messenger, state, t)
        return
    await service.play(
        button.game, user_id, button.version, move, answer_then_show(callback, robots)
    )


async def _ask_or_restore(
    callback: CallbackQuery,
    button: MoveButton,
    service: GameService,
    messenger: Messenger,
    state: GameState,
    t: Texts,
) -> None:
    """Swap the hand's buttons for a left/right choice, or back to the tiles (on the hand
    as stored: after a restart the press may come from the one it replaced)."""
    game = await service.storage.game(button.game)
    if game is None or callback.message is None:
        raise GameError("no-such-game")
    hand = list(tiles_of(state.hands[state.to_move]))
    choosing = None if button.kind == "b" else button.tile
    legal = legal_moves(state)
    keyboard = hand_keyboard(t, game.id, button.version, state.rules, hand, legal, choosing)
    await callback.answer(t("pick-end") if choosing is not None else None)
    shown = game.players[state.to_move].hand_message_id or callback.message.message_id
    messenger.show_choice(game, callback.from_user.id, shown, keyboard)
