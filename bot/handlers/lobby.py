"""Lobby: /newgame, joining through the deep link, leave, start, cancel, settings."""

from __future__ import annotations

import re

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import (
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    ReplyParameters,
)

from bot import texts
from bot.handlers.common import (
    IN_GROUP,
    IN_PRIVATE,
    answer_then_show,
    is_admin,
    message_link,
    opened_private_chat,
    player,
    topic,
)
from bot.keyboards import LobbyAction, LobbyOption
from bot.messenger import Messenger
from bot.robots import Robots
from bot.service import GameError, GameService

router = Router(name="lobby")
JOIN_PAYLOAD = re.compile(r"^j(\d+)$")


@router.message(Command("newgame"), IN_GROUP)
async def new_game(
    message: Message, command: CommandObject, service: GameService, messenger: Messenger
) -> None:
    assert message.from_user is not None
    chat = message.chat
    await service.storage.remember_chat(chat.id, chat.type, chat.title or "")
    creator = await player(service.storage, message.from_user)
    try:
        game, created = await service.new_lobby(
            chat.id, topic(message), creator, command.args or ""
        )
    except GameError as error:
        await message.reply(str(error))
        return
    if created:
        await messenger.show_lobby(game)
        return
    where = game.lobby_message_id if game.status == "lobby" else game.table_message_id
    link = message_link(chat.id, where)
    markup = (
        InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text="→ к игре", url=link)]])
        if link
        else None
    )
    reply_to = (
        ReplyParameters(message_id=where, allow_sending_without_reply=True) if where else None
    )
    await message.answer(texts.ALREADY_RUNNING, reply_markup=markup, reply_parameters=reply_to)


@router.message(Command("newgame"), IN_PRIVATE)
async def new_game_in_private(message: Message) -> None:
    await message.answer(texts.GROUPS_ONLY)


@router.message(CommandStart(deep_link=True, magic=F.args.regexp(JOIN_PAYLOAD)), IN_PRIVATE)
async def join(
    message: Message, command: CommandObject, service: GameService, messenger: Messenger
) -> None:
    assert message.from_user is not None and command.args is not None
    seated = await opened_private_chat(service.storage, message.from_user)
    match = JOIN_PAYLOAD.match(command.args)
    assert match is not None
    try:
        game = await service.join(int(match.group(1)), seated)
    except GameError as error:
        await message.answer(str(error))
        return
    await messenger.show_lobby(game)
    link = message_link(game.chat_id, game.lobby_message_id)
    await message.answer(texts.JOINED + (f"\nСтол: {link}" if link else ""))


@router.callback_query(LobbyAction.filter(F.action == "leave"))
async def leave(
    callback: CallbackQuery, callback_data: LobbyAction, service: GameService, messenger: Messenger
) -> None:
    try:
        game = await service.leave_lobby(callback_data.game, callback.from_user.id)
    except GameError as error:
        await callback.answer(str(error), show_alert=True)
        return
    await callback.answer("Вы вышли из-за стола.")
    await messenger.show_lobby(game)


@router.callback_query(LobbyAction.filter(F.action.startswith("robot_")))
async def add_robot(
    callback: CallbackQuery, callback_data: LobbyAction, service: GameService, messenger: Messenger
) -> None:
    level = callback_data.action.removeprefix("robot_")
    if level not in texts.ROBOT_LEVELS:
        await callback.answer(texts.UNKNOWN_BUTTON, show_alert=True)
        return
    try:
        game = await service.add_robot(callback_data.game, callback.from_user.id, level)
    except GameError as error:
        await callback.answer(str(error), show_alert=True)
        return
    await callback.answer()
    await messenger.show_lobby(game)


@router.callback_query(LobbyAction.filter(F.action == "start"))
async def start(
    callback: CallbackQuery, callback_data: LobbyAction, service: GameService, robots: Robots
) -> None:
    show = answer_then_show(callback, robots, "Раздаю!")
    try:
        await service.start(callback_data.game, callback.from_user.id, show)
    except GameError as error:
        await callback.answer(str(error), show_alert=True)


@router.callback_query(LobbyAction.filter(F.action == "cancel"))
async def cancel(
    callback: CallbackQuery,
    callback_data: LobbyAction,
    service: GameService,
    messenger: Messenger,
    bot: Bot,
) -> None:
    game = await service.storage.game(callback_data.game)
    admin = game is not None and await is_admin(bot, game.chat_id, callback.from_user.id)
    try:
        game = await service.cancel(callback_data.game, callback.from_user.id, admin, "cancelled")
    except GameError as error:
        await callback.answer(str(error), show_alert=True)
        return
    await callback.answer(texts.CANCELLED)
    await messenger.close_lobby(game, texts.CANCELLED)


@router.callback_query(LobbyAction.filter(F.action.in_({"settings", "back"})))
async def settings(
    callback: CallbackQuery, callback_data: LobbyAction, service: GameService, messenger: Messenger
) -> None:
    game = await service.storage.game(callback_data.game)
    if game is None or game.status != "lobby":
        await callback.answer(texts.NO_SUCH_GAME, show_alert=True)
        return
    if callback.from_user.id != game.creator_id:
        await callback.answer(texts.NOT_CREATOR, show_alert=True)
        return
    await callback.answer()
    await messenger.show_lobby(game, settings=callback_data.action == "settings")


@router.callback_query(LobbyOption.filter())
async def set_option(
    callback: CallbackQuery, callback_data: LobbyOption, service: GameService, messenger: Messenger
) -> None:
    try:
        game = await service.set_option(
            callback_data.game, callback.from_user.id, callback_data.key, callback_data.value
        )
    except GameError as error:
        await callback.answer(str(error), show_alert=True)
        return
    await callback.answer()
    await messenger.show_lobby(game, settings=True)
