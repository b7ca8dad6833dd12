"""Lobby: /newgame, joining through the deep link, leave, computers, start, cancel, rules."""

from __future__ import annotations

import re
from functools import partial

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import (
    CallbackQuery,
    Message,
)

from bot.core.chats import Chats
from bot.core.errors import GameError
from bot.core.lobbies import dealt_by
from bot.core.service import GameService
from bot.telegram.buttons import AddComputer, LobbyAct, LobbyAction, LobbyOption, LobbyTeam
from bot.telegram.handlers.common import (
    IN_GROUP,
    IN_PRIVATE,
    admin_of,
    may_be_member,
    opened_private_chat,
    player,
    topic,
)
from bot.telegram.messenger import LobbyView, Messenger, message_link, to_game
from bot.ui import texts
from bot.ui.games import preset_name
from bot.ui.i18n import Texts

router = Router(name="lobby")
JOIN_PAYLOAD = re.compile(r"^j([A-Za-z0-9_-]{16})$")
OLD_JOIN_PAYLOAD = re.compile(r"^j\d{1,18}$")
"""A lobby's link from before the links had secret tokens (`j<game id>`)."""
ALREADY_EVERY = 30.0  # seconds between two «a game is already here» about one message


@router.message(Command("newgame"), IN_GROUP)
async def new_game(
    message: Message,
    command: CommandObject,
    service: GameService,
    chats: Chats,
    messenger: Messenger,
    t: Texts,
) -> None:
    """A new lobby. When the chat (topic) already has a lobby, «a game is already here» at
    most once per half minute, in the game's lane (after the lobby, if that is not out
    yet); when a game runs, the same as an answer to the command (`bot.telegram.asking`:
    while the game plays, in the asker's private chat), with a link to the table."""
    assert message.from_user is not None
    chat = message.chat
    await chats.remember_chat(chat.id, chat.type, chat.title or "")
    creator = await player(chats, message.from_user)
    defaults = (await chats.settings(chat.id)).options
    game, created = await service.new_lobby(
        chat.id, topic(message), creator, command.args or "", defaults
    )
    if created:
        messenger.lobby.show(game)
        messenger.lobby.call_waiters(game, chat.title or "")
        code, overridden = dealt_by(command.args or "")
        if code is not None and overridden:  # what else was typed is not played
            name = preset_name(t, game.rules.preset)
            await message.reply(t("deal-own-game", code=code, name=name))
        return
    if game.state is not None:
        await message.reply(t("already-running"), reply_markup=to_game(t, game)[1])
    elif messenger.lanes.seldom(("already-running", game.id, True), ALREADY_EVERY):
        messenger.lobby.point(game)


@router.message(Command("newgame", "settings", "nextgame"), IN_PRIVATE)
async def group_command_in_private(message: Message, t: Texts) -> None:
    await message.answer(t("groups-only"))


@router.message(CommandStart(deep_link=True, magic=F.args.regexp(JOIN_PAYLOAD)), IN_PRIVATE)
async def join(
    message: Message,
    command: CommandObject,
    service: GameService,
    chats: Chats,
    messenger: Messenger,
    bot: Bot,
    t: Texts,
) -> None:
    """The lobby's «Сесть за стол» link: its secret token names the lobby; someone Telegram
    says is not in the group does not sit down."""
    assert message.from_user is not None and command.args is not None
    seated = await opened_private_chat(chats, message.from_user)
    match = JOIN_PAYLOAD.match(command.args)
    assert match is not None
    game = await service.lobby_by_token(match.group(1), seated.user_id)
    if not await may_be_member(bot, game.chat_id, seated.user_id):
        raise GameError("join-not-member")
    game = await service.join(game.id, seated)
    messenger.lobby.show(game)
    link = message_link(game.chat_id, game.lobby_message_id)
    lines = [t("joined")] + ([t("joined-table", link=link)] if link else [])
    await message.answer("\n".join(lines))


