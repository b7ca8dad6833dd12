"""The read side of seasons (`bot.core.seasons`): a chat's seasons, the one running now, a
season's table with each person's rating change; and a season's end marked told."""

from __future__ import annotations

from bot.core.ratings import Skill
from bot.core.rows import RatingRow
from bot.core.season_calendar import Season, SeasonLine, period_of
from bot.core.seasons import SEASON_COLUMNS, season_of
from bot.core.storage import Storage


class SeasonTables:
    """Plain queries on a chat's seasons; nothing here changes a rating."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def seasons(self, chat_id: int) -> list[Season]:
        """The chat's seasons so far, the first first."""
        rows = await self.storage.rows(
            f"SELECT {SEASON_COLUMNS} FROM seasons WHERE chat_id = ? ORDER BY number",
            (chat_id,),
        )
        return [season_of(row) for row in rows]

    async def current(self, chat_id: int, now: float) -> Season:
        """The season running at `now`: the last one kept, or — when its time (or length)
        is over, or none was kept yet — the next, with no games yet (not kept: the next
        finished game opens it)."""
        seasons = await self.seasons(chat_id)
        settings = await self.storage.people.chat_settings(chat_id)
        last = seasons[-1] if seasons else None
        if last is not None and not last.over(now, settings.season_length):
            return last
        period = period_of(now, settings.season_length, settings.time_zone)
        return Season(
            chat_id=chat_id,
            number=1 if last is None else last.number + 1,
            length=settings.season_length,
            period=period.name,
            started_at=now,
            ends_at=period.ends_at,
            closed_at=None,
            announced=False,
        )

    async def table(self, chat_id: int, number: int) -> list[SeasonLine]:
        """The season's table: rating, then rating points, wins, fewer goats."""
        rows = await self.storage.rows(
            "SELECT r.user_id, COALESCE(u.name, CAST(r.user_id AS TEXT)), r.games, r.wins, "
            "r.goats, r.rating_points, r.mu, r.sigma, r.start_mu, r.start_sigma "
            "FROM season_ratings r LEFT JOIN users u ON u.id = r.user_id "
            "WHERE r.chat_id = ? AND r.season = ?",
            (chat_id, number),
        )
        lines = [SeasonLine(RatingRow(*row[:8]), Skill(row[8], row[9])) for row in rows]
        return sorted(lines, key=lambda line: line.row.order())

    async def season(self, chat_id: int, number: int) -> Season | None:
        """The chat's season `number`, if kept."""
        rows = await self.storage.rows(
            f"SELECT {SEASON_COLUMNS} FROM seasons WHERE chat_id = ? AND number = ?",
            (chat_id, number),
        )
        return season_of(rows[0]) if rows else None

    async def chat_title(self, chat_id: int) -> str:
        """The chat's title, as last seen."""
        rows = await self.storage.rows("SELECT title FROM chats WHERE id = ?", (chat_id,))
        return str(rows[0][0] or "") if rows else ""

    async def set_announced(self, chat_id: int, number: int) -> None:
        """The season's end has been shown to the group."""
        await self.storage.database.write(
            "UPDATE seasons SET announced = 1 WHERE chat_id = ? AND number = ?",
            (chat_id, number),
        )
