"""Small pieces the routers share: who is pressing, where a message belongs, each reader's
texts, a page turned in place."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeGuard

from aiogram import BaseMiddleware, Bot, F
from aiogram.enums import ChatMemberStatus
from aiogram.exceptions import TelegramAPIError
from aiogram.filters.callback_data import CallbackData
from aiogram.types import (
    CallbackQuery,
    Chat,
    ChatMemberRestricted,
    InlineKeyboardMarkup,
    MaybeInaccessibleMessageUnion,
    Message,
    TelegramObject,
    User,
)

from bot.core.chats import Chats
from bot.core.errors import GameError
from bot.core.rows import GameRow, Player
from bot.telegram.asking import CommandKind
from bot.ui.i18n import language_of, texts_for

IN_GROUP = F.chat.type.in_({"group", "supergroup"})
IN_PRIVATE = F.chat.type == "private"
STEER = {"asked": CommandKind.STEER}  # a group command whose answer is the game's own traffic
ADMINS = {ChatMemberStatus.CREATOR, ChatMemberStatus.ADMINISTRATOR}
Page = tuple[str, InlineKeyboardMarkup | None]
"""A page of a paged message (a table, /history): its text and buttons."""


async def player(chats: Chats, user: User) -> Player:
    """The user as a (not yet seated) player, remembered for the leaderboard."""
    return await chats.player(user.id, user.full_name, user.username, user.language_code)


async def opened_private_chat(chats: Chats, user: User) -> Player:
    """/start in private: the bot may write to the user from now on."""
    return await chats.opened_private_chat(
        user.id, user.full_name, user.username, user.language_code
    )


class ReaderTexts(BaseMiddleware):
    """Gives handlers `t`: the texts of the chat an update comes from — the group's language,
    or in private the user's choice, else their Telegram language."""

    def __init__(self, chats: Chats) -> None:
        self.chats = chats

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        chat: Chat | None = data.get("event_chat")
        user: User | None = data.get("event_from_user")
        if chat is not None and chat.type != "private":
            language = (await self.chats.settings(chat.id)).language
        elif user is not None:
            chosen, _ = await self.chats.language(user.id)
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


async def admin_of(bot: Bot, game: GameRow | None, user_id: int) -> bool:
    """Whether the user is an admin of the game's chat (Telegram is not asked about the
    game's creator: the service lets them anyway)."""
    if game is None or user_id == game.creator_id:
        return False
    return await is_admin(bot, game.chat_id, user_id)


async def may_be_member(bot: Bot, chat_id: int, user_id: int) -> bool:
    """False when Telegram says the user is not in the chat (left, removed); True when it
    says they are, or will not say (it answers only bots that are admins for sure): then
    the lobby's secret link is what lets them in."""
    try:
        member = await bot.get_chat_member(chat_id=chat_id, user_id=user_id)
    except TelegramAPIError:
        return True
    if isinstance(member, ChatMemberRestricted):
        return member.is_member
    return member.status not in {ChatMemberStatus.LEFT, ChatMemberStatus.KICKED}


async def manages(bot: Bot, game: GameRow, user_id: int) -> bool:
    """The game's creator or an admin of its chat."""
    return user_id == game.creator_id or await admin_of(bot, game, user_id)


def shows(
    message: MaybeInaccessibleMessageUnion | None, kind: type[CallbackData]
) -> TypeGuard[Message]:
    """Whether `message` carries buttons of `kind`: a press of one forged onto another
    message (a picture, a lobby) must not rewrite that message."""
    if not isinstance(message, Message) or message.reply_markup is None:
        return False
    prefix = f"{kind.__prefix__}{kind.__separator__}"
    rows = message.reply_markup.inline_keyboard
    return any((button.callback_data or "").startswith(prefix) for row in rows for button in row)


async def edit_page(callback: CallbackQuery, message: Message, page: Page | None) -> None:
    """The pressed `message` turned to `page` in place, the press answered first; None: the
    page is gone (its data with it), and the press says the button does nothing."""
    if page is None:
        raise GameError("unknown-button")
    text, markup = page
    await callback.answer()
    await message.edit_text(text, reply_markup=markup)
