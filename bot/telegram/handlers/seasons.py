"""A chat's rating seasons: /rating (the season running now, `season_page`), /season N (a
past one), the buttons between their pages and seasons."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, InlineKeyboardMarkup, Message

from bot.core.errors import GameError
from bot.core.season_tables import SeasonTables
from bot.core.service import GameService
from bot.telegram.buttons import MOST_PAGES, SeasonPage
from bot.telegram.handlers.common import IN_GROUP, edit_page, shows
from bot.telegram.season_keys import season_keyboard
from bot.ui.i18n import Texts
from bot.ui.seasons import season_table

router = Router(name="seasons")
PAGE = 10


async def season_page(
    seasons: SeasonTables,
    now: float,
    t: Texts,
    where: tuple[int, str],
    user_id: int,
    shown: SeasonPage,
) -> tuple[str, InlineKeyboardMarkup] | None:
    """A page of the table of the chat's (`where`: its id and title) season (0: the one
    running at `now`) with its buttons; None when there is no such season or page."""
    chat_id, title = where
    current = await seasons.current(chat_id, now)
    number = shown.season or current.number
    season = current if number == current.number else await seasons.season(chat_id, number)
    if season is None:
        return None
    ranked = list(enumerate(await seasons.table(chat_id, number), start=1))
    pages = max(1, -(-len(ranked) // PAGE))
    if shown.page >= pages:
        return None
    mine = next(((rank, line) for rank, line in ranked if line.row.user_id == user_id), None)
    page = ranked[shown.page * PAGE : (shown.page + 1) * PAGE]
    settings = await seasons.storage.people.chat_settings(chat_id)
    text = season_table(t, title, season, page, len(ranked), mine, settings.time_zone)
    return text, season_keyboard(t, number, current.number, shown.page, pages)


@router.message(Command("season"), IN_GROUP)
async def season(
    message: Message,
    command: CommandObject,
    seasons: SeasonTables,
    service: GameService,
    t: Texts,
) -> None:
    """/season N: the table of the chat's season N."""
    assert message.from_user is not None
    asked = (command.args or "").strip()
    if not asked.isdigit() or not 1 <= int(asked) <= MOST_PAGES:
        await message.reply(t("season-usage"))
        return
    chat = message.chat
    where = (chat.id, chat.title or "")
    wanted = SeasonPage(season=int(asked), page=0)
    shown = await season_page(seasons, service.clock(), t, where, message.from_user.id, wanted)
    if shown is None:
        count = (await seasons.current(chat.id, service.clock())).number
        await message.reply(t("season-unknown", number=int(asked), count=count))
        return
    text, markup = shown
    await message.reply(text, reply_markup=markup)


@router.callback_query(SeasonPage.filter())
async def turn(
    callback: CallbackQuery,
    callback_data: SeasonPage,
    seasons: SeasonTables,
    service: GameService,
    t: Texts,
) -> None:
    """A page of a season's table, or another season, in place."""
    message = callback.message
    if not shows(message, SeasonPage):  # forged onto another message
        raise GameError("unknown-button")
    chat = message.chat
    where = (chat.id, chat.title or "")
    now = service.clock()
    shown = await season_page(seasons, now, t, where, callback.from_user.id, callback_data)
    await edit_page(callback, message, shown)
