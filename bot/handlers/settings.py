"""Per-chat settings (/settings, admins), the private chat's language (/language) and
/nextgame (a private note when the next table is gathered in a group)."""

from __future__ import annotations

from dataclasses import replace

from aiogram import Bot, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, InlineKeyboardMarkup, Message

from bot import texts
from bot.game.rules import RuleError, parse_rules
from bot.handlers.common import IN_GROUP, IN_PRIVATE, is_admin
from bot.i18n import LANGUAGES, Texts, texts_for
from bot.keyboards import ChatOption, LanguageChoice, chat_settings_keyboard, language_keyboard
from bot.menus import set_chat_menu
from bot.messenger import Messenger
from bot.service import GameError, GameService, RulesError
from bot.storage import ChatSettings

router = Router(name="settings")


def _settings_text(t: Texts, title: str, settings: ChatSettings) -> str:
    rules = parse_rules(settings.options)
    return "\n".join(
        [
            t("settings-title", chat=title),
            t("settings-rules", rules=texts.described(t, rules)),
            t("settings-language", language=texts_for(settings.language)("language-name")),
            t(
                "settings-computers",
                state=t("settings-on" if settings.computers else "settings-off"),
            ),
            t("settings-hint"),
        ]
    )


def _keyboard(t: Texts, settings: ChatSettings) -> InlineKeyboardMarkup:
    return chat_settings_keyboard(
        t, parse_rules(settings.options), settings.language, settings.computers
    )


@router.message(Command("settings"), IN_GROUP)
async def show_settings(message: Message, service: GameService, bot: Bot, t: Texts) -> None:
    assert message.from_user is not None
    if not await is_admin(bot, message.chat.id, message.from_user.id):
        raise GameError("admins-only")
    settings = await service.storage.chat_settings(message.chat.id)
    await message.answer(
        _settings_text(t, message.chat.title or "", settings), reply_markup=_keyboard(t, settings)
    )


def _changed(settings: ChatSettings, key: str, value: str) -> ChatSettings:
    """The settings with `key` set to `value` (a RuleError when the rules do not allow it)."""
    if key == "language":
        if value not in LANGUAGES:
            raise RuleError(f"unknown language {value!r}", key, value, ", ".join(LANGUAGES))
        return replace(settings, language=value)
    if key == "computers":
        return replace(settings, computers=value == "yes")
    text = value if key == "preset" else f"{settings.options} {key}={value}"
    return replace(settings, options=parse_rules(text).summary())


@router.callback_query(ChatOption.filter())
async def change(
    callback: CallbackQuery, callback_data: ChatOption, service: GameService, bot: Bot, t: Texts
) -> None:
    message = callback.message
    if not isinstance(message, Message) or message.chat.type == "private":
        raise GameError("unknown-button")
    chat = message.chat
    if not await is_admin(bot, chat.id, callback.from_user.id):
        raise GameError("admins-only")
    settings = await service.storage.chat_settings(chat.id)
    try:
        settings = _changed(settings, callback_data.key, callback_data.value)
    except RuleError as error:
        raise RulesError(error) from None
    await service.storage.save_chat_settings(chat.id, settings)
    if callback_data.key == "language":
        await set_chat_menu(bot, chat.id, settings.language)
    t = texts_for(settings.language)
    await callback.answer(t("settings-saved"))
    text = _settings_text(t, chat.title or "", settings)
    await message.edit_text(text, reply_markup=_keyboard(t, settings))


@router.message(Command("language"), IN_PRIVATE)
async def pick_language(message: Message, service: GameService, t: Texts) -> None:
    assert message.from_user is not None
    chosen, _ = await service.storage.user_language(message.from_user.id)
    await message.answer(t("language-pick"), reply_markup=language_keyboard(t, chosen))


@router.callback_query(LanguageChoice.filter())
async def set_language(
    callback: CallbackQuery,
    callback_data: LanguageChoice,
    service: GameService,
    messenger: Messenger,
    t: Texts,
) -> None:
    code = callback_data.language
    user = callback.from_user
    if code and code not in LANGUAGES:
        raise GameError("unknown-button")
    await service.storage.remember_user(user.id, user.full_name, user.username, user.language_code)
    await service.storage.set_user_language(user.id, code or None)
    t = await messenger.user_texts(user.id)
    await callback.answer(t("language-set"))
    if isinstance(callback.message, Message):
        keyboard = language_keyboard(t, code or None)
        await callback.message.edit_text(t("language-pick"), reply_markup=keyboard)


@router.message(Command("nextgame"), IN_GROUP)
async def next_game(message: Message, service: GameService, messenger: Messenger, t: Texts) -> None:
    assert message.from_user is not None
    user = message.from_user
    if not await service.storage.started_users([user.id]):
        await message.reply(t("next-game-open-bot", url=messenger.start_url()))
        return
    added = await service.storage.add_waiter(message.chat.id, user.id)
    await message.reply(t("next-game-saved" if added else "next-game-already"))
