"""The archive's repository: finished games' records (docs/RECORD.md), the rounds' deal
codes, the round replays already sent (their Telegram file ids), and the reviews made
(«Разбор»: one a game's seat, held by the worker making or sending it)."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from typing import Any

from bot.core.database import Database
from bot.core.recent import Recent
from bot.core.rows import Dealing, GameStatus, deal_code
from bot.game.record import Record, Stamped

CODES_KEPT = 4096
"""How many rounds' deal codes `Archive.code` keeps in memory, the least recently asked
for going first (a code never changes once given: the table app asks for the last round's
at every move)."""

REVIEW_HOLD_S = 600.0
"""How long a worker holds a review it makes or sends, at most: one that ended meanwhile
lets it go after that."""


class Archive:
    """Records, deal codes and sent replays, on either database."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self._codes: Recent[tuple[int, int], str] = Recent(CODES_KEPT)

    async def record(self, game_id: int) -> Record | None:
        rows = await self.database.rows("SELECT record FROM records WHERE game_id = ?", (game_id,))
        return json.loads(rows[0][0]) if rows else None

    async def keep(self, game_id: int, chat_id: int, record: Record) -> None:
        """Keep a finished game's record (once: a second writer's is the same)."""
        await self.database.write(
            "INSERT INTO records (game_id, chat_id, record) VALUES (?, ?, ?) "
            "ON CONFLICT (game_id) DO NOTHING",
            (game_id, chat_id, json.dumps(record, ensure_ascii=False)),
        )

    async def finished(self, chat_id: int, limit: int | None = None) -> list[int]:
        """The chat's finished games, the latest first (`limit` of them)."""
        rows = await self.database.rows(
            "SELECT id FROM games WHERE chat_id = ? AND status = ? ORDER BY id DESC"
            + ("" if limit is None else f" LIMIT {int(limit)}"),
            (chat_id, GameStatus.FINISHED),
        )
        return [row[0] for row in rows]

    async def stamped_log(self, game_id: int) -> list[Stamped]:
        """The game's move log, each entry with when it was made."""
        rows = await self.database.rows(
            "SELECT entry, created_at FROM moves WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [Stamped(json.loads(row[0]), moment(row[1])) for row in rows]

    async def times(self, game_id: int) -> tuple[str | None, str | None]:
        """When the game was created and when it ended."""
        rows = await self.database.rows(
            "SELECT created_at, ended_at FROM games WHERE id = ?", (game_id,)
        )
        return (moment(rows[0][0]), moment(rows[0][1])) if rows else (None, None)

    async def codes(self, game_id: int) -> dict[int, str]:
        """The deal codes of the game's finished rounds; a round finished before codes
        were given gets one now."""
        rows = await self.database.rows(
            "SELECT round_no, deal_code FROM round_results WHERE game_id = ?", (game_id,)
        )
        codes: dict[int, str] = {}
        for round_no, kept in rows:
            code = kept or deal_code()
            if kept is None:
                await self.database.write(
                    "UPDATE round_results SET deal_code = ? "
                    "WHERE game_id = ? AND round_no = ? AND deal_code IS NULL",
                    (code, game_id, round_no),
                )
            codes[round_no] = code
        return codes

    async def code(self, game_id: int, round_no: int) -> str | None:
        """The finished round's deal code, if it has one yet."""
        key = (game_id, round_no)
        if key in self._codes:
            return self._codes[key]
        rows = await self.database.rows(
            "SELECT deal_code FROM round_results WHERE game_id = ? AND round_no = ?", key
        )
        code: str | None = rows[0][0] if rows else None
        if code is not None:
            self._codes[key] = code
        return code

    async def dealings(self, code: str) -> list[Dealing]:
        """Every round dealt `code`'s tiles, the first (where the deal comes from) first."""
        rows = await self.database.rows(
            "SELECT r.game_id, r.round_no, g.chat_id FROM round_results r "
            "JOIN games g ON g.id = r.game_id WHERE r.deal_code = ? ORDER BY r.game_id",
            (code.upper(),),
        )
        return [Dealing(*row) for row in rows]

    async def replay_file(self, game_id: int, round_no: int, language: str) -> str | None:
        """The file id of the round's replay as Telegram keeps it, once sent."""
        rows = await self.database.rows(
            "SELECT file_id FROM replays WHERE game_id = ? AND round_no = ? AND language = ?",
            (game_id, round_no, language),
        )
        return rows[0][0] if rows else None

    async def keep_replay_file(
        self, game_id: int, round_no: int, language: str, file_id: str
    ) -> None:
        await self.database.write(
            "INSERT INTO replays (game_id, round_no, language, file_id) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (game_id, round_no, language) DO UPDATE SET file_id = excluded.file_id",
            (game_id, round_no, language, file_id),
        )

    async def hold_review(self, game_id: int, seat: int, holder: str) -> bool:
        """The seat's review of the game for `holder` alone to make or send, until
        `let_review_go` (False: another holds it)."""
        now = time.time()
        return bool(
            await self.database.write(
                "INSERT INTO reviews (game_id, seat, held_by, held_until) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (game_id, seat) DO UPDATE "
                "SET held_by = excluded.held_by, held_until = excluded.held_until "
                "WHERE reviews.held_until IS NULL OR reviews.held_until < ?",
                (game_id, seat, holder, now + REVIEW_HOLD_S, now),
            )
        )

    async def let_review_go(self, game_id: int, seat: int, holder: str) -> None:
        await self.database.write(
            "UPDATE reviews SET held_by = NULL, held_until = NULL "
            "WHERE game_id = ? AND seat = ? AND held_by = ?",
            (game_id, seat, holder),
        )

    async def review(self, game_id: int, seat: int) -> str | None:
        """The seat's review of the game, once made (JSON: `bot.ai.review.review_json`)."""
        rows = await self.database.rows(
            "SELECT review FROM reviews WHERE game_id = ? AND seat = ?", (game_id, seat)
        )
        return rows[0][0] if rows else None

    async def keep_review(self, game_id: int, seat: int, review: str) -> None:
        await self.database.write(
            "UPDATE reviews SET review = ? WHERE game_id = ? AND seat = ?",
            (review, game_id, seat),
        )


def moment(value: Any) -> str | None:
    """A database time (SQLite's text, PostgreSQL's datetime; UTC) as ISO 8601: `…Z`."""
    if value is None:
        return None
    when = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    when = when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")
