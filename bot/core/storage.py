"""The bot's storage, on SQLite or PostgreSQL (`bot.core.database`): it opens, migrates
and closes the database, and holds one repository per aggregate —

* `games`: lobbies, games, their seats and move log, round results, endings (`games`);
* `people`: users, their languages, chats, chat settings, waiters (`people`);
* `workers`: their heartbeats and the games they adopt (`workers`);
* `archive`: finished games' records, deal codes, replays sent (`archive`).

What a finished game writes is `results`', the ratings and stats queries are `Scores`',
and the Telegram messages behind a game are `bot.telegram.references`'.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.core.archive import Archive
from bot.core.backups import BackupPlan
from bot.core.database import Database, Row
from bot.core.database.postgres import PostgresDatabase
from bot.core.database.sqlite import SqliteDatabase
from bot.core.games import Games
from bot.core.people import People
from bot.core.workers import Workers


class Storage:
    """The bot's database; one instance per process, shared through the dispatcher."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.worker = secrets.token_hex(6)  # this process among the workers (`crew`)
        self.games = Games(database, self.worker)
        self.people = People(database)
        self.workers = Workers(database, self.worker)
        self.archive = Archive(database)

    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """The rows of one query."""
        return await self.database.rows(sql, params)

    @classmethod
    async def open(cls, path: Path, backups: BackupPlan | None = None) -> Storage:
        """The SQLite file at `path` (created if new), migrated; `UnusableDatabaseError`
        says which file cannot be used, and why."""
        return await cls._migrated(await SqliteDatabase.open(path, backups))

    @classmethod
    async def connect(cls, url: str) -> Storage:
        """The PostgreSQL database at `url`, migrated; `UnusableDatabaseError` says which
        server cannot be used (without the password), and why."""
        return await cls._migrated(await PostgresDatabase.open(url))

    @classmethod
    async def _migrated(cls, database: Database) -> Storage:
        try:
            await database.migrate()
        except BaseException:
            await database.close()
            raise
        return cls(database)

    async def close(self) -> None:
        await self.database.close()

    async def schema_version(self) -> int:
        return await self.database.schema_version()
