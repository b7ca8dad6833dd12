"""«🔁 Ещё партию» under a game's end: a new lobby in the same topic with the same rules."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import CallbackQuery

from bot.core.again import play_again
from bot.core.chats import Chats
from bot.core.errors import GameError
from bot.core.service import GameService
from bot.telegram.buttons import PlayAgain
from bot.telegram.handlers.common import may_be_member, player
from bot.telegram.handlers.lobby import ALREADY_EVERY
from bot.telegram.messenger import Messenger
from bot.ui.i18n import Texts

router = Router(name="again")


@router.callback_query(PlayAgain.filter())
async def again(
    callback: CallbackQuery,
    callback_data: PlayAgain,
    service: GameService,
    chats: Chats,
    messenger: Messenger,
    t: Texts,
) -> None:
    """Only a member of the chat; when the topic has an open lobby or game (the one made
    by an earlier press, say), a toast points to it and nothing is made."""
    message, bot = callback.message, callback.bot
    if message is None or bot is None:  # aiogram passes every update bound to its bot
        raise GameError("again-not-finished")
    if not await may_be_member(bot, message.chat.id, callback.from_user.id):
        raise GameError("join-not-member")
    presser = await player(chats, callback.from_user)
    game, created = await play_again(service, callback_data.game, presser)
    if created:
        messenger.lobby.show(game)
        await callback.answer(t("again-created"))
        return
    if messenger.lanes.seldom(("already-running", game.id, game.state is None), ALREADY_EVERY):
        messenger.lobby.point(game)
    await callback.answer(t("again-already"))
