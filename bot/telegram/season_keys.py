"""The buttons of rating seasons: under a season's table, and in /settings."""

from __future__ import annotations

from aiogram.types import InlineKeyboardMarkup
from aiogram.utils.keyboard import InlineKeyboardBuilder

from bot.core.rows import ChatSettings, SeasonLength
from bot.core.season_calendar import ZONES
from bot.telegram.buttons import ChatOption, RatingPage, SeasonPage
from bot.ui.i18n import Texts
from bot.ui.seasons import length_name, zone_name


def season_keyboard(t: Texts, season: int, now: int, page: int, pages: int) -> InlineKeyboardMarkup:
    """Under a season's table (`season`; `now`, the one running): ◀ / ▶ its pages, the
    seasons before and after it, the all-time table."""
    builder = InlineKeyboardBuilder()
    if page > 0:
        builder.button(text=t("page-prev"), callback_data=SeasonPage(season=season, page=page - 1))
    if page + 1 < pages:
        builder.button(text=t("page-next"), callback_data=SeasonPage(season=season, page=page + 1))
    turns = (page > 0) + (page + 1 < pages)
    if season > 1:
        number = season - 1
        builder.button(
            text=t("season-prev-button", number=number),
            callback_data=SeasonPage(season=number, page=0),
        )
    if season < now:
        number = season + 1
        builder.button(
            text=t("season-next-button", number=number),
            callback_data=SeasonPage(season=0 if number == now else number, page=0),
        )
    others = (season > 1) + (season < now)
    builder.button(text=t("season-all-button"), callback_data=RatingPage(page=0))
    builder.adjust(*[size for size in (turns, others) if size], 1)
    return builder.as_markup()


def season_settings(t: Texts, builder: InlineKeyboardBuilder, seasons: ChatSettings) -> None:
    """The chat's season length and time zone: each press, the next one."""
    lengths = list(SeasonLength)
    length = lengths[(lengths.index(seasons.season_length) + 1) % len(lengths)]
    builder.button(
        text=t("settings-season-button", length=length_name(t, seasons.season_length)),
        callback_data=ChatOption(key="season", value=length),
    )
    zones = list(ZONES)
    at = zones.index(seasons.time_zone) if seasons.time_zone in zones else -1
    builder.button(
        text=t("settings-zone-button", zone=zone_name(seasons.time_zone)),
        callback_data=ChatOption(key="zone", value=zones[(at + 1) % len(zones)]),
    )
