"""`python -m bot migrate-to-postgres`: an existing SQLite database copied into an empty
PostgreSQL database — every table, row and id — so the chats keep their games, results,
ratings and settings. Both are first brought to the current schema (the file as the bot
would at start, after a backup copy); then one PostgreSQL transaction copies everything
and checks the row counts, so a failed copy leaves the target empty. The bot must be
stopped while it runs."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncpg

from bot.core.backups import BackupPlan, backup_folder
from bot.core.database import UnusableDatabaseError
from bot.core.database.postgres import PostgresDatabase, shown
from bot.core.database.sqlite import SqliteDatabase

TABLES = (  # parents before children (the foreign keys)
    "chats",
    "users",
    "games",
    "players",
    "moves",
    "round_results",
    "ratings",
    "game_results",
    "chat_settings",
    "waiters",
    "shown",
    "questions",
    "records",
    "replays",
    "seasons",
    "season_ratings",
    "achievements",
    "outbox",  # what the stop left unsaid: said once the bot runs on PostgreSQL
)
# numbered by PostgreSQL from here on
IDENTITIES = {"games": "id", "waiters": "rowid", "outbox": "id"}
BATCH = 5000


class TargetNotEmptyError(RuntimeError):
    """The PostgreSQL database has data already: nothing was copied."""


def _moment(text: str) -> datetime:
    """SQLite's CURRENT_TIMESTAMP text (UTC) as a time PostgreSQL takes."""
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _as(kind: str) -> Callable[[Any], Any]:
    """How a SQLite value becomes a value of PostgreSQL's column type."""
    if kind == "timestamp with time zone":
        return _moment
    if kind == "double precision":
        return float
    if kind in {"bigint", "integer"}:
        return int
    return str


def _batches(path: Path, table: str, columns: list[str]) -> Iterator[list[tuple[Any, ...]]]:
    uri = f"file:{path}?mode=ro"
    order = "rowid" if table == "waiters" else "1"
    with closing(sqlite3.connect(uri, uri=True)) as db:
        cursor = db.execute(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {order}")
        while batch := cursor.fetchmany(BATCH):
            yield batch


async def copy_to_postgres(path: Path, url: str) -> dict[str, int]:
    """Copy the SQLite database at `path` into the empty PostgreSQL database at `url`;
    the rows copied, by table. `UnusableDatabaseError` when either cannot be used,
    `TargetNotEmptyError` when the target holds data."""
    if not path.exists():
        raise UnusableDatabaseError(path, "no such file")
    SqliteDatabase.check(path)
    source = await SqliteDatabase.open(path, BackupPlan(backup_folder(path, None)))
    try:
        await source.migrate()
    finally:
        await source.close()
    target = await PostgresDatabase.open(url)
    try:
        await target.migrate()
    finally:
        await target.close()
    connection = await asyncpg.connect(url)
    try:
        async with connection.transaction():
            return await _copy(connection, path)
    except asyncpg.PostgresError as error:
        raise UnusableDatabaseError(shown(url), error) from error
    finally:
        await connection.close()


async def _copy(connection: asyncpg.Connection, path: Path) -> dict[str, int]:
    for table in TABLES:
        if await connection.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
            raise TargetNotEmptyError(f"the PostgreSQL database has {table} already")
    copied: dict[str, int] = {}
    for table in TABLES:
        found = await connection.fetch(
            "SELECT column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
            table,
        )
        columns = [row["column_name"] for row in found]
        kinds = [_as(row["data_type"]) for row in found]
        copied[table] = 0
        for batch in _batches(path, table, columns):  # read here: nothing else runs
            records = [
                tuple(None if v is None else kind(v) for v, kind in zip(row, kinds, strict=True))
                for row in batch
            ]
            await connection.copy_records_to_table(table, records=records, columns=columns)
            copied[table] += len(records)
        stored = await connection.fetchval(f"SELECT COUNT(*) FROM {table}")
        assert stored == copied[table], f"{table}: {stored} stored of {copied[table]}"
    for table, column in IDENTITIES.items():
        await connection.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
            f"COALESCE(MAX({column}), 0) + 1, false) FROM {table}"
        )
    return copied
