"""Small pieces the routers share: who is pressing, where a message belongs."""

from __future__ import annotations

from aiogram import Bot, F
from aiogram.enums import ChatMemberStatus
from aiogram.types import CallbackQuery, Message, User

from bot.messenger import Messenger
from bot.robots import Robots
from bot.service import GameService, Show, Turn
from bot.storage import GameRow, Player, Storage

IN_GROUP = F.chat.type.in_({"group", "supergroup"})
IN_PRIVATE = F.chat.type == "private"
ADMINS = {ChatMemberStatus.CREATOR, ChatMemberStatus.ADMINISTRATOR}


async def player(storage: Storage, user: User) -> Player:
    """The user as a (not yet seated) player, remembered for the leaderboard."""
    await storage.remember_user(user.id, user.full_name, user.username)
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
                await messenger.hands_again(fresh, user_id)


def topic(message: Message) -> int:
    """The forum topic of a group message (0 outside topics)."""
    return message.message_thread_id or 0 if message.is_topic_message else 0


async def is_admin(bot: Bot, chat_id: int, user_id: int) -> bool:
    member = await bot.get_chat_member(chat_id=chat_id, user_id=user_id)
    return member.status in ADMINS


async def manages(bot: Bot, game: GameRow, user_id: int) -> bool:
    """The game's creator or an admin of its chat."""
    return user_id == game.creator_id or await is_admin(bot, game.chat_id, user_id)


def message_link(chat_id: int, message_id: int | None) -> str | None:
    """A t.me link to a supergroup message (basic groups have none)."""
    text = str(chat_id)
    if message_id is None or not text.startswith("-100"):
        return None
    return f"https://t.me/c/{text[4:]}/{message_id}"


def answer_then_show(callback: CallbackQuery, robots: Robots, text: str | None = None) -> Show:
    """Answer the press as soon as the action is stored, then send the messages about it
    (and let a computer seat move next)."""

    async def show(turn: Turn) -> None:
        await callback.answer(text)
        await robots.show_and_wake(turn)

    return show
