"""Small pieces the routers share: who is pressing, where a message belongs."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware, Bot, F
from aiogram.enums import ChatMemberStatus
from aiogram.types import (
    CallbackQuery,
    Chat,
    Message,
    TelegramObject,
    User,
)

from bot.i18n import language_of, texts_for
from bot.messenger import Messenger
from bot.robots import Robots
from bot.service import GameService, Show, Turn
from bot.storage import GameRow, Player, Storage

IN_GROUP = F.chat.type.in_({"group", "supergroup"})
IN_PRIVATE = F.chat.type == "private"
ADMINS = {ChatMemberStatus.CREATOR, ChatMemberStatus.ADMINISTRATOR}


async def player(storage: Storage, user: User) -> Player:
    """The user as a (not yet seated) player, remembered for the leaderboard."""
    await storage.remember_user(user.id, user.full_name, user.username, user.language_code)
    return Player(0, user.id, user.full_name)


async def opened_private_chat(storage: Storage, user: User) -> Player:
    """/start in private: the bot may write to the user from now on."""
    seated = await player(storage, user)
    await storage.set_started(user.id)
    return seated


async def hands_back(service: GameService, messenger: Messenger, user_id: int) -> None:
    """Resend the user's hands in running games (e.g. after they had blocked the bot)."""
    for game in await service.storage.open_games_of(user_id):
        async with service.lock(game.id):
            fresh = await service.storage.game(game.id)
            if fresh is not None and fresh.status == "active":
                messenger.hands_again(fresh, user_id)


class ReaderTexts(BaseMiddleware):
    """Gives handlers `t`: the texts of the chat an update comes from — the group's language,
    or in private the user's choice, else their Telegram language."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        chat: Chat | None = data.get("event_chat")
        user: User | None = data.get("event_from_user")
        if chat is not None and chat.type != "private":
            language = (await self.storage.chat_settings(chat.id)).language
        elif user is not None:
            chosen, _ = await self.storage.user_language(user.id)
            language = language_of(chosen, user.language_code)
        else:
            language = None
        data["t"] = texts_for(language)
        return await handler(event, data)


def replied_user(message: Message) -> User | None:
    """The person whose message this one replies to (not the bot; in a forum every message
    "replies" to its topic's first message, which does not count)."""
    replied = message.reply_to_message
    if replied is None or replied.from_user is None or replied.from_user.is_bot:
        return None
    if message.is_topic_message and replied.message_id == message.message_thread_id:
        return None
    return replied.from_user


def topic(message: Message) -> int:
    """The forum topic of a group message (0 outside topics)."""
    return message.message_thread_id or 0 if message.is_topic_message else 0


async def is_admin(bot: Bot, chat_id: int, user_id: int) -> bool:
    member = await bot.get_chat_member(chat_id=chat_id, user_id=user_id)
    return member.status in ADMINS


async def manages(bot: Bot, game: GameRow, user_id: int) -> bool:
    """The game's creator or an admin of its chat."""
    return user_id == game.creator_id or await is_admin(bot, game.chat_id, user_id)


def answer_then_show(callback: CallbackQuery, robots: Robots, text: str | None = None) -> Show:
    """Answer the press as soon as the action is stored, then send the messages about it
    (and let a computer seat move next)."""

    async def show(turn: Turn) -> None:
        await callback.answer(text)
        await robots.show_and_wake(turn)

    return show
