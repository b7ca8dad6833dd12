"""Seasons: a chat's rating runs in calendar months (or quarters, or not at all) in the
chat's time zone (Moscow unless /settings says otherwise); the all-time `ratings` keep
everything, each season's are kept beside them (`season_ratings`).

A chat's first season starts with its first game after the upgrade. A season ends when a
game of its chat ends at or after its last day (or after its length was changed in
/settings): that game's transaction claims the end (`seasons.closed_at`, set once), opens
the next season, counts the game there (a game counts in the season it ended in) and
keeps the announcement in the outbox — so exactly one worker announces it, once, and a
restart loses nothing. Time comes from the service's clock, through `Ending.at`.

Pulled toward the start: a person's first game of a season starts them from their rating at
the end of the last season they played in the chat (before any season: their all-time
rating; a newcomer: a newcomer's), its `mu` kept and its `sigma` halfway back to a
newcomer's: `sigma' = (sigma + 25/3) / 2`. So a good player starts a little above a
newcomer and must play to climb back, and a newcomer can catch up.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.core.database import Row, Transaction
from bot.core.outbox import Parcel, put_within
from bot.core.ratings import Skill
from bot.core.results import count_rated, rate_standings
from bot.core.rows import MOSCOW, Ending, GameRow, SeasonLength, Standing
from bot.core.season_calendar import Season, period_of, pulled

ANNOUNCE = "season"  # the outbox's kind of a season's end: `[chat, number, thread]`


SEASON_COLUMNS = "chat_id, number, length, period, started_at, ends_at, closed_at, announced"


def season_of(row: Row) -> Season:
    """A season from a row of `SEASON_COLUMNS`."""
    return Season(
        chat_id=row[0],
        number=row[1],
        length=SeasonLength(row[2]),
        period=row[3],
        started_at=row[4],
        ends_at=row[5],
        closed_at=row[6],
        announced=bool(row[7]),
    )


async def keep_season(db: Transaction, postgres: bool, game: GameRow, ending: Ending) -> None:
    """In the transaction that finishes `game` (on PostgreSQL: `postgres`): end the chat's
    season if the game ended after it (announced once), and count a rated game in the
    season it ended in. Before the all-time ratings change."""
    chat = game.chat_id
    settings = await db.fetch(
        "SELECT season_length, time_zone FROM chat_settings WHERE chat_id = ?", (chat,)
    )
    length, zone_name = (
        (SeasonLength(settings[0][0]), str(settings[0][1]))
        if settings
        else (SeasonLength.MONTH, MOSCOW)
    )
    last = await _last(db, chat)
    if last is None or last.over(ending.at, length):
        claimed = last is not None and await _claimed(db, last, ending.at)
        if last is None or claimed:
            number = 1 if last is None else last.number + 1
            period = period_of(ending.at, length, zone_name)
            await db.execute(
                "INSERT INTO seasons (chat_id, number, length, period, started_at, ends_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (chat_id, number) DO NOTHING",
                (chat, number, length, period.name, ending.at, period.ends_at),
            )
        if claimed and last is not None and await _played(db, last):
            told = json.dumps([chat, last.number, game.thread_id])
            await put_within(db, postgres, [Parcel(chat, ANNOUNCE, None, told, False)])
        last = await _last(db, chat)  # this one's, or a season another game opened
    if ending.rated and last is not None:
        await _rate(db, chat, last.number, ending.standings)


async def _last(db: Transaction, chat: int) -> Season | None:
    rows = await db.fetch(
        f"SELECT {SEASON_COLUMNS} FROM seasons WHERE chat_id = ? ORDER BY number DESC LIMIT 1",
        (chat,),
    )
    return season_of(rows[0]) if rows else None


async def _claimed(db: Transaction, season: Season, at: float) -> bool:
    """Whether this transaction ends `season` (no other did): then it announces it."""
    changed = await db.execute(
        "UPDATE seasons SET closed_at = ? WHERE chat_id = ? AND number = ? AND closed_at IS NULL",
        (at, season.chat_id, season.number),
    )
    return changed == 1


async def _played(db: Transaction, season: Season) -> bool:
    rows = await db.fetch(
        "SELECT 1 FROM season_ratings WHERE chat_id = ? AND season = ? LIMIT 1",
        (season.chat_id, season.number),
    )
    return bool(rows)


async def _rate(db: Transaction, chat: int, season: int, standings: Sequence[Standing]) -> None:
    """The season's counters and skills of a rated game's players; a person's first game
    of the season starts them from `pulled` (their last season's end)."""
    users = [s.user_id for s in standings]
    marks = ", ".join("?" * len(users))
    rows = await db.fetch(
        "SELECT user_id, mu, sigma, start_mu, start_sigma FROM season_ratings "
        f"WHERE chat_id = ? AND season = ? AND user_id IN ({marks})",
        (chat, season, *users),
    )
    before = {row[0]: Skill(row[1], row[2]) for row in rows}
    starts = {row[0]: Skill(row[3], row[4]) for row in rows}
    for user in users:
        if user not in starts:
            starts[user] = before[user] = pulled(await _latest(db, chat, season, user))
    after = rate_standings(before, standings)
    key = {"chat_id": chat, "season": season}
    await count_rated(db, "season_ratings", key, standings, after, starts)


async def _latest(db: Transaction, chat: int, season: int, user: int) -> Skill:
    """The skill `user` ended their last season before `season` with (else their all-time
    skill in the chat, else a newcomer's)."""
    for sql, params in (
        (
            "SELECT mu, sigma FROM season_ratings WHERE chat_id = ? AND user_id = ? "
            "AND season < ? ORDER BY season DESC LIMIT 1",
            (chat, user, season),
        ),
        ("SELECT mu, sigma FROM ratings WHERE chat_id = ? AND user_id = ?", (chat, user)),
    ):
        found = await db.fetch(sql, params)
        if found:
            return Skill(found[0][0], found[0][1])
    return Skill()
