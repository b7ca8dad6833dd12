"""The lobby's ⚙ and /settings offer, for every preset, only options that apply to it, each
with words in both languages, and every button they make fits Telegram's 64 bytes; a
choice set there gives valid rules."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.core.rows import ChatSettings, SeasonLength
from bot.game.rules import PRESETS
from bot.game.typed import parse_rules
from bot.telegram.keyboards import chat_settings_keyboard, settings_keyboard
from bot.ui.games import option_choices
from bot.ui.i18n import texts_for


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("language", ["ru", "en"])
def test_every_preset_s_rules_buttons_apply_and_are_worded(name: str, language: str) -> None:
    t = texts_for(language)
    rules = PRESETS[name].rules
    for key, values in option_choices(rules):
        assert key in rules.options()
        for value in values:
            parse_rules(f"{rules.summary()} {key}={value}")  # a valid choice
    seasons = ChatSettings(language=language, season_length=SeasonLength.QUARTER)
    chat = chat_settings_keyboard(t, rules, replace(seasons, time_zone="Asia/Yekaterinburg"))
    for keyboard in (settings_keyboard(t, 2**40, rules), chat):
        for row in keyboard.inline_keyboard:
            for button in row:
                assert "=" not in button.text, button.text  # worded, not `key=value`
                assert len((button.callback_data or "").encode()) <= 64


def test_general_offers_the_match_length_and_bykovo_its_limit() -> None:
    general = dict(option_choices(PRESETS["general"].rules))
    assert general["minutes"] == ("10", "30", "60") and "target" not in general
    bykovo = dict(option_choices(PRESETS["bykovo"].rules))
    assert bykovo["target"][0] == "0"
    ru = texts_for("ru")
    keyboard = settings_keyboard(ru, 1, PRESETS["bykovo"].rules)
    labels = [b.text for row in keyboard.inline_keyboard for b in row]
    assert "● лимит по числу игроков" in labels
