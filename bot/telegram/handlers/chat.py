"""The group itself changes: upgraded to a supergroup, or the bot removed."""

from __future__ import annotations

import logging

from aiogram import F, Router
from aiogram.filters import LEAVE_TRANSITION, ChatMemberUpdatedFilter
from aiogram.types import ChatMemberUpdated, Message

from bot.core.chats import Chats
from bot.core.service import GameService
from bot.telegram.messenger import Messenger

router = Router(name="chat")
log = logging.getLogger(__name__)


@router.message(F.migrate_to_chat_id)
async def migrated(message: Message, chats: Chats) -> None:
    """Scores and games follow the group to its new supergroup id."""
    assert message.migrate_to_chat_id is not None
    await chats.moved(message.chat.id, message.migrate_to_chat_id)
    log.info("chat %s moved to %s", message.chat.id, message.migrate_to_chat_id)


@router.my_chat_member(ChatMemberUpdatedFilter(member_status_changed=LEAVE_TRANSITION))
async def removed(update: ChatMemberUpdated, service: GameService, messenger: Messenger) -> None:
    """The bot left the group: its open games are cancelled, recorded as such, and their
    hands closed (the group itself can no longer be reached)."""
    for game in await service.bot_removed(update.chat.id):
        messenger.show_ended(game)
        log.info("game %s cancelled: the bot was removed from %s", game.id, update.chat.id)
