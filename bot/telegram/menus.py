"""The command menus (setMyCommands) in both languages, for groups and private chats."""

from __future__ import annotations

from aiogram import Bot
from aiogram.types import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeChat,
)

from bot.ui.commands import commands
from bot.ui.i18n import DEFAULT, RUSSIAN_SPEAKING, Texts, language_of, texts_for

FALLBACK = "en"
"""The menu of users whose Telegram language has none of its own: those the bot answers
in English (a user without any language, answered in Russian, is rare)."""


def _menu(t: Texts, private: bool) -> list[BotCommand]:
    return [
        BotCommand(command=name, description=text) for name, text in commands(t, private).items()
    ]


async def register_commands(bot: Bot) -> None:
    """Menus per Telegram language: Russian for ru/uk/be/kk, English for en and the rest."""
    codes: list[str | None] = [None, "en", *sorted(RUSSIAN_SPEAKING)]
    for code in codes:
        t = texts_for(language_of(None, code or FALLBACK))
        await bot.set_my_commands(
            _menu(t, False), scope=BotCommandScopeAllGroupChats(), language_code=code
        )
        await bot.set_my_commands(
            _menu(t, True), scope=BotCommandScopeAllPrivateChats(), language_code=code
        )


async def set_chat_menu(bot: Bot, chat_id: int, language: str) -> None:
    """A group speaking another language than the default gets its own menu, for everyone."""
    scope = BotCommandScopeChat(chat_id=chat_id)
    if language == DEFAULT:
        await bot.delete_my_commands(scope=scope)
    else:
        await bot.set_my_commands(_menu(texts_for(language), False), scope=scope)
