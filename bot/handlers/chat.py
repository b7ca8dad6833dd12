"""The group itself changes: upgraded to a supergroup, or the bot removed."""

from __future__ import annotations

import logging

from aiogram import F, Router
from aiogram.filters import LEAVE_TRANSITION, ChatMemberUpdatedFilter
from aiogram.types import ChatMemberUpdated, Message

from bot.messenger import Messenger
from bot.service import GameService

router = Router(name="chat")
log = logging.getLogger(__name__)


@router.message(F.migrate_to_chat_id)
async def migrated(message: Message, service: GameService) -> None:
    """Scores and games follow the group to its new supergroup id."""
    assert message.migrate_to_chat_id is not None
    await service.storage.migrate_chat(message.chat.id, message.migrate_to_chat_id)
    log.info("chat %s moved to %s", message.chat.id, message.migrate_to_chat_id)


@router.my_chat_member(ChatMemberUpdatedFilter(member_status_changed=LEAVE_TRANSITION))
async def removed(update: ChatMemberUpdated, service: GameService, messenger: Messenger) -> None:
    """The bot left the group: its open games are cancelled and recorded as such."""
    for game in await service.storage.open_games_in(update.chat.id):
        await service.cancel(game.id, None, True, "bot_removed")
        messenger.close_hands(game, "removed-from-group")
        log.info("game %s cancelled: the bot was removed from %s", game.id, update.chat.id)
