"""Anything else: a short help in private, silence in groups, a toast for odd buttons."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import CallbackQuery, Message

from bot.telegram.buttons import is_ours
from bot.telegram.handlers.common import IN_PRIVATE
from bot.ui.i18n import Texts
from bot.ui.notices import Shown, shown_as

router = Router(name="fallback")


@router.message(IN_PRIVATE)
async def private_help(message: Message, t: Texts) -> None:
    await message.answer(t("help-private"))


@router.callback_query()
async def unknown_button(callback: CallbackQuery, t: Texts) -> None:
    """A button nothing took: one of an older version (its format changed), or not ours."""
    outdated = callback.data is not None and is_ours(callback.data)
    key = "outdated-button" if outdated else "unknown-button"
    await callback.answer(t(key), show_alert=shown_as(key) is Shown.ALERT)
