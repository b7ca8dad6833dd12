"""The database under the storage: embedded SQLite (the default) or PostgreSQL.

The storage speaks one SQL to both — `?` placeholders, `ON CONFLICT`, `RETURNING` — through
`Database`; the few things that differ are `Dialect`'s, in one place.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Coroutine, Iterable, Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class Row(Protocol):
    """A result row: by position or by column name (sqlite3.Row, asyncpg.Record)."""

    def __getitem__(self, key: Any, /) -> Any: ...  # an int, a name or a slice
    def __iter__(self) -> Iterator[Any]: ...
    def __len__(self) -> int: ...


class UnusableDatabaseError(RuntimeError):
    """The database cannot be used: which one, and what is wrong with it."""

    def __init__(self, where: Path | str, error: Exception | str) -> None:
        super().__init__(f"cannot use the database {where}: {error}")


class ConflictError(Exception):
    """A write broke a unique constraint; nothing of its transaction is stored."""


class Transaction(Protocol):
    """Statements inside `Database.atomically`: all of them are stored, or none."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...


class Claim(Protocol):
    """Something of this process's on the database: a lock one process among those on it
    holds at a time (`claim`), or a channel it listens to (`listen`)."""

    async def held(self) -> bool:
        """Whether it is still this process's (False once the database let it go)."""

    async def release(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Dialect:
    """What the storage's SQL says differently per database."""

    name: str  # "sqlite" or "postgres": the folder of its migrations too
    json_rows: str  # aggregate of json arrays into one json list: `{}` takes the array's items


def migrations(dialect: Dialect) -> list[tuple[int, str]]:
    """The numbered migrations of the dialect, in order: `migrations/NNN_*.sql` for SQLite,
    `migrations/postgres/NNN_*.sql` for PostgreSQL (one history, the same numbers)."""
    folder = resources.files("migrations")
    if dialect.name != "sqlite":
        folder = folder.joinpath(dialect.name)
    found = [
        (int(item.name.split("_", 1)[0]), item.read_text(encoding="utf-8"))
        for item in folder.iterdir()
        if item.name.endswith(".sql")
    ]
    return sorted(found)


class Database(ABC):
    """One process's way into the database, shared by everything that reads or writes."""

    dialect: Dialect
    shared: bool  # other processes may use it at the same time (PostgreSQL, not SQLite)

    @abstractmethod
    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """The rows of one query (sees every committed write)."""

    @abstractmethod
    async def write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement on its own; the number of rows it changed."""

    @abstractmethod
    async def atomically(self, job: Callable[[Transaction], Coroutine[Any, Any, T]]) -> T:
        """`job(transaction)`: everything it wrote is stored, or (if it raises) nothing.
        The job awaits only the transaction's statements (SQLite runs it in one go)."""

    @abstractmethod
    async def schema_version(self) -> int:
        """The number of the last migration applied."""

    @abstractmethod
    async def migrate(self) -> None:
        """Apply the pending migrations, each all or nothing."""

    @abstractmethod
    async def claim(self, name: str) -> Claim | None:
        """`name` for this process alone until released, or until the process is gone
        (None: another holds it)."""

    @abstractmethod
    async def listen(self, channel: str, hear: Callable[[str], None]) -> Claim:
        """`hear(payload)` whenever a process says `NOTIFY` on `channel`, until released
        (PostgreSQL's: one process alone has nobody else to hear)."""

    async def backup(self, reason: str) -> Path | None:
        """An online copy, where the database makes its own (None: it does not)."""
        return None

    @abstractmethod
    async def close(self) -> None: ...
