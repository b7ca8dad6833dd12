"""/endgame (creator or admin, confirmed), /kick (creator or admin), /leave and /extend."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.core.errors import GameError
from bot.core.guarded import LOBBY_IDLE
from bot.core.questions import Question
from bot.core.rows import GameRow
from bot.core.service import GameService
from bot.telegram.buttons import EndGame, KickSeat
from bot.telegram.handlers.common import IN_GROUP, STEER, admin_of, manages, replied_user, topic
from bot.telegram.keyboards import end_game_keyboard, kick_keyboard
from bot.telegram.messenger import Messenger
from bot.ui.i18n import Texts

router = Router(name="admin")


async def _managed_game(message: Message, service: GameService, bot: Bot) -> GameRow:
    """The topic's open game, if the sender created it or is a chat admin."""
    assert message.from_user is not None
    game = await service.topic_game(message.chat.id, topic(message))
    if not await manages(bot, game, message.from_user.id):
        raise GameError("not-creator-or-admin")
    return game


async def _remove(service: GameService, messenger: Messenger, game: GameRow, user_id: int) -> None:
    """The user leaves the lobby, or the running game (the computer takes the seat)."""
    lobby = await service.remove(game, user_id)
    if lobby is not None:
        messenger.lobby.show(lobby)


@router.message(Command("endgame"), IN_GROUP, flags=STEER)
async def end_game(
    message: Message, service: GameService, messenger: Messenger, bot: Bot, t: Texts
) -> None:
    """Ask to confirm; the question is remembered, so that the game's end closes it."""
    game = await _managed_game(message, service, bot)
    asked = await message.reply(t("endgame-ask"), reply_markup=end_game_keyboard(t, game.id))
    await messenger.questions.asked(game.id, asked.chat.id, asked.message_id)
    now = await service.game(game.id)
    if now is not None and not now.is_open:  # it ended meanwhile: its closing missed this
        messenger.questions.close(now)


def _question(callback: CallbackQuery, game: GameRow) -> Message | None:
    """The /endgame question pressed: a text in the game's chat (a forged press on a hand or
    on the table picture gets an answer, and its message stays as it is)."""
    message = callback.message
    if not isinstance(message, Message) or message.text is None:
        return None
    return message if message.chat.id == game.chat_id else None


async def _asked_about(
    callback: CallbackQuery,
    callback_data: EndGame,
    service: GameService,
    messenger: Messenger,
    t: Texts,
) -> GameRow | None:
    """The question's game while it is open; a question left from an ended game says the
    game is over, without buttons (and None is returned); an unknown game is refused."""
    game = await service.game(callback_data.game)
    if game is None:
        raise GameError("no-such-game")
    if game.is_open:
        return game
    await callback.answer(t("endgame-over"))
    question = _question(callback, game)
    if question is not None:
        await messenger.questions.say_over(question.chat.id, question.message_id)
    return None


@router.callback_query(EndGame.filter(F.confirm))
async def end_confirmed(
    callback: CallbackQuery,
    callback_data: EndGame,
    service: GameService,
    messenger: Messenger,
    bot: Bot,
    t: Texts,
) -> None:
    user_id = callback.from_user.id
    game = await _asked_about(callback, callback_data, service, messenger, t)
    if game is None:
        return
    admin = await admin_of(bot, game, user_id)
    game = await service.end_game(callback_data.game, user_id, admin)
    question = _question(callback, game)
    pressed = None
    if question is not None:  # remembered again: it may come from before they were
        pressed = question.message_id
        await messenger.questions.asked(game.id, question.chat.id, pressed)
    # said first: the closing `show_ended` posts finds this game's questions closed
    messenger.questions.close(game, pressed, by=callback.from_user.full_name)
    messenger.show_ended(game)
    await callback.answer(t("cancelled"))


@router.callback_query(EndGame.filter(~F.confirm))
async def end_declined(
    callback: CallbackQuery,
    callback_data: EndGame,
    service: GameService,
    messenger: Messenger,
    bot: Bot,
    t: Texts,
) -> None:
    game = await _asked_about(callback, callback_data, service, messenger, t)
    if game is None:
        return
    if not await manages(bot, game, callback.from_user.id):
        raise GameError("not-creator-or-admin")
    await callback.answer(t("endgame-keep"))
    question = _question(callback, game)
    if question is not None:
        await question.edit_text(t("endgame-keep"))
        await messenger.questions.kept.closed(Question(question.chat.id, question.message_id))


@router.message(Command("kick"), IN_GROUP, flags=STEER)
async def kick(
    message: Message,
    command: CommandObject,
    service: GameService,
    messenger: Messenger,
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
        seats = [p.seat for p in game.players if p.human and p.name.casefold() == name]
    elif replied is not None:
        seats = [seat] if (seat := game.seat_of(replied.id)) is not None else []
    else:
        raise GameError("kick-who")
    if len(seats) > 1:  # two players share the name: ask which seat
        named = [(seat, game.players[seat].name) for seat in seats]
        await message.reply(t("kick-which"), reply_markup=kick_keyboard(t, game.id, named))
        return
    name = await _kick(service, messenger, game, seats[0] if seats else None, message.from_user.id)
    await message.reply(t("kicked", name=name))


async def _kick(
    service: GameService,
    messenger: Messenger,
    game: GameRow,
    seat: int | None,
    by: int,
) -> str:
    """Remove the person at `seat` (someone else than `by`); their name."""
    if seat is None or seat >= len(game.players) or not game.players[seat].human:
        raise GameError("kick-not-seated")
    target = game.players[seat]
    if target.user_id == by:
        raise GameError("kick-yourself")
    await _remove(service, messenger, game, target.user_id)
    return target.name


@router.callback_query(KickSeat.filter())
async def kick_seat(
    callback: CallbackQuery,
    callback_data: KickSeat,
    service: GameService,
    messenger: Messenger,
    bot: Bot,
    t: Texts,
) -> None:
    """The seat chosen after /kick of a shared name."""
    game = await service.game(callback_data.game)
    if game is None or not game.is_open:
        raise GameError("no-such-game")
    if not await manages(bot, game, callback.from_user.id):
        raise GameError("not-creator-or-admin")
    user_id = callback.from_user.id
    name = await _kick(service, messenger, game, callback_data.seat, user_id)
    await callback.answer(t("kicked", name=name))
    if isinstance(callback.message, Message):
        await callback.message.edit_text(t("kicked", name=name))


@router.message(Command("extend"), IN_GROUP, flags=STEER)
async def extend(message: Message, service: GameService, t: Texts) -> None:
    await service.extend(message.chat.id, topic(message))
    await message.reply(t("extended", minutes=LOBBY_IDLE // 60))


@router.message(Command("leave"), IN_GROUP, flags=STEER)
async def leave(message: Message, service: GameService, messenger: Messenger, t: Texts) -> None:
    assert message.from_user is not None
    game = await service.topic_game(message.chat.id, topic(message))
    await _remove(service, messenger, game, message.from_user.id)
    await message.reply(t("left-table"))
