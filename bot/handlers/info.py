"""/score, /rules, /help and /start without a payload."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command, CommandStart
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot import texts
from bot.game.rules import parse_rules
from bot.handlers.common import IN_GROUP, IN_PRIVATE, hands_back, opened_private_chat, topic
from bot.i18n import Texts
from bot.messenger import Messenger, names_of
from bot.service import LOBBY_IDLE, GameService, game_rules, game_state

router = Router(name="info")


@router.message(CommandStart(), IN_PRIVATE)
async def start(message: Message, service: GameService, messenger: Messenger, t: Texts) -> None:
    assert message.from_user is not None
    await opened_private_chat(service.storage, message.from_user)
    button = InlineKeyboardButton(text=t("add-to-group"), url=messenger.add_to_group_url())
    await message.answer(
        t("help-private"), reply_markup=InlineKeyboardMarkup(inline_keyboard=[[button]])
    )
    await hands_back(service, messenger, message.from_user.id)


@router.message(Command("help"), IN_GROUP)
async def help_group(message: Message, t: Texts) -> None:
    await message.answer(t("help-group", minutes=LOBBY_IDLE // 60))


@router.message(Command("score"), IN_GROUP)
async def score(message: Message, service: GameService, t: Texts) -> None:
    storage = service.storage
    game = await storage.open_game(message.chat.id, topic(message))
    if game is None or game.state is None:
        game = await storage.last_finished_game(message.chat.id, topic(message))
    if game is None or game.state is None:
        await message.answer(t("no-games-yet"))
        return
    await message.answer(texts.score(t, game_state(game), names_of(game)))


@router.message(Command("rules"), IN_GROUP)
async def rules(message: Message, service: GameService, t: Texts) -> None:
    game = await service.storage.open_game(message.chat.id, topic(message))
    defaults = (await service.storage.chat_settings(message.chat.id)).options
    current = game_rules(game) if game else parse_rules(defaults)
    await message.answer(texts.rules_text(t, current))
