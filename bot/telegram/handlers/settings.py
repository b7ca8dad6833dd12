"""Per-chat settings (/settings, admins), the private chat's language (/language) and
/nextgame (a private note when the next table is gathered in a group)."""

from __future__ import annotations

from dataclasses import replace

from aiogram import Bot, F, Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command
from aiogram.types import CallbackQuery, InlineKeyboardMarkup, Message

from bot.core.chats import Chats
from bot.core.errors import GameError, RulesError
from bot.core.rows import ChatSettings, SeasonLength
from bot.core.season_calendar import ZONES
from bot.game.rules import RuleError
from bot.game.typed import parse_rules, saved_rules
from bot.telegram.buttons import ChatOption, ChatView, LanguageChoice
from bot.telegram.handlers.common import IN_GROUP, IN_PRIVATE, STEER, is_admin, shows
from bot.telegram.keyboards import chat_presets_keyboard, chat_settings_keyboard, language_keyboard
from bot.telegram.menus import set_chat_menu
from bot.telegram.messenger import Messenger
from bot.ui import texts
from bot.ui.games import presets_text
from bot.ui.i18n import LANGUAGES, Texts, language_of, texts_for

router = Router(name="settings")
YES_NO = ("yes", "no")


def _settings_text(t: Texts, title: str, settings: ChatSettings, view: ChatView) -> str:
    rules, dropped = saved_rules(settings.options)
    language = texts_for(settings.language)("language-name")
    text = texts.chat_settings(t, title, rules, language, settings, dropped)
    return f"{text}\n\n{presets_text(t)}" if view is ChatView.PRESETS else text


def _keyboard(t: Texts, settings: ChatSettings, view: ChatView) -> InlineKeyboardMarkup:
    rules, _ = saved_rules(settings.options)
    if view is ChatView.PRESETS:
        return chat_presets_keyboard(t, rules)
    return chat_settings_keyboard(t, rules, settings)


@router.message(Command("settings"), IN_GROUP, flags=STEER)
async def show_settings(message: Message, chats: Chats, bot: Bot, t: Texts) -> None:
    assert message.from_user is not None
    if not await is_admin(bot, message.chat.id, message.from_user.id):
        raise GameError("admins-only")
    settings = await chats.settings(message.chat.id)
    view = ChatView.MAIN
    await message.answer(
        _settings_text(t, message.chat.title or "", settings, view),
        reply_markup=_keyboard(t, settings, view),
    )


def _changed(settings: ChatSettings, key: str, value: str) -> ChatSettings:
    """The settings with `key` set to `value` (a RuleError when the rules do not allow it)."""
    if key == "language":
        if value not in LANGUAGES:
            raise RuleError(f"unknown language {value!r}", key, value, ", ".join(LANGUAGES))
        return replace(settings, language=value)
    if key == "season":
        if value not in set(SeasonLength):
            raise RuleError(f"season={value!r}", key, value, ", ".join(SeasonLength))
        return replace(settings, season_length=SeasonLength(value))
    if key == "zone":
        if value not in ZONES:
            raise RuleError(f"zone={value!r}", key, value, ", ".join(ZONES))
        return replace(settings, time_zone=value)
    if key in ("computers", "deals"):
        if value not in YES_NO:
            raise RuleError(f"{key}={value!r}", key, value, ", ".join(YES_NO))
        if key == "deals":
            return replace(settings, shows_deals=value == "yes")
        return replace(settings, computers=value == "yes")
    saved, _ = saved_rules(settings.options)
    text = value if key == "preset" else f"{saved.summary()} {key}={value}"
    return replace(settings, options=parse_rules(text).summary())


@router.callback_query(ChatOption.filter(F.key == "view"))
async def switch_view(
    callback: CallbackQuery, callback_data: ChatOption, chats: Chats, bot: Bot, t: Texts
) -> None:
    """Between the chat's settings and its list of presets; close takes the message away
    (or, when Telegram no longer lets it be deleted, leaves a line without buttons)."""
    message = await _admin_settings_message(callback, bot)
    if callback_data.value not in set(ChatView):
        raise GameError("unknown-button")
    view = ChatView(callback_data.value)
    if view is ChatView.CLOSE:
        await callback.answer()
        try:
            await message.delete()
        except TelegramBadRequest:  # too old to delete (48 hours): its buttons go instead
            await message.edit_text(t("settings-closed"))
        return
    settings = await chats.settings(message.chat.id)
    await callback.answer()
    text = _settings_text(t, message.chat.title or "", settings, view)
    await message.edit_text(text, reply_markup=_keyboard(t, settings, view))


@router.callback_query(ChatOption.filter())
async def change(
    callback: CallbackQuery, callback_data: ChatOption, chats: Chats, bot: Bot, t: Texts
) -> None:
    message = await _admin_settings_message(callback, bot)
    chat = message.chat
    settings = await chats.settings(chat.id)
    try:
        settings = _changed(settings, callback_data.key, callback_data.value)
    except RuleError as error:
        raise RulesError(error) from None
    await chats.save_settings(chat.id, settings)
    if callback_data.key == "language":
        await set_chat_menu(bot, chat.id, settings.language)
    t = texts_for(settings.language)
    await callback.answer(t("settings-saved"))
    view = ChatView.MAIN
    text = _settings_text(t, chat.title or "", settings, view)
    await message.edit_text(text, reply_markup=_keyboard(t, settings, view))


async def _admin_settings_message(callback: CallbackQuery, bot: Bot) -> Message:
    """The group's /settings message a chat admin pressed on."""
    message = callback.message
    if not shows(message, ChatOption) or message.chat.type == "private":
        raise GameError("unknown-button")
    if not await is_admin(bot, message.chat.id, callback.from_user.id):
        raise GameError("admins-only")
    return message


@router.message(Command("language"), IN_PRIVATE)
async def pick_language(message: Message, chats: Chats, t: Texts) -> None:
    assert message.from_user is not None
    chosen, _ = await chats.language(message.from_user.id)
    await message.answer(t("language-pick"), reply_markup=language_keyboard(t, chosen))


@router.callback_query(LanguageChoice.filter())
async def set_language(
    callback: CallbackQuery, callback_data: LanguageChoice, chats: Chats
) -> None:
    code = callback_data.language
    user = callback.from_user
    if (code and code not in LANGUAGES) or not shows(callback.message, LanguageChoice):
        raise GameError("unknown-button")
    await chats.player(user.id, user.full_name, user.username, user.language_code)
    await chats.set_language(user.id, code or None)
    t = texts_for(language_of(code or None, user.language_code))
    await callback.answer(t("language-set"))
    if isinstance(callback.message, Message):
        keyboard = language_keyboard(t, code or None)
        await callback.message.edit_text(t("language-pick"), reply_markup=keyboard)


@router.message(Command("nextgame"), IN_GROUP, flags=STEER)
async def next_game(message: Message, chats: Chats, messenger: Messenger, t: Texts) -> None:
    assert message.from_user is not None
    user = message.from_user
    if not await chats.has_started(user.id):
        await message.reply(t("next-game-open-bot", url=messenger.start_link()))
        return
    added = await chats.wait_for_next_game(message.chat.id, user.id)
    await message.reply(t("next-game-saved" if added else "next-game-already"))
