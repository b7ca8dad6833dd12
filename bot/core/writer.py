"""`Writer`: the database's one writing connection, in a thread of its own."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


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
        """`job(connection)`, in autocommit mode (each statement its own transaction)."""
        return await asyncio.get_running_loop().run_in_executor(self._thread, job, self._db)

    async def atomically(self, job: Callable[[sqlite3.Connection], T]) -> T:
        """`job(connection)` in one transaction: all of it is stored, or none."""
        return await self.run(lambda db: _atomic(db, job))

    async def close(self) -> None:
        await self.run(sqlite3.Connection.close)
        self._thread.shutdown()


def _connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA foreign_keys=ON")
    except BaseException:
        db.close()
        raise
    return db


def _atomic(db: sqlite3.Connection, job: Callable[[sqlite3.Connection], T]) -> T:
    db.execute("BEGIN IMMEDIATE")
    try:
        done = job(db)
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
    return done
