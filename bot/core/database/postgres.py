"""PostgreSQL (asyncpg), chosen by `DATABASE_URL=postgresql://…`: a pool of connections
shared by the process; any number of processes may use one database."""

from __future__ import annotations

import re
from collections.abc import Callable, Coroutine, Iterable, Sequence
from functools import lru_cache
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.core.database import (
    ConflictError,
    Database,
    Dialect,
    Row,
    Transaction,
    UnusableDatabaseError,
    migrations,
)

T = TypeVar("T")
POSTGRES = Dialect("postgres", json_rows="json_agg(json_build_array({}))")
POOL = 10  # connections of one process at most
CONNECT_SECONDS = 10
MIGRATING = "SELECT pg_advisory_lock(hashtext('kozel:migrations'))"  # one process at a time
DONE_MIGRATING = "SELECT pg_advisory_unlock(hashtext('kozel:migrations'))"
VERSIONS = (
    "CREATE TABLE IF NOT EXISTS schema_migrations ("
    "version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
)
_TOKENS = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\?")
UNREACHABLE = (
    OSError,
    TimeoutError,
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    ValueError,  # a URL asyncpg cannot read
)


def shown(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))


@lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """`?` placeholders as PostgreSQL's `$1, $2, …` (quoted text left alone)."""
    count = 0

    def number(found: re.Match[str]) -> str:
        nonlocal count
        if found.group() != "?":
            return found.group()
        count += 1
        return f"${count}"

    return _TOKENS.sub(number, sql)


def changed(status: str) -> int:
    """The rows a command changed, from its status ("UPDATE 3", "INSERT 0 1")."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class _PostgresTransaction(Transaction):
    def __init__(self, connection: PoolConnectionProxy[asyncpg.Record]) -> None:
        self._connection = connection

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            return changed(await self._connection.execute(numbered(sql), *params))
        except asyncpg.UniqueViolationError as error:
            raise ConflictError(str(error)) from error

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            await self._connection.executemany(numbered(sql), list(rows))
        except asyncpg.UniqueViolationError as error:
            raise ConflictError(str(error)) from error

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        try:
            return list(await self._connection.fetch(numbered(sql), *params))
        except asyncpg.UniqueViolationError as error:
            raise ConflictError(str(error)) from error


class _Held:
    """An advisory lock held, or a channel listened to, by a connection of its own:
    PostgreSQL lets it go when the connection ends, however the process ended."""

    def __init__(self, connection: asyncpg.Connection) -> None:
        self._connection = connection

    async def held(self) -> bool:
        if self._connection.is_closed():
            return False
        try:
            await self._connection.fetchval("SELECT 1", timeout=CONNECT_SECONDS)
        except UNREACHABLE:
            return False
        return True

    async def release(self) -> None:
        if not self._connection.is_closed():
            self._connection.terminate()  # the lock goes with the connection at once


class PostgresDatabase(Database):
    """A pool of connections to one PostgreSQL database."""

    dialect = POSTGRES
    shared = True  # any number of workers

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self.url = url

    @classmethod
    async def open(cls, url: str) -> PostgresDatabase:
        """Connect; a server that cannot be reached or refuses raises
        `UnusableDatabaseError` with the URL (no password) and the reason."""
        try:
            pool = await asyncpg.create_pool(
                url, min_size=1, max_size=POOL, timeout=CONNECT_SECONDS
            )
        except UNREACHABLE as error:
            raise UnusableDatabaseError(shown(url), error or type(error).__name__) from error
        return cls(pool, url)

    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self._pool.fetch(numbered(sql), *params))

    async def claim(self, name: str) -> _Held | None:
        connection = await asyncpg.connect(self.url, timeout=CONNECT_SECONDS)
        try:
            if await connection.fetchval("SELECT pg_try_advisory_lock(hashtext($1))", name):
                return _Held(connection)
        except BaseException:
            connection.terminate()
            raise
        connection.terminate()
        return None

    async def listen(self, channel: str, hear: Callable[[str], None]) -> _Held:
        connection = await asyncpg.connect(self.url, timeout=CONNECT_SECONDS)
        try:
            await connection.add_listener(channel, lambda *said: hear(str(said[-1])))
        except BaseException:
            connection.terminate()
            raise
        return _Held(connection)

    async def write(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            return changed(await self._pool.execute(numbered(sql), *params))
        except asyncpg.UniqueViolationError as error:
            raise ConflictError(str(error)) from error

    async def atomically(self, job: Callable[[Transaction], Coroutine[Any, Any, T]]) -> T:
        async with self._pool.acquire() as connection, connection.transaction():
            return await job(_PostgresTransaction(connection))

    async def schema_version(self) -> int:
        async with self._pool.acquire() as connection:
            await connection.execute(VERSIONS)
            found = await connection.fetchval("SELECT MAX(version) FROM schema_migrations")
        return int(found or 0)

    async def migrate(self) -> None:
        """Pending migrations, each in its own transaction, under a lock that lets one
        process migrate while the others starting with it wait."""
        try:
            async with self._pool.acquire() as connection:
                await connection.execute(MIGRATING)
                try:
                    await connection.execute(VERSIONS)
                    current = await connection.fetchval(
                        "SELECT COALESCE(MAX(version), 0) FROM schema_migrations"
                    )
                    for number, sql in migrations(POSTGRES):
                        if number > current:
                            async with connection.transaction():
                                await connection.execute(sql)
                                await connection.execute(
                                    "INSERT INTO schema_migrations (version) VALUES ($1)", number
                                )
                finally:
                    await connection.execute(DONE_MIGRATING)
        except asyncpg.PostgresError as error:
            raise UnusableDatabaseError(shown(self.url), error) from error

    async def close(self) -> None:
        await self._pool.close()
