"""The seasons' calendar: months and quarters in the chat's time zone, and a new season's
start from the last one's end."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.core.ratings import DEFAULT_SIGMA, Skill
from bot.core.rows import SeasonLength
from bot.core.season_calendar import Period, period_of, pulled


def at(*when: int) -> float:
    return datetime(*when, tzinfo=UTC).timestamp()


def test_a_month_ends_at_midnight_in_the_chat_s_zone() -> None:
    # 31 December, 21:30 UTC is already January in Moscow (UTC+3)
    new_year = at(2026, 12, 31, 21, 30)
    assert period_of(new_year, SeasonLength.MONTH, "Europe/Moscow") == Period(
        "2027-01", at(2027, 1, 31, 21)
    )
    assert period_of(new_year, SeasonLength.MONTH, "UTC") == Period("2026-12", at(2027, 1, 1))


def test_quarters_and_no_length() -> None:
    assert period_of(at(2026, 11, 5), SeasonLength.QUARTER, "UTC") == Period(
        "2026-Q4", at(2027, 1, 1)
    )
    assert period_of(at(2026, 2, 5), SeasonLength.QUARTER, "Asia/Vladivostok").name == "2026-Q1"
    assert period_of(at(2026, 2, 5), SeasonLength.NONE, "UTC") == Period("", None)


def test_a_season_starts_halfway_back_to_a_newcomer() -> None:
    assert pulled(Skill(31.0, 2.0)) == Skill(31.0, (2.0 + DEFAULT_SIGMA) / 2)
    assert pulled(Skill()) == Skill()