@router.message(CommandStart(deep_link=True, magic=F.args.regexp(OLD_JOIN_PAYLOAD)), IN_PRIVATE)
async def old_join_link(message: Message, chats: Chats, t: Texts) -> None:
    """A link from before the secret tokens: the lobby's message has a new one by now."""
    assert message.from_user is not None
    await opened_private_chat(chats, message.from_user)
    await message.answer(t("join-link-outdated"))


@router.callback_query(LobbyAction.filter(F.action == LobbyAct.LEAVE))
async def leave(
    callback: CallbackQuery,
    callback_data: LobbyAction,
    service: GameService,
    messenger: Messenger,
    t: Texts,
) -> None:
    game = await service.leave_lobby(callback_data.game, callback.from_user.id)
    messenger.lobby.show(game)
    await callback.answer(t("left-table"))


@router.callback_query(LobbyTeam.filter())
async def pick_team(
    callback: CallbackQuery,
    callback_data: LobbyTeam,
    service: GameService,
    messenger: Messenger,
    t: Texts,
) -> None:
    user_id = callback.from_user.id
    game = await service.pick_team(callback_data.game, user_id, callback_data.team)
    messenger.lobby.show(game)
    seat = game.seat_of(user_id)
    team = None if seat is None else game.players[seat].team
    answer = t("team-unpicked") if team is None else t("team-picked", number=team + 1)
    await callback.answer(answer)


@router.callback_query(AddComputer.filter())
async def add_computer(
    callback: CallbackQuery,
    callback_data: AddComputer,
    service: GameService,
    messenger: Messenger,
    t: Texts,
) -> None:
    level = callback_data.level
    game = await service.add_computer(
        callback_data.game, callback.from_user.id, level, partial(texts.computer_name, t, level)
    )
    messenger.lobby.show(game)
    await callback.answer()


@router.callback_query(LobbyAction.filter(F.action == LobbyAct.START))
async def start(
    callback: CallbackQuery,
    callback_data: LobbyAction,
    service: GameService,
    t: Texts,
) -> None:
    await service.start(callback_data.game, callback.from_user.id)
    await callback.answer(t("dealing"))


@router.callback_query(LobbyAction.filter(F.action == LobbyAct.CANCEL))
async def cancel(
    callback: CallbackQuery,
    callback_data: LobbyAction,
    service: GameService,
    messenger: Messenger,
    bot: Bot,
    t: Texts,
) -> None:
    """The lobby's ✖: only a lobby (a running game ends through /endgame's confirmation)."""
    user_id = callback.from_user.id
    admin = await admin_of(bot, await service.lobby(callback_data.game), user_id)
    game = await service.cancel_lobby(callback_data.game, user_id, admin)
    messenger.show_ended(game)
    await callback.answer(t("cancelled"))


@router.callback_query(
    LobbyAction.filter(F.action.in_({LobbyAct.SETTINGS, LobbyAct.PRESETS, LobbyAct.BACK}))
)
async def rules_view(
    callback: CallbackQuery,
    callback_data: LobbyAction,
    service: GameService,
    messenger: Messenger,
) -> None:
    """The creator switches the lobby between its players, its rules and the presets."""
    game = await service.lobby_of(callback_data.game, callback.from_user.id)
    views = {
        LobbyAct.SETTINGS: LobbyView.SETTINGS,
        LobbyAct.PRESETS: LobbyView.PRESETS,
        LobbyAct.BACK: LobbyView.MAIN,
    }
    messenger.lobby.show(game, views[callback_data.action])
    await callback.answer()


@router.callback_query(LobbyOption.filter())
async def set_option(
    callback: CallbackQuery,
    callback_data: LobbyOption,
    service: GameService,
    messenger: Messenger,
) -> None:
    game = await service.set_option(
        callback_data.game, callback.from_user.id, callback_data.key, callback_data.value
    )
    messenger.lobby.show(game, LobbyView.SETTINGS)
    await callback.answer()
