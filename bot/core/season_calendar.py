"""Seasons as plain data: the calendar of a chat's seasons (a month or a quarter in its
time zone, `period_of`), a season's start from the last one's end (`pulled`), a season as
kept (`Season`) and a person's line of its table (`SeasonLine`). How they are kept and
ended is `bot.core.seasons`'."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.core import ratings as skills
from bot.core.ratings import DEFAULT_SIGMA, Skill
from bot.core.rows import MOSCOW, RatingRow, SeasonLength

ZONES = {
    "Europe/Kaliningrad": 2,
    "Europe/Moscow": 3,
    "Europe/Minsk": 3,
    "Europe/Samara": 4,
    "Asia/Yekaterinburg": 5,
    "Asia/Omsk": 6,
    "Asia/Krasnoyarsk": 7,
    "Asia/Irkutsk": 8,
    "Asia/Yakutsk": 9,
    "Asia/Vladivostok": 10,
    "Asia/Magadan": 11,
    "Asia/Kamchatka": 12,
    "UTC": 0,
}
"""The time zones /settings offers, with their offsets from UTC in hours: none of them
keeps summer time, so without the system's time zone data the offset is exact."""


def zone(name: str) -> tzinfo:
    """The time zone `name` (an unknown one: Moscow's)."""
    name = name if name in ZONES else MOSCOW
    try:
        return ZoneInfo(name)
    except ZoneInfoNotFoundError:
        return timezone(timedelta(hours=ZONES[name]))


@dataclass(frozen=True, slots=True)
class Period:
    """A calendar period: its name (`2026-12`, `2026-Q4`, `` for no length) and when it
    ends (epoch seconds; None: never)."""

    name: str
    ends_at: float | None


def period_of(at: float, length: SeasonLength, zone_name: str) -> Period:
    """The month or quarter (in the zone) the moment `at` falls in."""
    if length is SeasonLength.NONE:
        return Period("", None)
    where = zone(zone_name)
    local = datetime.fromtimestamp(at, where)
    if length is SeasonLength.MONTH:
        name, first_month = f"{local.year}-{local.month:02d}", local.month
        span = 1
    else:
        quarter = (local.month - 1) // 3 + 1
        name, first_month, span = f"{local.year}-Q{quarter}", 3 * quarter - 2, 3
    year, month = divmod(first_month - 1 + span, 12)
    ends = datetime(local.year + year, month + 1, 1, tzinfo=where)
    return Period(name, ends.timestamp())


def pulled(skill: Skill) -> Skill:
    """A season's start from the skill a person ended the last one with: `mu` kept, `sigma`
    halfway back to a newcomer's."""
    return Skill(skill.mu, (skill.sigma + DEFAULT_SIGMA) / 2)


@dataclass(frozen=True, slots=True)
class Season:
    """One of a chat's seasons, as kept."""

    chat_id: int
    number: int
    length: SeasonLength
    period: str
    started_at: float
    ends_at: float | None
    closed_at: float | None
    announced: bool

    def over(self, at: float, length: SeasonLength) -> bool:
        """Whether a game ending at `at` belongs to a later season (also when the chat's
        season length is `length` now, another than this season's)."""
        return (self.ends_at is not None and at >= self.ends_at) or length is not self.length


@dataclass(frozen=True, slots=True)
class SeasonLine:
    """A person's season: its counters and rating (`row`), and the skill it started from."""

    row: RatingRow
    start: Skill

    @property
    def change(self) -> int:
        """The shown rating's change over the season."""
        return self.row.rating - skills.display(self.start)
