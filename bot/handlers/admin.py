"""/endgame (creator or admin, confirmed), /kick (creator or admin), /leave and /extend."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.handlers.common import IN_GROUP, is_admin, manages, replied_user, topic
from bot.i18n import Texts
from bot.keyboards import EndGame, end_game_keyboard
from bot.messenger import Messenger
from bot.robots import Robots
from bot.service import LOBBY_IDLE, GameError, GameService
from bot.storage import GameRow

router = Router(name="admin")


async def _managed_game(message: Message, service: GameService, bot: Bot) -> GameRow:
    """The topic's open game, if the sender created it or is a chat admin."""
    assert message.from_user is not None
    game = await service.storage.open_game(message.chat.id, topic(message))
    if game is None:
        raise GameError("no-open-game")
    if not await manages(bot, game, message.from_user.id):
        raise GameError("not-creator-or-admin")
    return game


async def _remove(
    service: GameService, messenger: Messenger, robots: Robots, game: GameRow, user_id: int
) -> None:
    """The user leaves the lobby, or the running game (the computer takes the seat)."""
    if game.status == "lobby":
        messenger.show_lobby(await service.leave_lobby(game.id, user_id))
    else:
        await service.leave_game(game.id, user_id, robots.show_and_wake)


@router.message(Command("endgame"), IN_GROUP)
async def end_game(message: Message, service: GameService, bot: Bot, t: Texts) -> None:
    game = await _managed_game(message, service, bot)
    await message.reply(t("endgame-ask"), reply_markup=end_game_keyboard(t, game.id))


@router.callback_query(EndGame.filter(F.confirm))
async def end_confirmed(
    callback: CallbackQuery,
    callback_data: EndGame,
    service: GameService,
    messenger: Messenger,
    bot: Bot,
    t: Texts,
) -> None:
    game = await service.storage.game(callback_data.game)
    user_id = callback.from_user.id
    admin = game is not None and await is_admin(bot, game.chat_id, user_id)
    game = await service.cancel(callback_data.game, user_id, admin, "ended")
    await callback.answer(t("cancelled"))
    messenger.close_lobby(game, "cancelled")
    messenger.close_hands(game, "cancelled")
    if isinstance(callback.message, Message):
        await callback.message.edit_text(t("ended-by", name=callback.from_user.full_name))


@router.callback_query(EndGame.filter(~F.confirm))
async def end_declined(
    callback: CallbackQuery, callback_data: EndGame, service: GameService, bot: Bot, t: Texts
) -> None:
    game = await service.storage.game(callback_data.game)
    if game is not None and not await manages(bot, game, callback.from_user.id):
        raise GameError("not-creator-or-admin")
    await callback.answer(t("endgame-keep"))
    if isinstance(callback.message, Message):
        await callback.message.edit_text(t("endgame-keep"))


@router.message(Command("kick"), IN_GROUP)
async def kick(
    message: Message,
    command: CommandObject,
    service: GameService,
    messenger: Messenger,
    robots: Robots,
    bot: Bot,
    t: Texts,
) -> None:
    """Remove a player — the one whose message this replies to, or named after /kick — as if
    they had left: from a lobby, or from a running game, where the computer takes the seat
    and the timeout rule settles it (RULES §2.7)."""
    assert message.from_user is not None
    game = await _managed_game(message, service, bot)
    replied = replied_user(message)
    name = (command.args or "").strip().casefold()
    if name:
        seat = next((p.seat for p in game.players if p.name.casefold() == name), None)
    elif replied is not None:
        seat = game.seat_of(replied.id)
    else:
        raise GameError("kick-who")
    if seat is None or not game.players[seat].human:
        raise GameError("kick-not-seated")
    target = game.players[seat]
    if target.user_id == message.from_user.id:
        raise GameError("kick-yourself")
    await _remove(service, messenger, robots, game, target.user_id)
    await message.reply(t("kicked", name=target.name))


@router.message(Command("extend"), IN_GROUP)
async def extend(message: Message, service: GameService, t: Texts) -> None:
    game = await service.storage.open_game(message.chat.id, topic(message))
    if game is None or game.status != "lobby":
        raise GameError("no-open-lobby")
    await service.extend(game.id)
    await message.reply(t("extended", minutes=LOBBY_IDLE // 60))


@router.message(Command("leave"), IN_GROUP)
async def leave(
    message: Message, service: GameService, messenger: Messenger, robots: Robots, t: Texts
) -> None:
    assert message.from_user is not None
    game = await service.storage.open_game(message.chat.id, topic(message))
    if game is None:
        raise GameError("no-open-game")
    await _remove(service, messenger, robots, game, message.from_user.id)
    await message.reply(t("left-table"))
