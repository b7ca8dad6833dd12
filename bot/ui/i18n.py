"""Translations: Fluent catalogs in `bot/ui/locales/<language>/*.ftl`, Russian by default.

Group messages speak the chat's language (/settings); a private chat speaks the language
the user chose there, else their Telegram language (Russian for ru/uk/be/kk, English for
the rest, Russian when Telegram sends none).
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from fluent.runtime import FluentBundle, FluentResource
from fluent.runtime.types import fluent_number

LANGUAGES = ("ru", "en")
DEFAULT = "ru"
RUSSIAN_SPEAKING = {"ru", "uk", "be", "kk"}


def catalog(language: str) -> str:
    """The Fluent source of one language (its files in name order)."""
    folder = resources.files("bot.ui.locales").joinpath(language)
    files = sorted((f for f in folder.iterdir() if f.name.endswith(".ftl")), key=lambda f: f.name)
    return "\n".join(f.read_text("utf-8") for f in files)


class Texts:
    """One language's texts: `t("unreachable", name="Маша", url=…)`."""

    def __init__(self, language: str) -> None:
        self.language = language
        self._bundle = FluentBundle([language], use_isolating=False)
        self._bundle.add_resource(FluentResource(catalog(language)))

    def __call__(self, key: str, /, **args: str | int) -> str:
        message = self._bundle.get_message(key)
        if message.value is None:
            raise KeyError(f"{key} has no text in {self.language}")
        # numbers as typed, not grouped by the locale ("1 000"), but still numbers: plurals
        values = {
            name: fluent_number(value, useGrouping=False) if isinstance(value, int) else value
            for name, value in args.items()
        }
        text, errors = self._bundle.format_pattern(message.value, values)
        if errors:
            raise KeyError(f"{key} in {self.language}: {errors}")
        return str(text)

    def has(self, key: str) -> bool:
        return self._bundle.has_message(key)


@cache
def texts_for(language: str | None) -> Texts:
    """The texts of `language` (a known code), else Russian."""
    return Texts(language if language in LANGUAGES else DEFAULT)


def language_of(chosen: str | None, telegram: str | None) -> str:
    """A private chat's language: the user's choice, else their Telegram language."""
    if chosen is not None and chosen in LANGUAGES:
        return chosen
    if not telegram:
        return DEFAULT
    code = telegram.split("-")[0].lower()
    if code in LANGUAGES:
        return code
    return "ru" if code in RUSSIAN_SPEAKING else "en"
