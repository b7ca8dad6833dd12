"""SQLite storage (aiosqlite): migrations, chats, players, games, the move log and ratings.

Every accepted move is written in one transaction — state, version, log entries, round
results and, at the end, ratings — before anything is sent about it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

OPEN = ("lobby", "active")


@dataclass(frozen=True, slots=True)
class Player:
    seat: int
    user_id: int  # negative for a computer player
    name: str
    hand_message_id: int | None = None
    robot: str | None = None  # the computer's level, None for a person

    @property
    def human(self) -> bool:
        return self.robot is None


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    chat_id: int
    thread_id: int
    creator_id: int
    status: str
    rules: dict[str, Any]
    seed: int
    state: dict[str, Any] | None
    version: int
    lobby_message_id: int | None
    table_message_id: int | None
    end_reason: str | None
    players: tuple[Player, ...]

    def seat_of(self, user_id: int) -> int | None:
        return next((p.seat for p in self.players if p.user_id == user_id), None)


@dataclass(frozen=True, slots=True)
class RatingRow:
    user_id: int
    name: str
    games: int
    wins: int
    goats: int
    rating_points: int


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's result of a finished game, for the chat's ratings."""

    user_id: int
    win: bool
    goat: bool
    rating_points: int


class StaleVersionError(RuntimeError):
    """The game moved on since the caller read it."""


def _migrations() -> list[tuple[int, str]]:
    found = []
    for item in resources.files("migrations").iterdir():
        if item.name.endswith(".sql"):
            found.append((int(item.name.split("_", 1)[0]), item.read_text(encoding="utf-8")))
    return sorted(found)


