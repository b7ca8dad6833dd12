"""/score, /rating, /rules, /help and /start without a payload."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command, CommandStart
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot import texts
from bot.game.rules import PRESETS
from bot.handlers.common import IN_GROUP, IN_PRIVATE, hands_back, opened_private_chat, topic
from bot.messenger import Messenger, names_of
from bot.service import GameService, game_rules, game_state

router = Router(name="info")


@router.message(CommandStart(), IN_PRIVATE)
async def start(message: Message, service: GameService, messenger: Messenger) -> None:
    assert message.from_user is not None
    await opened_private_chat(service.storage, message.from_user)
    button = InlineKeyboardButton(text=texts.ADD_TO_GROUP, url=messenger.add_to_group_url())
    await message.answer(
        texts.HELP_PRIVATE, reply_markup=InlineKeyboardMarkup(inline_keyboard=[[button]])
    )
    await hands_back(service, messenger, message.from_user.id)


@router.message(Command("help"), IN_GROUP)
async def help_group(message: Message) -> None:
    await message.answer(texts.HELP_GROUP)


@router.message(Command("score"), IN_GROUP)
async def score(message: Message, service: GameService) -> None:
    storage = service.storage
    game = await storage.open_game(message.chat.id, topic(message))
    if game is None or game.state is None:
        game = await storage.last_finished_game(message.chat.id, topic(message))
    if game is None or game.state is None:
        await message.answer(texts.NO_GAMES_YET)
        return
    await message.answer(texts.score(game_state(game), names_of(game)))


@router.message(Command("rating"), IN_GROUP)
async def rating(message: Message, service: GameService) -> None:
    rows = await service.storage.ratings(message.chat.id)
    await message.answer(texts.rating(rows) if rows else texts.NO_RATING_YET)


@router.message(Command("rules"), IN_GROUP)
async def rules(message: Message, service: GameService) -> None:
    game = await service.storage.open_game(message.chat.id, topic(message))
    current = game_rules(game) if game else PRESETS["goat"].rules
    await message.answer(texts.rules_text(current))
