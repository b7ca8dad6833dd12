"""The bot's database, read-only (its SQLite file, or the PostgreSQL database a
`BotProcess` was given): rows, and a game's state replayed by the engine from its log."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import asyncpg

from bot.core.database.postgres import numbered
from bot.game.rules import RuleSet
from bot.game.serial import replay, state_from_json
from bot.game.state import GameState

DB_NAME = "kozel.sqlite3"


POSTGRES_OF: dict[Path, str] = {}
"""The PostgreSQL database of a bot's folder, for the bots given one."""


def on_postgres(folder: Path, url: str) -> None:
    """The bot of `folder` keeps its data in the PostgreSQL database at `url`."""
    POSTGRES_OF[folder] = url


def query(folder: Path, sql: str, *params: Any) -> list[Any]:
    """Rows from the bot's database (its file opened read-only; the bot may be running)."""
    if folder in POSTGRES_OF:
        return postgres_rows(POSTGRES_OF[folder], sql, *params)
    uri = f"file:{folder / DB_NAME}?mode=ro"
    with contextlib.closing(sqlite3.connect(uri, uri=True, timeout=10)) as db:
        db.row_factory = sqlite3.Row
        return list(db.execute(sql, params))


def postgres_rows(url: str, sql: str, *params: Any) -> list[Any]:
    """Rows of one query in a PostgreSQL database, waited for like the file's (in a thread
    of its own: the caller's event loop is busy running the fake)."""

    async def fetch() -> list[Any]:
        connection = await asyncpg.connect(url)
        try:
            return list(await connection.fetch(numbered(sql), *params))
        finally:
            await connection.close()

    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, fetch()).result()


def games_in(folder: Path, chat_id: int) -> list[Any]:
    return query(folder, "SELECT * FROM games WHERE chat_id = ? ORDER BY id", chat_id)


def seats_of(folder: Path, game_id: int) -> list[int]:
    """User ids by seat."""
    rows = query(folder, "SELECT user_id FROM players WHERE game_id = ? ORDER BY seat", game_id)
    return [int(r["user_id"]) for r in rows]


def replay_game(folder: Path, game_id: int) -> GameState:
    """The game's state, replayed by the engine from its rules, seats, seed and move log."""
    (game,) = query(folder, "SELECT rules, seed FROM games WHERE id = ?", game_id)
    log = [
        json.loads(r["entry"])
        for r in query(folder, "SELECT entry FROM moves WHERE game_id = ? ORDER BY seq", game_id)
    ]
    seats = [str(u) for u in seats_of(folder, game_id)]
    return replay(RuleSet.from_options(json.loads(game["rules"])), seats, game["seed"], log)


def fresh_state(folder: Path, game_id: int) -> GameState:
    """The game's first deal, from its rules, seats and seed."""
    (game,) = query(folder, "SELECT rules, seed FROM games WHERE id = ?", game_id)
    seats = [str(u) for u in seats_of(folder, game_id)]
    return replay(RuleSet.from_options(json.loads(game["rules"])), seats, game["seed"], [])


def stored_state(folder: Path, game_id: int) -> GameState:
    """The game's state as the bot stored it."""
    (game,) = query(folder, "SELECT state FROM games WHERE id = ?", game_id)
    return state_from_json(json.loads(game["state"]))


def set_seed(folder: Path, game_id: int, seed: int) -> None:
    """The lobby's seed replaced before ▶: its deal and seating are the test's."""
    with contextlib.closing(sqlite3.connect(folder / DB_NAME, timeout=10)) as db, db:
        db.execute("UPDATE games SET seed = ? WHERE id = ?", (seed, game_id))
