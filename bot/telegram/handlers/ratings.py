"""/rating (a chat's leaderboard, paged; in private, your rating in every chat) and /stats."""

from __future__ import annotations

import asyncio

from aiogram import Router
from aiogram.filters import Command
from aiogram.types import BufferedInputFile, CallbackQuery, InlineKeyboardMarkup, Message

from bot.core.achievements.store import Achievements
from bot.core.errors import GameError
from bot.core.scores import Scores
from bot.telegram.buttons import RatingPage
from bot.telegram.handlers.common import IN_GROUP, IN_PRIVATE, replied_user, shows
from bot.telegram.keyboards import pages_keyboard
from bot.ui import badges, texts
from bot.ui.i18n import Texts
from render.badges import render_badges

router = Router(name="ratings")
PAGE = 10


async def _leaderboard(
    scores: Scores, t: Texts, chat_id: int, title: str, user_id: int, page: int
) -> tuple[str, InlineKeyboardMarkup | None] | None:
    """One page of the leaderboard with its buttons; None when the page is empty."""
    rows, total, mine = await scores.leaderboard(chat_id, user_id, page * PAGE, PAGE)
    if not rows:
        return None
    pages = -(-total // PAGE)
    races = await scores.plays_races(chat_id)
    return texts.leaderboard(t, title, rows, total, mine, races), pages_keyboard(t, page, pages)


@router.message(Command("rating"), IN_GROUP)
async def rating(message: Message, scores: Scores, t: Texts) -> None:
    assert message.from_user is not None
    chat = message.chat
    shown = await _leaderboard(scores, t, chat.id, chat.title or "", message.from_user.id, 0)
    if shown is None:
        await message.reply(t("no-rating-yet"))
        return
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
    if shown is None:  # the ratings are gone
        raise GameError("unknown-button")
    text, markup = shown
    await callback.answer()
    await message.edit_text(text, reply_markup=markup)


@router.message(Command("rating"), IN_PRIVATE)
async def my_ratings(message: Message, scores: Scores, t: Texts) -> None:
    assert message.from_user is not None
    rows = await scores.ratings_of(message.from_user.id)
    await message.answer(texts.ratings_everywhere(t, rows) if rows else t("no-rating-anywhere"))


@router.message(Command("stats"))
async def stats(message: Message, scores: Scores, t: Texts) -> None:
    """Your stats, or — as a reply in a group — the stats of the replied-to player."""
    assert message.from_user is not None
    who = replied_user(message) or message.from_user
    private = message.chat.type == "private"
    chat = None if private else message.chat.title or ""
    numbers = await scores.stats(who.id, None if private else message.chat.id)
    said = texts.stats(t, who.full_name, chat, numbers)
    held = await Achievements(scores.storage).held(who.id, None if private else message.chat.id)
    if not held:
        await message.reply(said)
        return
    picture = await asyncio.to_thread(render_badges, badges.board(t, who.full_name, held))
    photo = BufferedInputFile(picture, "badges.png")
    await message.reply_photo(photo, caption=badges.with_held(t, said, who.full_name, held))
