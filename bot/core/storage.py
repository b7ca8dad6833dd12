"""The bot's storage: chats, players, games, the move log, round and game results, chat
settings, languages, the next-game waiters and what each message shows (the ratings and
stats queries are `Scores`', what a finished game writes is `results`), on SQLite or
PostgreSQL (`bot.core.database`).

Every accepted move is written in one transaction — state, version, log entries, round
results and, at the end, game results and ratings — before anything is sent about it.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.ai import Level
from bot.core.backups import BackupPlan
from bot.core.database import ConflictError, Database, Row, Transaction
from bot.core.database.postgres import PostgresDatabase
from bot.core.database.sqlite import SqliteDatabase
from bot.core.errors import StaleVersionError
from bot.core.recent import Recent
from bot.core.records import (
    OPEN,
    ChatSettings,
    GameRow,
    GameStatus,
    Player,
    Standing,
)
from bot.core.results import keep_results
from bot.game.events import EndReason
from bot.game.rules import RuleSet
from bot.game.serial import state_from_json, state_to_json
from bot.game.state import GameState

SEATS = "s.seat, s.user_id, s.name, s.hand_message_id, s.computer, s.missed, s.away, s.team"
CACHED = 4096  # chats' settings and people's languages kept in memory


class Storage:
    """The bot's database; one instance per process, shared through the dispatcher."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.worker = secrets.token_hex(6)  # this process among the workers (`crew`)
        # a game's players as a JSON list of rows, read with the game
        seated = database.dialect.json_rows.format(SEATS)
        self._seated = f"(SELECT {seated} FROM players s WHERE s.game_id = g.id) AS seated"
        # read on every update: the recent ones kept in memory, changed only through here
        self._chat_settings: Recent[int, ChatSettings] = Recent(CACHED)
        self._languages: Recent[int, tuple[str | None, str | None]] = Recent(CACHED)

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement on its own; the number of rows it changed."""
        return await self.database.write(sql, params)

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

    # -- chats and users ---------------------------------------------------------------

    async def remember_user(
        self, user_id: int, name: str, username: str | None, telegram_language: str | None = None
    ) -> None:
        """Name and username; Telegram's language code too when it sent one."""
        await self._write(
            "INSERT INTO users (id, name, username, telegram_language) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET name = excluded.name, username = excluded.username, "
            "telegram_language = COALESCE(excluded.telegram_language, users.telegram_language)",
            (user_id, name, username, telegram_language),
        )
        if telegram_language is not None and user_id in self._languages:
            self._languages[user_id] = (self._languages[user_id][0], telegram_language)

    async def user_language(self, user_id: int) -> tuple[str | None, str | None]:
        """(chosen, Telegram's): the language picked for the private chat (None: follow
        Telegram) and the last language code Telegram sent."""
        if user_id not in self._languages:
            rows = await self.rows(
                "SELECT language, telegram_language FROM users WHERE id = ?", (user_id,)
            )
            self._languages[user_id] = (rows[0][0], rows[0][1]) if rows else (None, None)
        return self._languages[user_id]

    async def set_user_language(self, user_id: int, language: str | None) -> None:
        await self._write("UPDATE users SET language = ? WHERE id = ?", (language, user_id))
        self._languages.pop(user_id, None)

    async def set_started(self, user_id: int) -> None:
        await self._write("UPDATE users SET started = 1, blocked = 0 WHERE id = ?", (user_id,))

    async def started_users(self, user_ids: Sequence[int]) -> set[int]:
        """Those of `user_ids` who have opened a private chat with the bot."""
        marks = ", ".join("?" * len(user_ids))
        rows = await self.rows(
            f"SELECT id FROM users WHERE started = 1 AND id IN ({marks})", tuple(user_ids)
        )
        return {row[0] for row in rows}

    async def set_blocked(self, user_id: int) -> bool:
        """Mark the user unreachable; whether that is news (so the group is told once)."""
        changed = await self._write(
            "UPDATE users SET blocked = 1 WHERE id = ? AND blocked = 0", (user_id,)
        )
        return changed > 0

    async def set_reachable(self, user_id: int) -> bool:
        """The user wrote to the bot, or unblocked it: reachable again; whether that is news."""
        changed = await self._write(
            "UPDATE users SET blocked = 0 WHERE id = ? AND blocked = 1", (user_id,)
        )
        return changed > 0

    async def is_blocked(self, user_id: int) -> bool:
        """Whether the user's private chat refused the bot (403) since they last wrote."""
        rows = await self.rows("SELECT blocked FROM users WHERE id = ?", (user_id,))
        return bool(rows and rows[0][0])

    async def remember_chat(self, chat_id: int, kind: str, title: str) -> None:
        await self._write(
            "INSERT INTO chats (id, type, title) VALUES (?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET type = excluded.type, title = excluded.title",
            (chat_id, kind, title),
        )

    async def chat_settings(self, chat_id: int) -> ChatSettings:
        """The chat's settings; defaults until saved."""
        if chat_id not in self._chat_settings:
            rows = await self.rows(
                "SELECT options, language, computers FROM chat_settings WHERE chat_id = ?",
                (chat_id,),
            )
            self._chat_settings[chat_id] = (
                ChatSettings(rows[0][0], rows[0][1], bool(rows[0][2])) if rows else ChatSettings()
            )
        return self._chat_settings[chat_id]

    async def save_chat_settings(self, chat_id: int, settings: ChatSettings) -> None:
        await self._write(
            "INSERT INTO chat_settings (chat_id, options, language, computers) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (chat_id) DO UPDATE SET options = excluded.options, "
            "language = excluded.language, computers = excluded.computers",
            (chat_id, settings.options, settings.language, int(settings.computers)),
        )
        self._chat_settings[chat_id] = settings

    async def add_waiter(self, chat_id: int, user_id: int) -> bool:
        """Tell the user when the chat's next game starts; False if already waiting."""
        added = await self._write(
            "INSERT INTO waiters (chat_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
            (chat_id, user_id),
        )
        return added > 0

    async def take_waiters(self, chat_id: int) -> list[int]:
        """The chat's waiters, in the order they asked; they wait no more."""

        async def take(db: Transaction) -> list[int]:
            waiting = "SELECT user_id FROM waiters WHERE chat_id = ? ORDER BY rowid"
            users = [int(row[0]) for row in await db.fetch(waiting, (chat_id,))]
            await db.execute("DELETE FROM waiters WHERE chat_id = ?", (chat_id,))
            return users

        return await self.database.atomically(take)

    async def migrate_chat(self, old_id: int, new_id: int) -> None:
        """A group became a supergroup: games, results, ratings, settings and waiters follow
        the new id."""

        async def move(db: Transaction) -> None:
            # a row the new id has already is kept, the old one left behind
            await db.execute(
                "UPDATE chats SET id = ? WHERE id = ? "
                "AND NOT EXISTS (SELECT 1 FROM chats WHERE id = ?)",
                (new_id, old_id, new_id),
            )
            # the supergroup numbers its messages anew: old ids would hit other messages
            await db.execute(
                "UPDATE games SET chat_id = ?, lobby_message_id = NULL, table_message_id = NULL "
                "WHERE chat_id = ?",
                (new_id, old_id),
            )
            await db.execute(
                "UPDATE chat_settings SET chat_id = ? WHERE chat_id = ? "
                "AND NOT EXISTS (SELECT 1 FROM chat_settings WHERE chat_id = ?)",
                (new_id, old_id, new_id),
            )
            for table in ("ratings", "waiters"):
                await db.execute(
                    f"UPDATE {table} SET chat_id = ? WHERE chat_id = ? "
                    f"AND user_id NOT IN (SELECT user_id FROM {table} WHERE chat_id = ?)",
                    (new_id, old_id, new_id),
                )
            await db.execute(
                "UPDATE game_results SET chat_id = ? WHERE chat_id = ?", (new_id, old_id)
            )

        await self.database.atomically(move)
        self._chat_settings.pop(old_id, None)
        self._chat_settings.pop(new_id, None)

    # -- games -------------------------------------------------------------------------

    async def create_lobby(
        self,
        chat_id: int,
        thread_id: int,
        creator: Player,
        rules: RuleSet,
        seed: int,
        deadline: float | None = None,
    ) -> GameRow | None:
        """A new lobby with its creator seated (closed at `deadline` if nothing happens), or
        None if the topic has an open game."""

        async def create(db: Transaction) -> int:
            (created,) = await db.fetch(
                "INSERT INTO games (chat_id, thread_id, creator_id, status, rules, seed, "
                "deadline, join_token, owner) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?) "
                "RETURNING id",
                (
                    chat_id,
                    thread_id,
                    creator.user_id,
                    json.dumps(rules.options()),
                    seed,
                    deadline,
                    secrets.token_urlsafe(12),
                    self.worker,
                ),
            )
            game_id = int(created[0])
            await db.execute(
                "INSERT INTO players (game_id, seat, user_id, name) VALUES (?, 0, ?, ?)",
                (game_id, creator.user_id, creator.name),
            )
            return game_id

        try:
            game_id = await self.database.atomically(create)
        except ConflictError:  # one open game per topic
            return None
        return await self.game(game_id)

    async def game(self, game_id: int) -> GameRow | None:
        return await self._one("WHERE g.id = ?", (game_id,))

    async def game_by_token(self, token: str) -> GameRow | None:
        """The game a lobby's deep link names."""
        return await self._one("WHERE g.join_token = ?", (token,))

    async def open_game(self, chat_id: int, thread_id: int) -> GameRow | None:
        """The lobby or running game of a chat (topic)."""
        return await self._one(
            "WHERE g.chat_id = ? AND g.thread_id = ? AND g.status IN (?, ?)",
            (chat_id, thread_id, *OPEN),
        )

    async def running_ids(self) -> list[int]:
        """The ids of the games being played whose duties are this worker's, oldest first."""
        rows = await self.rows(
            "SELECT id FROM games WHERE status = 'active' AND owner = ? ORDER BY id",
            (self.worker,),
        )
        return [int(row[0]) for row in rows]

    async def owed_rounds(self, game_id: int) -> list[dict[str, Any]]:
        """The results of the game's rounds not yet told the chat, in order."""
        rows = await self.rows(
            "SELECT result FROM round_results WHERE game_id = ? AND announced = 0 "
            "ORDER BY round_no",
            (game_id,),
        )
        return [json.loads(row[0]) for row in rows]

    async def announced(self, game_id: int, round_no: int) -> bool:
        """Whether a round's result has been told the chat."""
        rows = await self.rows(
            "SELECT announced FROM round_results WHERE game_id = ? AND round_no = ?",
            (game_id, round_no),
        )
        return bool(rows and rows[0][0])

    async def set_announced(self, game_id: int, round_no: int | None = None) -> None:
        """A round's result (`round_no`), or else the game's end, has been told the chat."""
        if round_no is None:
            await self._write("UPDATE games SET end_announced = 1 WHERE id = ?", (game_id,))
        else:
            await self._write(
                "UPDATE round_results SET announced = 1 WHERE game_id = ? AND round_no = ?",
                (game_id, round_no),
            )

    async def open_games_in(self, chat_id: int) -> list[GameRow]:
        return await self._games("WHERE g.chat_id = ? AND g.status IN (?, ?)", (chat_id, *OPEN))

    async def last_finished_game(self, chat_id: int, thread_id: int) -> GameRow | None:
        return await self._one(
            "WHERE g.chat_id = ? AND g.thread_id = ? AND g.status = 'finished' "
            "ORDER BY g.id DESC LIMIT 1",
            (chat_id, thread_id),
        )

    async def open_games_of(self, user_id: int) -> list[GameRow]:
        return await self._games(
            "JOIN players p ON p.game_id = g.id "
            "WHERE p.user_id = ? AND g.status IN (?, ?) ORDER BY g.id",
            (user_id, *OPEN),
        )

    async def _one(self, where: str, params: Sequence[Any]) -> GameRow | None:
        games = await self._games(where, params)
        return games[0] if games else None

    async def _games(self, where: str, params: Sequence[Any]) -> list[GameRow]:
        """The games `g` that `where` (joins, conditions, order) picks, with their players,
        in one query."""
        rows = await self.rows(f"SELECT g.*, {self._seated} FROM games g {where}", params)
        return [self._game_row(row) for row in rows]

    @staticmethod
    def _game_row(row: Row) -> GameRow:
        players = tuple(
            Player(
                seat=p[0],
                user_id=p[1],
                name=p[2],
                hand_message_id=p[3],
                computer=Level(p[4]) if p[4] else None,
                missed=p[5],
                away=bool(p[6]),
                team=p[7],
            )
            for p in sorted(json.loads(row["seated"] or "[]"))
        )
        return GameRow(
            id=row["id"],
            chat_id=row["chat_id"],
            thread_id=row["thread_id"],
            creator_id=row["creator_id"],
            status=GameStatus(row["status"]),
            rules=RuleSet.from_options(json.loads(row["rules"])),
            seed=row["seed"],
            state=state_from_json(json.loads(row["state"])) if row["state"] else None,
            version=row["version"],
            lobby_message_id=row["lobby_message_id"],
            table_message_id=row["table_message_id"],
            end_reason=EndReason(row["end_reason"]) if row["end_reason"] else None,
            players=players,
            deadline=row["deadline"],
            end_announced=bool(row["end_announced"]),
            join_token=row["join_token"],
            owner=row["owner"],
            ends_at=row["ends_at"],
        )

    async def absent(self, game_id: int, user_id: int) -> bool:
        """Whether the user's seat in the game has turns timed out, or is away (False when
        not seated)."""
        rows = await self.rows(
            "SELECT missed > 0 OR away <> 0 FROM players WHERE game_id = ? AND user_id = ?",
            (game_id, user_id),
        )
        return bool(rows and rows[0][0])

    async def set_missed(self, game_id: int, seat: int, missed: int, away: bool) -> None:
        """How many turns in a row the seat's clock ran out, and whether it is away."""
        await self._write(
            "UPDATE players SET missed = ?, away = ? WHERE game_id = ? AND seat = ?",
            (missed, int(away), game_id, seat),
        )

    async def back(
        self, game_id: int, seat: int, clock: bool, version: int, deadline: float | None
    ) -> None:
        """The seat's person is back: no turns missed, not away; with `clock`, their turn's
        new deadline (this worker keeps it) if the game is still at `version` — in one
        transaction."""

        async def store(db: Transaction) -> None:
            if clock:  # first: the game's row is locked until the commit
                await db.execute(
                    "UPDATE games SET deadline = ?, owner = ? WHERE id = ? AND version = ?",
                    (deadline, self.worker, game_id, version),
                )
            await db.execute(
                "UPDATE players SET missed = 0, away = 0 WHERE game_id = ? AND seat = ?",
                (game_id, seat),
            )

        await self.database.atomically(store)

    async def set_deadline(self, game_id: int, version: int, deadline: float | None) -> None:
        """A new deadline for the turn the game is at (if it still is at `version`); this
        worker keeps the clock."""
        await self._write(
            "UPDATE games SET deadline = ?, owner = ? WHERE id = ? AND version = ?",
            (deadline, self.worker, game_id, version),
        )

    async def set_seats(
        self, game: GameRow, players: Iterable[Player], deadline: float | None = None
    ) -> None:
        """The lobby's players, seated in this order (and, given, its new idle deadline),
        if it still seats `game.players` (else `StaleVersionError`: another worker changed
        the seats since `game` was read)."""
        game_id = game.id
        seats = [
            (game_id, seat, p.user_id, p.name, p.computer, p.team) for seat, p in enumerate(players)
        ]

        async def seat(db: Transaction) -> None:
            await db.execute(  # first: the game's row is locked until the commit
                "UPDATE games SET deadline = COALESCE(?, deadline), owner = ? WHERE id = ?",
                (deadline, self.worker, game_id),
            )
            await self._still_seated(db, game)
            await db.execute("DELETE FROM players WHERE game_id = ?", (game_id,))
            await db.executemany(
                "INSERT INTO players (game_id, seat, user_id, name, computer, team) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                seats,
            )

        await self.database.atomically(seat)

    @staticmethod
    async def _still_seated(db: Transaction, game: GameRow) -> None:
        """`StaleVersionError` unless the game seats exactly `game.players` (who, with what
        computer level and team)."""
        rows = await db.fetch(
            "SELECT user_id, computer, team FROM players WHERE game_id = ? ORDER BY seat",
            (game.id,),
        )
        if [tuple(row) for row in rows] != [(p.user_id, p.computer, p.team) for p in game.players]:
            raise StaleVersionError(f"the seats of game {game.id} changed")

    async def set_rules(self, game_id: int, rules: RuleSet, deadline: float | None = None) -> None:
        """The lobby's rules (and, given, its new idle deadline)."""
        await self._write(
            "UPDATE games SET rules = ?, deadline = COALESCE(?, deadline), owner = ? "
            "WHERE id = ? AND status = 'lobby'",
            (json.dumps(rules.options()), deadline, self.worker, game_id),
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
        state: GameState,
        rounds: Sequence[tuple[int, dict[str, Any]]] = (),
        ending: tuple[EndReason, Sequence[Standing], bool] | None = None,
        deadline: float | None = None,
        ends_at: float | None = None,
    ) -> GameRow:
        """Append `(user_id, entry)`s and store the new state, all or nothing.

        `game.version` must still be current (else `StaleVersionError`); `rounds` are round
        results to keep; `ending` is `(reason, standings, rated)` when the game is
        over, with a standing for every person's seat: their game results are kept, and if
        `rated` the chat's ratings change too; `deadline` is when the next turn runs out;
        `ends_at`, given at the start, when a «Генерал» match's time is up. Returns the game
        as stored now.
        """
        version = game.version + len(entries)
        encoded = json.dumps(state_to_json(state))
        moves = [
            (game.id, game.version + i, user, json.dumps(entry))
            for i, (user, entry) in enumerate(entries, start=1)
        ]
        results = [
            (game.id, round_no, json.dumps(result), self.worker) for round_no, result in rounds
        ]

        async def store(db: Transaction) -> None:
            changed = await db.execute(
                "UPDATE games SET state = ?, version = ?, status = 'active', deadline = ?, "
                "owner = ?, ends_at = COALESCE(?, ends_at) "
                "WHERE id = ? AND version = ? AND status IN (?, ?)",
                (encoded, version, deadline, self.worker, ends_at, game.id, game.version, *OPEN),
            )
            if changed != 1:
                raise StaleVersionError(f"game {game.id} is no longer at version {game.version}")
            if game.status is GameStatus.LOBBY:  # the deal is for the seats it was read with
                await self._still_seated(db, game)
            await db.executemany(
                "INSERT INTO moves (game_id, seq, user_id, entry) VALUES (?, ?, ?, ?)", moves
            )
            if results:
                await db.executemany(
                    "INSERT INTO round_results (game_id, round_no, result, announced, teller) "
                    "VALUES (?, ?, ?, 0, ?)",
                    results,
                )
            if ending is not None:
                reason, standings, rated = ending
                await db.execute(
                    "UPDATE games SET status = ?, end_reason = ?, ended_at = CURRENT_TIMESTAMP, "
                    "end_announced = 0 WHERE id = ?",
                    (GameStatus.FINISHED, reason, game.id),
                )
                await keep_results(db, game, reason, standings, rated)

        await self.database.atomically(store)
        stored = replace(game, status=GameStatus.ACTIVE, state=state, version=version)
        if ending is not None:
            stored = replace(stored, status=GameStatus.FINISHED, end_reason=ending[0])
            stored = replace(stored, end_announced=False)
        return replace(stored, deadline=deadline)

    async def cancel(self, game_id: int, reason: EndReason) -> bool:
        """Cancel an open game (nothing is rated); whether it was open."""
        changed = await self._write(
            "UPDATE games SET status = ?, end_reason = ?, ended_at = CURRENT_TIMESTAMP "
            "WHERE id = ? AND status IN (?, ?)",
            (GameStatus.CANCELLED, reason, game_id, *OPEN),
        )
        return changed > 0

    # -- the workers (`crew`) ----------------------------------------------------------

    async def beat(self, now: float) -> None:
        """This worker is alive at `now`."""
        await self._write(
            "INSERT INTO workers (id, beat) VALUES (?, ?) "
            "ON CONFLICT (id) DO UPDATE SET beat = excluded.beat",
            (self.worker, now),
        )

    async def alive(self, since: float) -> list[str]:
        """The workers that have beaten since `since`, in the order of their ids."""
        found = await self.database.rows(
            "SELECT id FROM workers WHERE beat >= ? ORDER BY id", (since,)
        )
        return [row[0] for row in found]

    async def leave(self) -> None:
        """This worker stops: its games are nobody's, and it is no longer about."""

        async def leave(db: Transaction) -> None:
            await db.execute("UPDATE games SET owner = NULL WHERE owner = ?", (self.worker,))
            await db.execute("DELETE FROM workers WHERE id = ?", (self.worker,))

        await self.database.atomically(leave)

    async def adopt(self, alive_since: float) -> list[GameRow]:
        """Make this worker's every open game, and every finished one still owing the chat
        its end or a round, that nobody holds or whose worker has not beaten since
        `alive_since` — and every game owing a round whose teller is gone so (the next
        turn may have been stored elsewhere); those games, oldest first, with their owed
        rounds this worker's to tell. Two workers adopting at once take each game once:
        the update's row lock lets the second find it held by a live one."""
        alive = "(SELECT id FROM workers WHERE beat >= ?)"

        async def adopt(db: Transaction) -> list[int]:
            taken = await db.fetch(
                "UPDATE games SET owner = ? WHERE ((status IN (?, ?) OR (status = 'finished' "
                "AND (end_announced = 0 OR id IN "
                "(SELECT game_id FROM round_results WHERE announced = 0)))) "
                f"AND (owner IS NULL OR (owner <> ? AND owner NOT IN {alive}))) "
                "OR id IN (SELECT game_id FROM round_results WHERE announced = 0 "
                f"AND (teller IS NULL OR (teller <> ? AND teller NOT IN {alive}))) RETURNING id",
                (self.worker, *OPEN, self.worker, alive_since, self.worker, alive_since),
            )
            ids = sorted(int(row[0]) for row in taken)
            if ids:
                await db.execute(
                    f"UPDATE round_results SET teller = ? WHERE announced = 0 "
                    f"AND game_id IN ({', '.join('?' * len(ids))})",
                    (self.worker, *ids),
                )
            return ids

        ids = await self.database.atomically(adopt)
        if not ids:
            return []
        marks = ", ".join("?" * len(ids))
        return await self._games(f"WHERE g.id IN ({marks}) ORDER BY g.id", ids)

    # -- what each message shows ---------------------------------------------------------

    async def shown(self, chat_id: int, message_id: int) -> str | None:
        """The digest of what the message showed when the bot last sent or edited it."""
        rows = await self.rows(
            "SELECT digest FROM shown WHERE chat_id = ? AND message_id = ?", (chat_id, message_id)
        )
        return str(rows[0][0]) if rows else None

    async def set_shown(self, chat_id: int, message_id: int, digest: str | None) -> None:
        """Remember what the message shows now (None: it is gone)."""
        if digest is None:
            await self._write(
                "DELETE FROM shown WHERE chat_id = ? AND message_id = ?", (chat_id, message_id)
            )
            return
        await self._write(
            "INSERT INTO shown (chat_id, message_id, digest) VALUES (?, ?, ?) "
            "ON CONFLICT (chat_id, message_id) DO UPDATE SET digest = excluded.digest",
            (chat_id, message_id, digest),
        )

    async def log(self, game_id: int) -> list[dict[str, Any]]:
        """The game's move log, in order."""
        rows = await self.rows("SELECT entry FROM moves WHERE game_id = ? ORDER BY seq", (game_id,))
        return [json.loads(row[0]) for row in rows]
