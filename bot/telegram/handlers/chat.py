"""A chat with the bot changes: a group upgraded to a supergroup or the bot removed from
it; a person's private chat blocked or opened again."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware, F, Router
from aiogram.filters import JOIN_TRANSITION, LEAVE_TRANSITION, ChatMemberUpdatedFilter
from aiogram.types import ChatMemberUpdated, Message, TelegramObject

from bot.core.chats import Chats
from bot.core.service import GameService
from bot.telegram.handlers.common import IN_GROUP, IN_PRIVATE
from bot.telegram.messenger import Messenger

router = Router(name="chat")
log = logging.getLogger(__name__)


@router.message(F.migrate_to_chat_id)
async def migrated(message: Message, chats: Chats) -> None:
    """Scores and games follow the group to its new supergroup id."""
    assert message.migrate_to_chat_id is not None
    await chats.moved(message.chat.id, message.migrate_to_chat_id)
    log.info("chat %s moved to %s", message.chat.id, message.migrate_to_chat_id)


@router.my_chat_member(IN_GROUP, ChatMemberUpdatedFilter(member_status_changed=LEAVE_TRANSITION))
async def removed(update: ChatMemberUpdated, service: GameService, messenger: Messenger) -> None:
    """The bot left the group: its open games are cancelled, recorded as such, and their
    hands closed (the group itself can no longer be reached)."""
    for game in await service.bot_removed(update.chat.id):
        messenger.show_ended(game)
        log.info("game %s cancelled: the bot was removed from %s", game.id, update.chat.id)


@router.my_chat_member(IN_PRIVATE, ChatMemberUpdatedFilter(member_status_changed=LEAVE_TRANSITION))
async def blocked(
    update: ChatMemberUpdated, chats: Chats, service: GameService, messenger: Messenger
) -> None:
    """A person blocked the bot: nothing is written to them until they are back, and the
    groups of their running games are told once."""
    user_id = update.from_user.id
    if await chats.blocked_bot(user_id):
        for game in await service.running_games_of(user_id):
            messenger.gateway.unreachable(game, user_id)


@router.my_chat_member(IN_PRIVATE, ChatMemberUpdatedFilter(member_status_changed=JOIN_TRANSITION))
async def unblocked(
    update: ChatMemberUpdated, chats: Chats, service: GameService, messenger: Messenger
) -> None:
    """A person unblocked the bot: reachable again, with their hands anew."""
    await back_in_touch(update.from_user.id, chats, service, messenger)


async def back_in_touch(
    user_id: int, chats: Chats, service: GameService, messenger: Messenger
) -> None:
    """The person can be written to again: if they could not be, their hands come anew."""
    if await chats.back_in_touch(user_id):
        for game in await service.running_games_of(user_id):
            messenger.hands.again(game, user_id)


class BackInTouch(BaseMiddleware):
    """A private message is a person writing to the bot again: one the bot could not reach
    is reachable from now on (`back_in_touch`), whatever the message says."""

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if isinstance(event, Message) and event.chat.type == "private" and event.from_user:
            await back_in_touch(
                event.from_user.id, data["chats"], data["service"], data["messenger"]
            )
        return await handler(event, data)
