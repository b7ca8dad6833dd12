"""/endgame (creator or admin, confirmed) and /leave."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from bot import texts
from bot.handlers.common import IN_GROUP, is_admin, manages, topic
from bot.keyboards import EndGame, end_game_keyboard
from bot.messenger import Messenger
from bot.service import GameError, GameService

router = Router(name="admin")


@router.message(Command("endgame"), IN_GROUP)
async def end_game(message: Message, service: GameService, bot: Bot) -> None:
    assert message.from_user is not None
    game = await service.storage.open_game(message.chat.id, topic(message))
    if game is None:
        await message.reply(texts.NO_OPEN_GAME)
        return
    user_id = message.from_user.id
    if not await manages(bot, game, user_id):
        await message.reply(texts.NOT_CREATOR_OR_ADMIN)
        return
    await message.reply(texts.ENDGAME_ASK, reply_markup=end_game_keyboard(game.id))


@router.callback_query(EndGame.filter(F.confirm))
async def end_confirmed(
    callback: CallbackQuery,
    callback_data: EndGame,
    service: GameService,
    messenger: Messenger,
    bot: Bot,
) -> None:
    game = await service.storage.game(callback_data.game)
    user_id = callback.from_user.id
    admin = game is not None and await is_admin(bot, game.chat_id, user_id)
    try:
        game = await service.cancel(callback_data.game, user_id, admin, "ended")
    except GameError as error:
        await callback.answer(str(error), show_alert=True)
        return
    await callback.answer(texts.CANCELLED)
    await messenger.close_lobby(game, texts.CANCELLED)
    await messenger.close_hands(game, texts.CANCELLED)
    if isinstance(callback.message, Message):
        await callback.message.edit_text(texts.ENDED_BY.format(name=callback.from_user.full_name))


@router.callback_query(EndGame.filter(~F.confirm))
async def end_declined(
    callback: CallbackQuery, callback_data: EndGame, service: GameService, bot: Bot
) -> None:
    game = await service.storage.game(callback_data.game)
    if game is not None and not await manages(bot, game, callback.from_user.id):
        await callback.answer(texts.NOT_CREATOR_OR_ADMIN, show_alert=True)
        return
    await callback.answer(texts.ENDGAME_KEEP)
    if isinstance(callback.message, Message):
        await callback.message.edit_text(texts.ENDGAME_KEEP)


@router.message(Command("leave"), IN_GROUP)
async def leave(message: Message, service: GameService, messenger: Messenger) -> None:
    assert message.from_user is not None
    game = await service.storage.open_game(message.chat.id, topic(message))
    user_id = message.from_user.id
    try:
        if game is None:
            raise GameError(texts.NO_OPEN_GAME)
        if game.status == "lobby":
            await messenger.show_lobby(await service.leave_lobby(game.id, user_id))
            await message.reply("Вы вышли из-за стола.")
            return
        await service.leave_game(game.id, user_id, messenger.show_turn)
    except GameError as error:
        await message.reply(str(error))
