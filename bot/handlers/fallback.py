"""Anything else: a short help in private, silence in groups, an alert for odd buttons."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import CallbackQuery, Message

from bot.handlers.common import IN_PRIVATE
from bot.i18n import Texts

router = Router(name="fallback")


@router.message(IN_PRIVATE)
async def private_help(message: Message, t: Texts) -> None:
    await message.answer(t("help-private"))


@router.callback_query()
async def unknown_button(callback: CallbackQuery, t: Texts) -> None:
    await callback.answer(t("unknown-button"), show_alert=True)
