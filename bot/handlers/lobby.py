"""Lobby: /newgame, joining through the deep link, leave, start, cancel, settings."""

from __future__ import annotations

import re
from functools import partial

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
    opened_private_chat,
    player,
    topic,
)
from bot.i18n import Texts
from bot.keyboards import LobbyAction, LobbyOption
from bot.messenger import Messenger, message_link
from bot.robots import Robots
from bot.service import GameError, GameService
from bot.timers import Timers

router = Router(name="lobby")
JOIN_PAYLOAD = re.compile(r"^j(\d+)$")


@router.message(Command("newgame"), IN_GROUP)
async def new_game(
    message: Message,
    command: CommandObject,
    service: GameService,
    messenger: Messenger,
    timers: Timers,
    t: Texts,
) -> None:
    assert message.from_user is not None
    chat = message.chat
    await service.storage.remember_chat(chat.id, chat.type, chat.title or "")
    creator = await player(service.storage, message.from_user)
    defaults = (await service.storage.chat_settings(chat.id)).options
    game, created = await service.new_lobby(
        chat.id, topic(message), creator, command.args or "", defaults
    )
    if created:
        timers.arm(game)
        messenger.show_lobby(game)
        messenger.call_waiters(game, chat.title or "")
        return
    where = game.lobby_message_id if game.status == "lobby" else game.table_message_id
    link = message_link(chat.id, where)
    markup = (
        InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text=t("to-game"), url=link)]])
        if link
        else None
    )
    reply_to = (
        ReplyParameters(message_id=where, allow_sending_without_reply=True) if where else None
    )
    await message.answer(t("already-running"), reply_markup=markup, reply_parameters=reply_to)


@router.message(Command("newgame", "settings", "nextgame"), IN_PRIVATE)
async def group_command_in_private(message: Message, t: Texts) -> None:
    await message.answer(t("groups-only"))


@router.message(CommandStart(deep_link=True, magic=F.args.regexp(JOIN_PAYLOAD)), IN_PRIVATE)
async def join(
    message: Message, command: CommandObject, service: GameService, messenger: Messenger, t: Texts
) -> None:
    assert message.from_user is not None and command.args is not None
    seated = await opened_private_chat(service.storage, message.from_user)
    match = JOIN_PAYLOAD.match(command.args)
    assert match is not None
    game = await service.join(int(match.group(1)), seated)
    messenger.show_lobby(game)
    link = message_link(game.chat_id, game.lobby_message_id)
    lines = [t("joined")] + ([t("joined-table", link=link)] if link else [])
    await message.answer("\n".join(lines))


@router.callback_query(LobbyAction.filter(F.action == "leave"))
async def leave(
    callback: CallbackQuery,
    callback_data: LobbyAction,
    service: GameService,
    messenger: Messenger,
    t: Texts,
) -> None:
    game = await service.leave_lobby(callback_data.game, callback.from_user.id)
    await callback.answer(t("left-table"))
    messenger.show_lobby(game)


@router.callback_query(LobbyAction.filter(F.action.startswith("robot_")))
async def add_robot(
    callback: CallbackQuery,
    callback_data: LobbyAction,
    service: GameService,
    messenger: Messenger,
    t: Texts,
) -> None:
    level = callback_data.action.removeprefix("robot_")
    if level not in texts.ROBOT_LEVELS:
        raise GameError("unknown-button")
    game = await service.add_robot(
        callback_data.game, callback.from_user.id, level, partial(texts.robot_name, t, level)
    )
    await callback.answer()
    messenger.show_lobby(game)


@router.callback_query(LobbyAction.filter(F.action == "start"))
async def start(
    callback: CallbackQuery,
    callback_data: LobbyAction,
    service: GameService,
    robots: Robots,
    t: Texts,
) -> None:
    show = answer_then_show(callback, robots, t("dealing"))
    await service.start(callback_data.game, callback.from_user.id, show)


@router.callback_query(LobbyAction.filter(F.action == "cancel"))
async def cancel(
    callback: CallbackQuery,
    callback_data: LobbyAction,
    service: GameService,
    messenger: Messenger,
    bot: Bot,
    t: Texts,
) -> None:
    game = await service.storage.game(callback_data.game)
    admin = game is not None and await is_admin(bot, game.chat_id, callback.from_user.id)
    game = await service.cancel(callback_data.game, callback.from_user.id, admin, "cancelled")
    await callback.answer(t("cancelled"))
    messenger.close_lobby(game, "cancelled")


@router.callback_query(LobbyAction.filter(F.action.in_({"settings", "back"})))
async def settings(
    callback: CallbackQuery,
    callback_data: LobbyAction,
    service: GameService,
    messenger: Messenger,
    t: Texts,
) -> None:
    game = await service.storage.game(callback_data.game)
    if game is None or game.status != "lobby":
        raise GameError("no-such-game")
    if callback.from_user.id != game.creator_id:
        raise GameError("not-creator")
    await callback.answer()
    messenger.show_lobby(game, settings=callback_data.action == "settings")


@router.callback_query(LobbyOption.filter())
async def set_option(
    callback: CallbackQuery,
    callback_data: LobbyOption,
    service: GameService,
    messenger: Messenger,
    t: Texts,
) -> None:
    game = await service.set_option(
        callback_data.game, callback.from_user.id, callback_data.key, callback_data.value
    )
    await callback.answer()
    messenger.show_lobby(game, settings=True)
