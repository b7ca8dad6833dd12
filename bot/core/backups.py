"""Copies of the database: online backups (SQLite's backup API, safe while the bot runs)
before each migration and every `BACKUP_EVERY_MINUTES`, keeping the newest `BACKUP_KEEP`;
and `python -m bot db-recover PATH`, which copies what is readable of a damaged database
into a new file (the slim image has no `sqlite3` tool) and leaves the damaged one as it
was."""

from __future__ import annotations

import sqlite3
import time
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True, slots=True)
class BackupPlan:
    """Where backups go, how many stay, and how often one is made (0: only before a
    migration)."""

    folder: Path
    keep: int = 5
    every_minutes: int = 60


ROWS_AT_ONCE = 500  # rows read in one go while recovering; a bad page loses at most these


def backup_folder(database: Path, folder: Path | None) -> Path:
    """Where backups go: `folder`, else `backups/` beside the database."""
    return folder if folder is not None else database.parent / "backups"


def backup(database: Path, folder: Path, keep: int, reason: str) -> Path:
    """An online copy of `database` named by time and `reason`; only the newest `keep`
    copies stay."""
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    target = folder / f"{database.stem}-{stamp}-{reason}.sqlite3"
    number = 1
    while target.exists():
        number += 1
        target = folder / f"{database.stem}-{stamp}-{reason}-{number}.sqlite3"
    with closing(sqlite3.connect(database)) as source, closing(sqlite3.connect(target)) as copy:
        source.backup(copy)
    copies = sorted(folder.glob(f"{database.stem}-*.sqlite3"), key=lambda p: p.stat().st_mtime)
    for old in copies[: max(0, len(copies) - keep)]:
        old.unlink()
    return target


@dataclass(frozen=True, slots=True)
class Recovered:
    """What `recover` copied: rows per table, and the tables or rows it could not read."""

    target: Path
    rows: dict[str, int]
    lost: list[str]


def recover(damaged: Path, target: Path) -> Recovered:
    """Copy every table, row and index of `damaged` that can still be read into `target`
    (a new file), with the schema version; `damaged` is only read."""
    if target.exists():
        raise FileExistsError(f"{target} exists already")
    rows: dict[str, int] = {}
    lost: list[str] = []
    uri = f"file:{damaged}?mode=ro"
    with closing(sqlite3.connect(uri, uri=True)) as old, closing(sqlite3.connect(target)) as new:
        version = _read(old, "PRAGMA user_version", lost) or [(0,)]
        schema = _read(old, "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL", lost)
        tables = [(name, sql) for kind, name, sql in schema or [] if kind == "table"]
        for name, sql in tables:
            if name.startswith("sqlite_"):
                continue
            new.execute(sql)
            rows[name] = _copy_rows(old, new, name, lost)
        for kind, name, sql in schema or []:
            if kind in {"index", "trigger", "view"}:
                try:
                    new.execute(sql)
                except sqlite3.Error as error:
                    lost.append(f"{kind} {name}: {error}")
        new.execute(f"PRAGMA user_version = {int(version[0][0])}")
        new.commit()
    return Recovered(target, rows, lost)


def _read(db: sqlite3.Connection, sql: str, lost: list[str]) -> list[tuple[Any, ...]] | None:
    try:
        return db.execute(sql).fetchall()
    except sqlite3.Error as error:
        lost.append(f"{sql}: {error}")
        return None


def _copy_rows(
    old: sqlite3.Connection, new: sqlite3.Connection, table: str, lost: list[str]
) -> int:
    """Rows of `table` by rowid, a batch at a time; a batch that cannot be read is skipped."""
    quoted = '"' + table.replace('"', '""') + '"'
    bounds = _read(old, f"SELECT MIN(rowid), MAX(rowid) FROM {quoted}", lost)
    if not bounds or bounds[0][0] is None:
        return _copy_all(old, new, quoted, lost)
    low, high = int(bounds[0][0]), int(bounds[0][1])
    copied = 0
    for start in range(low, high + 1, ROWS_AT_ONCE):
        batch = _read(
            old,
            f"SELECT * FROM {quoted} WHERE rowid BETWEEN {start} AND {start + ROWS_AT_ONCE - 1}",
            lost,
        )
        if batch:
            marks = ", ".join("?" * len(batch[0]))
            new.executemany(f"INSERT INTO {quoted} VALUES ({marks})", batch)
            copied += len(batch)
    return copied


def _copy_all(
    old: sqlite3.Connection, new: sqlite3.Connection, quoted: str, lost: list[str]
) -> int:
    """A table without rowids (or whose bounds cannot be read): as much as one scan gives."""
    copied = 0
    try:
        for row in old.execute(f"SELECT * FROM {quoted}"):
            new.execute(f"INSERT INTO {quoted} VALUES ({', '.join('?' * len(row))})", row)
            copied += 1
    except sqlite3.Error as error:
        lost.append(f"{quoted} after {copied} rows: {error}")
    return copied
