"""/score, /rules, /help and /start without a payload."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command, CommandStart
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.core.chats import Chats
from bot.core.guarded import LOBBY_IDLE
from bot.core.scores import Scores
from bot.core.service import GameService
from bot.game.typed import saved_rules
from bot.telegram.handlers.common import IN_GROUP, IN_PRIVATE, opened_private_chat, topic
from bot.telegram.messenger import Messenger
from bot.ui import endings, games
from bot.ui.games import Seen
from bot.ui.i18n import Texts

router = Router(name="info")


@router.message(CommandStart(), IN_PRIVATE)
async def start(
    message: Message, service: GameService, chats: Chats, messenger: Messenger, t: Texts
) -> None:
    assert message.from_user is not None
    await opened_private_chat(chats, message.from_user)
    button = InlineKeyboardButton(text=t("add-to-group"), url=messenger.add_to_group_link())
    await message.answer(
        t("help-private"), reply_markup=InlineKeyboardMarkup(inline_keyboard=[[button]])
    )
    for game in await service.running_games_of(message.from_user.id):
        messenger.hands.again(game, message.from_user.id)  # e.g. they had blocked the bot


@router.message(Command("help"), IN_GROUP)
async def help_group(message: Message, t: Texts) -> None:
    await message.reply(games.help_group(t, LOBBY_IDLE // 60))


@router.message(Command("score"), IN_GROUP)
async def score(message: Message, scores: Scores, t: Texts) -> None:
    game = await scores.sheet_game(message.chat.id, topic(message))
    if game is None or game.state is None:
        await message.reply(t("no-games-yet"))
        return
    await message.reply(endings.score(t, game))


@router.message(Command("rules"), IN_GROUP)
async def rules(message: Message, service: GameService, chats: Chats, t: Texts) -> None:
    """The rules of the topic's game (or table being gathered), else the chat's default
    ones with every game."""
    game = await service.open_game(message.chat.id, topic(message))
    if game is None:
        chosen, _ = saved_rules((await chats.settings(message.chat.id)).options)
        await message.reply(games.rules_text(t, chosen, Seen.CHAT))
        return
    seen = Seen.LOBBY if game.state is None else Seen.GAME
    await message.reply(games.rules_text(t, game.rules, seen))
