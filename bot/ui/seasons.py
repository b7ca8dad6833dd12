"""Seasons in words and in a picture: a season's name, its table for /rating and /season,
the line /stats gives it, and the picture (with its caption) the group gets at its end."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.core.ratings import PROVISIONAL_GAMES
from bot.core.rows import ChatSettings, RatingRow, SeasonLength
from bot.core.season_calendar import ZONES, Season, SeasonLine, zone
from bot.ui.i18n import Texts
from render.season import SeasonRow, SeasonScene


def season_name(t: Texts, season: Season) -> str:
    """«Сезон 3 · декабрь 2026», «Сезон 2 · 4-й квартал 2026», «Сезон 1»."""
    year, _, part = season.period.partition("-")
    if not part:
        return t("season-name", number=season.number)
    if part.startswith("Q"):
        period = t("season-quarter", quarter=int(part[1:]), year=year)
    else:
        period = t("season-month", month=int(part), year=year)
    return t("season-name-period", number=season.number, period=period)


def length_name(t: Texts, length: SeasonLength) -> str:
    return t(f"season-length-{length}")


def zone_name(name: str) -> str:
    """«Europe/Moscow (UTC+3)»."""
    return f"{name} (UTC+{ZONES[name]})" if name in ZONES else name


def settings_line(t: Texts, settings: ChatSettings) -> str:
    """/settings: the chat's season length and time zone."""
    length = length_name(t, settings.season_length)
    return t("settings-seasons", length=length, zone=zone_name(settings.time_zone))


def _fields(t: Texts, row: RatingRow) -> dict[str, str | int]:
    provisional = t("rating-provisional-mark") if row.provisional else ""
    return {
        "name": row.name,
        "rating": row.rating,
        "provisional": provisional,
        "games": row.games,
        "wins": row.wins,
        "goats": row.goats,
    }


def _change(change: int) -> str:
    return f"{change:+d}" if change else "±0"


def season_table(
    t: Texts,
    chat: str,
    season: Season,
    page: Sequence[tuple[int, SeasonLine]],
    total: int,
    mine: tuple[int, SeasonLine] | None,
    zone_name: str,
) -> str:
    """One page of a season's table (rating and its change over the season, games, wins,
    goats), the reader's own line when it is elsewhere; an empty season says so; a running
    one, its last day in the chat's time zone `zone_name`."""
    name = season_name(t, season)
    if not page:
        lines = [t("season-empty", chat=chat, season=name)]
    else:
        first, last = page[0][0], page[-1][0]
        lines = [t("season-title", chat=chat, season=name, first=first, last=last, total=total)]
        lines.append(t("season-columns"))
        lines += [
            t("season-row", rank=rank, change=_change(line.change), **_fields(t, line.row))
            for rank, line in page
        ]
        if mine is not None and mine[0] not in {rank for rank, _ in page}:
            rank, line = mine
            fields = _fields(t, line.row)
            lines.append(t("season-you", rank=rank, change=_change(line.change), **fields))
        if any(line.row.provisional for _, line in page):
            lines.append(t("rating-provisional-note", games=PROVISIONAL_GAMES))
    if season.closed_at is None and season.ends_at is not None:
        last_day = datetime.fromtimestamp(season.ends_at - 1, zone(zone_name))
        lines.append(t("season-until", date=last_day.strftime("%d.%m.%Y")))
    lines.append(t("season-hint"))
    return "\n".join(lines)


def stats_lines(
    t: Texts, season: Season, line: SeasonLine | None, all_time: RatingRow | None
) -> str:
    """/stats in a group: the person's rating this season and all time."""
    name = season_name(t, season)
    said = (
        t("stats-season", season=name, change=_change(line.change), **_fields(t, line.row))
        if line is not None
        else t("stats-season-none", season=name)
    )
    if all_time is not None:
        said += "\n" + t("stats-all-time", **_fields(t, all_time))
    return said


def season_scene(t: Texts, chat: str, season: Season, lines: Sequence[SeasonLine]) -> SeasonScene:
    """The picture of a finished season's table."""
    rows = tuple(
        SeasonRow(
            place=place,
            name=line.row.name,
            games=line.row.games,
            wins=line.row.wins,
            goats=line.row.goats,
            change=line.change,
        )
        for place, line in enumerate(lines, start=1)
    )
    captions = (
        t("season-column-games"),
        t("season-column-wins"),
        t("season-column-goats"),
        t("season-column-change"),
    )
    champion = t("season-champion", name=lines[0].row.name) if lines else ""
    return SeasonScene(
        title=t("season-picture-title", chat=chat, season=season_name(t, season)),
        champion=champion,
        captions=captions,
        rows=rows,
    )


def season_caption(t: Texts, season: Season, lines: Sequence[SeasonLine]) -> str:
    """The one line under the picture."""
    champion = lines[0].row.name if lines else ""
    return t("season-over", season=season_name(t, season), name=champion, number=season.number)
