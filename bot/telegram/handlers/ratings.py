"""/rating (a chat's season, `handlers.seasons`; /rating all, its all-time leaderboard,
paged; in private, your rating in every chat) and /stats."""

from __future__ import annotations

import asyncio

from aiogram import Router
from aiogram.filters import Command, CommandObject
from aiogram.types import BufferedInputFile, CallbackQuery, Message

from bot.core.achievements.store import Achievements
from bot.core.errors import GameError
from bot.core.scores import Scores
from bot.core.season_tables import SeasonTables
from bot.core.service import GameService
from bot.telegram.buttons import RatingPage, SeasonPage
from bot.telegram.handlers.common import (
    IN_GROUP,
    IN_PRIVATE,
    Page,
    edit_page,
    replied_user,
    shows,
)
from bot.telegram.handlers.seasons import season_page
from bot.telegram.keyboards import pages_keyboard
from bot.ui import badges, texts
from bot.ui.i18n import Texts
from bot.ui.seasons import stats_lines
from render.badges import render_badges

router = Router(name="ratings")
PAGE = 10
ALL_TIME = "all"  # /rating all: the all-time leaderboard


async def _leaderboard(
    scores: Scores, t: Texts, chat_id: int, title: str, user_id: int, page: int
) -> Page | None:
    """One page of the leaderboard with its buttons; None when the page is empty."""
    rows, total, mine = await scores.leaderboard(chat_id, user_id, page * PAGE, PAGE)
    if not rows:
        return None
    pages = -(-total // PAGE)
    races = await scores.plays_races(chat_id)
    return texts.leaderboard(t, title, rows, total, mine, races), pages_keyboard(t, page, pages)


@router.message(Command("rating"), IN_GROUP)
async def rating(
    message: Message,
    command: CommandObject,
    scores: Scores,
    seasons: SeasonTables,
    service: GameService,
    t: Texts,
) -> None:
    """/rating: the season running now; /rating all: the all-time leaderboard."""
    assert message.from_user is not None
    chat = message.chat
    user = message.from_user.id
    shown = await _leaderboard(scores, t, chat.id, chat.title or "", user, 0)
    if shown is None:
        await message.reply(t("no-rating-yet"))
        return
    if (command.args or "").strip().lower() != ALL_TIME:
        where = (chat.id, chat.title or "")
        now = SeasonPage(season=0, page=0)
        shown = await season_page(seasons, service.clock(), t, where, user, now)
        assert shown is not None  # the season running now has its first page
    text, markup = shown
    await message.reply(text, reply_markup=markup)


@router.callback_query(RatingPage.filter())
async def page(
    callback: CallbackQuery, callback_data: RatingPage, scores: Scores, t: Texts
) -> None:
    message = callback.message
    if not shows(message, RatingPage):  # forged onto another message
        raise GameError("unknown-button")
    chat = message.chat
    shown = await _leaderboard(
        scores, t, chat.id, chat.title or "", callback.from_user.id, callback_data.page
    )
    await edit_page(callback, message, shown)  # None: the ratings are gone


@router.message(Command("rating"), IN_PRIVATE)
async def my_ratings(message: Message, scores: Scores, t: Texts) -> None:
    assert message.from_user is not None
    rows = await scores.ratings_of(message.from_user.id)
    await message.answer(texts.ratings_everywhere(t, rows) if rows else t("no-rating-anywhere"))


@router.message(Command("stats"))
async def stats(
    message: Message, scores: Scores, seasons: SeasonTables, service: GameService, t: Texts
) -> None:
    """Your stats, or — as a reply in a group — the stats of the replied-to player (there
    with their rating this season and all time)."""
    assert message.from_user is not None
    who = replied_user(message) or message.from_user
    private = message.chat.type == "private"
    chat = None if private else message.chat.title or ""
    numbers = await scores.stats(who.id, None if private else message.chat.id)
    said = texts.stats(t, who.full_name, chat, numbers)
    if not private and numbers.games:
        said += "\n\n" + await _ratings_of(
            scores, seasons, service.clock(), t, message.chat.id, who.id
        )
    held = await Achievements(scores.storage).held(who.id, None if private else message.chat.id)
    if not held:
        await message.reply(said)
        return
    picture = await asyncio.to_thread(render_badges, badges.board(t, who.full_name, held))
    photo = BufferedInputFile(picture, "badges.png")
    await message.reply_photo(photo, caption=badges.with_held(t, said, who.full_name, held))


async def _ratings_of(
    scores: Scores, seasons: SeasonTables, now: float, t: Texts, chat_id: int, user_id: int
) -> str:
    """A person's rating in the chat this season and all time."""
    season = await seasons.current(chat_id, now)
    lines = await seasons.table(chat_id, season.number)
    line = next((line for line in lines if line.row.user_id == user_id), None)
    all_time = next((r for r in await scores.ratings(chat_id) if r.user_id == user_id), None)
    return stats_lines(t, season, line, all_time)