class Storage:
    """The bot's database; one instance per process, shared through the dispatcher."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        # one connection serves every coroutine: statements of concurrent handlers must not
        # slip into each other's transactions
        self._lock = asyncio.Lock()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement on its own; the number of rows it changed."""
        async with self._lock:
            cursor = await self._db.execute(sql, params)
            return cursor.rowcount

    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        async with self._lock, self._db.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    @classmethod
    async def open(cls, path: Path) -> Storage:
        """Open (creating the folder), switch to WAL and apply pending migrations."""
        path.parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(path, isolation_level=None)
        db.row_factory = aiosqlite.Row
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA foreign_keys=ON")
        storage = cls(db)
        await storage._migrate()
        return storage

    async def close(self) -> None:
        await self._db.close()

    async def schema_version(self) -> int:
        (row,) = await self._rows("PRAGMA user_version")
        return int(row[0])

    async def _migrate(self) -> None:
        current = await self.schema_version()
        for number, sql in _migrations():
            if number > current:
                async with self._lock:
                    await self._db.executescript(
                        f"BEGIN;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;"
                    )

    # -- chats and users ---------------------------------------------------------------

    async def remember_user(self, user_id: int, name: str, username: str | None) -> None:
        await self._write(
            "INSERT INTO users (id, name, username) VALUES (?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET name = excluded.name, username = excluded.username",
            (user_id, name, username),
        )

    async def set_started(self, user_id: int) -> None:
        await self._write("UPDATE users SET started = 1, blocked = 0 WHERE id = ?", (user_id,))

    async def started_users(self, user_ids: Sequence[int]) -> set[int]:
        """Those of `user_ids` who have opened a private chat with the bot."""
        marks = ", ".join("?" * len(user_ids))
        rows = await self._rows(
            f"SELECT id FROM users WHERE started = 1 AND id IN ({marks})", tuple(user_ids)
        )
        return {row[0] for row in rows}

    async def set_blocked(self, user_id: int) -> bool:
        """Mark the user unreachable; whether that is news (so the group is told once)."""
        changed = await self._write(
            "UPDATE users SET blocked = 1 WHERE id = ? AND blocked = 0", (user_id,)
        )
        return changed > 0

    async def remember_chat(self, chat_id: int, kind: str, title: str) -> None:
        await self._write(
            "INSERT INTO chats (id, type, title) VALUES (?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET type = excluded.type, title = excluded.title",
            (chat_id, kind, title),
        )

    async def migrate_chat(self, old_id: int, new_id: int) -> None:
        """A group became a supergroup: games and ratings follow the new id."""
        async with self._transaction() as db:
            await db.execute("UPDATE OR IGNORE chats SET id = ? WHERE id = ?", (new_id, old_id))
            # the supergroup numbers its messages anew: old ids would hit other messages
            await db.execute(
                "UPDATE games SET chat_id = ?, lobby_message_id = NULL, table_message_id = NULL "
                "WHERE chat_id = ?",
                (new_id, old_id),
            )
            await db.execute(
                "UPDATE OR IGNORE ratings SET chat_id = ? WHERE chat_id = ?", (new_id, old_id)
            )

    # -- games -------------------------------------------------------------------------

    async def create_lobby(
        self, chat_id: int, thread_id: int, creator: Player, rules: dict[str, Any], seed: int
    ) -> GameRow | None:
        """A new lobby with its creator seated, or None if the topic has an open game."""
        try:
            async with self._transaction() as db:
                cursor = await db.execute(
                    "INSERT INTO games (chat_id, thread_id, creator_id, status, rules, seed) "
                    "VALUES (?, ?, ?, 'lobby', ?, ?)",
                    (chat_id, thread_id, creator.user_id, json.dumps(rules), seed),
                )
                game_id = cursor.lastrowid
                assert game_id is not None
                await db.execute(
                    "INSERT INTO players (game_id, seat, user_id, name) VALUES (?, 0, ?, ?)",
                    (game_id, creator.user_id, creator.name),
                )
        except aiosqlite.IntegrityError:
            return None
        return await self.game(game_id)

    async def game(self, game_id: int) -> GameRow | None:
        return await self._one("SELECT * FROM games WHERE id = ?", (game_id,))

    async def open_game(self, chat_id: int, thread_id: int) -> GameRow | None:
        """The lobby or running game of a chat (topic)."""
        return await self._one(
            "SELECT * FROM games WHERE chat_id = ? AND thread_id = ? AND status IN (?, ?)",
            (chat_id, thread_id, *OPEN),
        )

    async def open_games(self) -> list[GameRow]:
        """Every lobby and running game, oldest first."""
        return await self._games("SELECT * FROM games WHERE status IN (?, ?) ORDER BY id", OPEN)

    async def open_games_in(self, chat_id: int) -> list[GameRow]:
        return await self._games(
            "SELECT * FROM games WHERE chat_id = ? AND status IN (?, ?)", (chat_id, *OPEN)
        )

    async def last_finished_game(self, chat_id: int, thread_id: int) -> GameRow | None:
        return await self._one(
            "SELECT * FROM games WHERE chat_id = ? AND thread_id = ? AND status = 'finished' "
            "ORDER BY id DESC LIMIT 1",
            (chat_id, thread_id),
        )

    async def open_games_of(self, user_id: int) -> list[GameRow]:
        return await self._games(
            "SELECT g.* FROM games g JOIN players p ON p.game_id = g.id "
            "WHERE p.user_id = ? AND g.status IN (?, ?) ORDER BY g.id",
            (user_id, *OPEN),
        )

    async def _one(self, sql: str, params: Sequence[Any]) -> GameRow | None:
        games = await self._games(sql, params)
        return games[0] if games else None

    async def _games(self, sql: str, params: Sequence[Any]) -> list[GameRow]:
        return [await self._game_row(row) for row in await self._rows(sql, params)]

    async def _game_row(self, row: aiosqlite.Row) -> GameRow:
        players = tuple(
            Player(*p)
            for p in await self._rows(
                "SELECT seat, user_id, name, hand_message_id, robot FROM players WHERE game_id = ? "
                "ORDER BY seat",
                (row["id"],),
            )
        )
        return GameRow(
            id=row["id"],
            chat_id=row["chat_id"],
            thread_id=row["thread_id"],
            creator_id=row["creator_id"],
            status=row["status"],
            rules=json.loads(row["rules"]),
            seed=row["seed"],
            state=json.loads(row["state"]) if row["state"] else None,
            version=row["version"],
            lobby_message_id=row["lobby_message_id"],
            table_message_id=row["table_message_id"],
            end_reason=row["end_reason"],
            players=players,
        )

    async def set_seats(self, game_id: int, players: Iterable[Player]) -> None:
        """The lobby's players, seated in this order."""
        async with self._transaction() as db:
            await db.execute("DELETE FROM players WHERE game_id = ?", (game_id,))
            await db.executemany(
                "INSERT INTO players (game_id, seat, user_id, name, robot) VALUES (?, ?, ?, ?, ?)",
                [(game_id, seat, p.user_id, p.name, p.robot) for seat, p in enumerate(players)],
            )

    async def set_rules(self, game_id: int, rules: dict[str, Any]) -> None:
        await self._write(
            "UPDATE games SET rules = ? WHERE id = ? AND status = 'lobby'",
            (json.dumps(rules), game_id),
        )

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        await self._write(
            "UPDATE games SET lobby_message_id = ? WHERE id = ?", (message_id, game_id)
        )

    async def set_table_message(self, game_id: int, message_id: int | None) -> None:
        await self._write(
            "UPDATE games SET table_message_id = ? WHERE id = ?", (message_id, game_id)
        )

    async def set_hand_message(self, game_id: int, seat: int, message_id: int | None) -> None:
        await self._write(
            "UPDATE players SET hand_message_id = ? WHERE game_id = ? AND seat = ?",
            (message_id, game_id, seat),
        )

    async def record(
        self,
        game: GameRow,
        entries: Sequence[tuple[int | None, dict[str, Any]]],
        state: dict[str, Any],
        rounds: Sequence[tuple[int, dict[str, Any]]] = (),
        ending: tuple[str, str, Sequence[Standing]] | None = None,
    ) -> int:
        """Append `(user_id, entry)`s and store the new state, all or nothing.

        `game.version` must still be current (else `StaleVersionError`); `rounds` are round
        results to keep; `ending` is `(status, reason, standings)` when the game is over.
        Returns the new version.
        """
        version = game.version + len(entries)
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET state = ?, version = ?, status = 'active' "
                "WHERE id = ? AND version = ? AND status IN (?, ?)",
                (json.dumps(state), version, game.id, game.version, *OPEN),
            )
            if cursor.rowcount != 1:
                raise StaleVersionError(f"game {game.id} is no longer at version {game.version}")
            await db.executemany(
                "INSERT INTO moves (game_id, seq, user_id, entry) VALUES (?, ?, ?, ?)",
                [
                    (game.id, game.version + i, user, json.dumps(entry))
                    for i, (user, entry) in enumerate(entries, start=1)
                ],
            )
            await db.executemany(
                "INSERT INTO round_results (game_id, round_no, result) VALUES (?, ?, ?)",
                [(game.id, round_no, json.dumps(result)) for round_no, result in rounds],
            )
            if ending is not None:
                status, reason, standings = ending
                await db.execute(
                    "UPDATE games SET status = ?, end_reason = ?, ended_at = CURRENT_TIMESTAMP "
                    "WHERE id = ?",
                    (status, reason, game.id),
                )
                await db.executemany(
                    "INSERT INTO ratings (chat_id, user_id, games, wins, goats, rating_points) "
                    "VALUES (?, ?, 1, ?, ?, ?) ON CONFLICT (chat_id, user_id) DO UPDATE SET "
                    "games = games + 1, wins = wins + excluded.wins, "
                    "goats = goats + excluded.goats, "
                    "rating_points = rating_points + excluded.rating_points",
                    [
                        (game.chat_id, s.user_id, int(s.win), int(s.goat), s.rating_points)
                        for s in standings
                    ],
                )
        return version

    async def cancel(self, game_id: int, reason: str) -> bool:
        """Cancel an open game (nothing is rated); whether it was open."""
        changed = await self._write(
            "UPDATE games SET status = 'cancelled', end_reason = ?, ended_at = CURRENT_TIMESTAMP "
            "WHERE id = ? AND status IN (?, ?)",
            (reason, game_id, *OPEN),
        )
        return changed > 0

    async def log(self, game_id: int) -> list[dict[str, Any]]:
        """The game's move log, in order."""
        rows = await self._rows(
            "SELECT entry FROM moves WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [json.loads(row[0]) for row in rows]

    async def ratings(self, chat_id: int) -> list[RatingRow]:
        """The chat's leaderboard: rating points, then wins, then fewer goats."""
        rows = await self._rows(
            "SELECT r.user_id, COALESCE(u.name, r.user_id), r.games, r.wins, r.goats, "
            "r.rating_points FROM ratings r LEFT JOIN users u ON u.id = r.user_id "
            "WHERE r.chat_id = ? ORDER BY r.rating_points DESC, r.wins DESC, r.goats, r.user_id",
            (chat_id,),
        )
        return [RatingRow(*row) for row in rows]
