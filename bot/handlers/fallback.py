"""Anything else: a short help in private, silence in groups, an alert for odd buttons."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import CallbackQuery, Message

from bot import texts
from bot.handlers.common import IN_PRIVATE

router = Router(name="fallback")


@router.message(IN_PRIVATE)
async def private_help(message: Message) -> None:
    await message.answer(texts.HELP_PRIVATE)


@router.callback_query()
async def unknown_button(callback: CallbackQuery) -> None:
    await callback.answer(texts.UNKNOWN_BUTTON, show_alert=True)
