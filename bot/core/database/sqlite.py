"""Embedded SQLite: one writing connection in a thread of its own, one reading connection
(WAL: reads never wait for a write), online backups, and a check of the file before start."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Coroutine, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.core.backups import BackupPlan, backup
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
SQLITE = Dialect("sqlite", json_rows="json_group_array(json_array({}))")
UNIQUE = {"SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY"}


@contextmanager
def _conflicts() -> Iterator[None]:
    """A broken unique constraint as `ConflictError`."""
    try:
        yield
    except sqlite3.IntegrityError as error:
        if error.sqlite_errorname in UNIQUE:
            raise ConflictError(str(error)) from error
        raise


class Writer:
    """Every write runs as a function on the writing connection in its thread, one after
    another: a whole transaction is one trip there, so nothing waits on the event loop
    while the database is locked, and no other coroutine's statement can slip into it."""

    def __init__(self, db: sqlite3.Connection, thread: ThreadPoolExecutor) -> None:
        self._db = db
        self._thread = thread

    @classmethod
    async def open(cls, path: Path) -> Writer:
        thread = ThreadPoolExecutor(1, thread_name_prefix="kozel-writer")
        try:
            db = await asyncio.get_running_loop().run_in_executor(thread, _connect, path)
        except BaseException:
            thread.shutdown()
            raise
        return cls(db, thread)

    async def run(self, job: Callable[[sqlite3.Connection], T]) -> T:
        """`job(connection)`, in its thread."""
        return await asyncio.get_running_loop().run_in_executor(self._thread, job, self._db)

    async def close(self) -> None:
        await self.run(sqlite3.Connection.close)
        self._thread.shutdown()


def _connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        db.row_factory = sqlite3.Row
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA foreign_keys=ON")
    except BaseException:
        db.close()
        raise
    return db


def _count(db: sqlite3.Connection, sql: str, params: Sequence[Any]) -> int:
    with _conflicts():
        return db.execute(sql, params).rowcount


def _many(db: sqlite3.Connection, sql: str, rows: list[Sequence[Any]]) -> None:
    with _conflicts():
        db.executemany(sql, rows)


def _fetch(db: sqlite3.Connection, sql: str, params: Sequence[Any]) -> list[Row]:
    with _conflicts():
        return db.execute(sql, params).fetchall()


class _SqliteTransaction(Transaction):
    """Statements run at once on the writing connection, in its thread: they never
    suspend, so a whole transaction job runs there in one trip (`_drive`)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return _count(self._db, sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        _many(self._db, sql, list(rows))

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return _fetch(self._db, sql, params)


def _drive(db: sqlite3.Connection, job: Callable[[Transaction], Coroutine[Any, Any, T]]) -> T:
    """`job` run to its end here, in one transaction: it awaits only its statements, which
    complete at once."""
    db.execute("BEGIN IMMEDIATE")
    try:
        running = job(_SqliteTransaction(db))
        try:
            running.send(None)
        except StopIteration as done:
            result: T = done.value
        else:
            running.close()
            raise RuntimeError("a transaction job awaited something besides its statements")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
    return result


class _Alone:
    """A claim (or a channel listened to) in a database of one process: always its own."""

    async def held(self) -> bool:
        return True

    async def release(self) -> None:
        return None


class SqliteDatabase(Database):
    """The database file of one process."""

    dialect = SQLITE
    shared = False  # one process: the bot's

    def __init__(
        self,
        writer: Writer,
        reader: aiosqlite.Connection,
        path: Path,
        backups: BackupPlan | None = None,
    ) -> None:
        self._writer = writer
        self._reader = reader  # sees every committed write (WAL), never waits for a write
        self.path = path
        self.backups = backups

    async def claim(self, name: str) -> _Alone:
        return _Alone()

    async def listen(self, channel: str, hear: Callable[[str], None]) -> _Alone:
        return _Alone()

    @classmethod
    async def open(cls, path: Path, backups: BackupPlan | None = None) -> SqliteDatabase:
        """Open (creating the folder) and switch to WAL. A file that cannot be opened
        raises `UnusableDatabaseError`, saying which and why (and leaves no connection
        thread behind to keep the process alive)."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            writer = await Writer.open(path)
        except (OSError, sqlite3.Error) as error:
            raise UnusableDatabaseError(path, error) from error
        reader = None
        try:
            reader = await aiosqlite.connect(path, isolation_level=None)
            reader.row_factory = aiosqlite.Row
            await reader.execute("PRAGMA query_only=ON")
        except BaseException as error:
            if reader is not None:
                await reader.close()
            await writer.close()
            if isinstance(error, sqlite3.Error):
                raise UnusableDatabaseError(path, error) from error
            raise
        return cls(writer, reader, path, backups)

    @staticmethod
    def check(path: Path) -> None:
        """`UnusableDatabaseError` when the file cannot be opened, is no database or fails
        SQLite's `quick_check` (a new file is fine: it is created). Only reads the file.
        Synchronous, so it can run before anything else."""
        recover = f"; `python -m bot db-recover {path}` copies what is readable to a new file"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if not path.exists():
                return
            with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
                db.execute("PRAGMA schema_version").fetchone()
                problems = [str(row[0]) for row in db.execute("PRAGMA quick_check")]
        except sqlite3.DatabaseError as error:
            raise UnusableDatabaseError(path, f"{error}{recover}") from error
        except (OSError, sqlite3.Error) as error:
            raise UnusableDatabaseError(path, error) from error
        if problems != ["ok"]:
            raise UnusableDatabaseError(path, f"damaged ({problems[0]}){recover}")

    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self._reader.execute_fetchall(sql, params))

    async def write(self, sql: str, params: Sequence[Any] = ()) -> int:
        return await self._writer.run(lambda db: _count(db, sql, params))

    async def atomically(self, job: Callable[[Transaction], Coroutine[Any, Any, T]]) -> T:
        return await self._writer.run(lambda db: _drive(db, job))

    async def schema_version(self) -> int:
        (row,) = await self.rows("PRAGMA user_version")
        return int(row[0])

    async def migrate(self) -> None:
        """Pending migrations, each in its own transaction; a copy of the file is made
        before the first one changes an existing database."""
        current = await self.schema_version()
        pending = [(number, sql) for number, sql in migrations(SQLITE) if number > current]
        if pending and current:  # what there was before this version changes it
            await self.backup(f"before-{pending[0][0]:03d}")
        scripts = [f"BEGIN;\n{sql}\nPRAGMA user_version = {n};\nCOMMIT;" for n, sql in pending]

        def migrate(db: sqlite3.Connection) -> None:
            for script in scripts:  # each migration all or nothing
                db.executescript(script)

        try:
            await self._writer.run(migrate)
        except sqlite3.Error as error:
            raise UnusableDatabaseError(self.path, error) from error

    async def backup(self, reason: str) -> Path | None:
        """An online copy into the backup folder (None without a backup plan)."""
        plan = self.backups
        if plan is None:
            return None
        return await asyncio.to_thread(backup, self.path, plan.folder, plan.keep, reason)

    async def close(self) -> None:
        await self._reader.close()
        await self._writer.close()
