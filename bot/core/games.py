"""The games' repository: lobbies and their seats and rules, games and their move log,
the turns' clocks, round results until told the chat, and what a finished game leaves
(`results`), on either database (`bot.core.database`).

Every accepted move is written in one transaction — state, version, log entries, round
results and, at the end, game results and ratings — before anything is sent about it.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import replace

from bot.core.changes import GameChanges
from bot.core.database import ConflictError, Database, Transaction
from bot.core.errors import StaleVersionError
from bot.core.reading import GameReader, still_seated
from bot.core.results import keep_results
from bot.core.rows import (
    OPEN,
    Ending,
    GameRow,
    GameStatus,
    LogEntry,
    Player,
    RoundResult,
    deal_code,
)
from bot.core.seasons import keep_season
from bot.game.events import EndReason
from bot.game.rules import RuleSet
from bot.game.serial import JSON, state_to_json
from bot.game.state import GameState


class Games:
    """Games and lobbies as this worker (`worker`, see `crew`) reads and changes them."""

    def __init__(self, database: Database, worker: str) -> None:
        self.database = database
        self.worker = worker
        self._read = GameReader(database)
        self.changes = GameChanges(database, worker)  # who hears of each change committed

    # -- reading ---------------------------------------------------------------------

    async def game(self, game_id: int) -> GameRow | None:
        return await self._read.one("WHERE g.id = ?", (game_id,))

    async def game_by_token(self, token: str) -> GameRow | None:
        """The game a lobby's deep link names."""
        return await self._read.one("WHERE g.join_token = ?", (token,))

    async def open_game(self, chat_id: int, thread_id: int) -> GameRow | None:
        """The lobby or running game of a chat (topic)."""
        return await self._read.one(
            "WHERE g.chat_id = ? AND g.thread_id = ? AND g.status IN (?, ?)",
            (chat_id, thread_id, *OPEN),
        )

    async def running_ids(self) -> list[int]:
        """The ids of the games being played whose duties are this worker's, oldest first."""
        rows = await self.database.rows(
            "SELECT id FROM games WHERE status = 'active' AND owner = ? ORDER BY id",
            (self.worker,),
        )
        return [int(row[0]) for row in rows]

    async def open_games_in(self, chat_id: int) -> list[GameRow]:
        return await self._read.games(
            "WHERE g.chat_id = ? AND g.status IN (?, ?)", (chat_id, *OPEN)
        )

    async def last_finished_game(self, chat_id: int, thread_id: int) -> GameRow | None:
        return await self._read.one(
            "WHERE g.chat_id = ? AND g.thread_id = ? AND g.status = 'finished' "
            "ORDER BY g.id DESC LIMIT 1",
            (chat_id, thread_id),
        )

    async def open_games_of(self, user_id: int) -> list[GameRow]:
        return await self._read.games(
            "JOIN players p ON p.game_id = g.id "
            "WHERE p.user_id = ? AND g.status IN (?, ?) ORDER BY g.id",
            (user_id, *OPEN),
        )

    async def log(self, game_id: int) -> list[JSON]:
        """The game's move log, in order."""
        rows = await self.database.rows(
            "SELECT entry FROM moves WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [json.loads(row[0]) for row in rows]

    # -- lobbies ---------------------------------------------------------------------

    async def create_lobby(
        self,
        chat_id: int,
        thread_id: int,
        creator: Player,
        rules: RuleSet,
        seed: int,
        deadline: float | None = None,
        dealt_from: str | None = None,
    ) -> GameRow | None:
        """A new lobby with its creator seated (closed at `deadline` if nothing happens; its
        first round dealt from the code `dealt_from`), or None if the topic has an open
        game."""

        async def create(db: Transaction) -> int:
            (created,) = await db.fetch(
                "INSERT INTO games (chat_id, thread_id, creator_id, status, rules, seed, "
                "deadline, join_token, owner, dealt_from) "
                "VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?) RETURNING id",
                (
                    chat_id,
                    thread_id,
                    creator.user_id,
                    json.dumps(rules.options()),
                    seed,
                    deadline,
                    secrets.token_urlsafe(12),
                    self.worker,
                    dealt_from,
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
            await still_seated(db, game)
            await db.execute("DELETE FROM players WHERE game_id = ?", (game_id,))
            await db.executemany(
                "INSERT INTO players (game_id, seat, user_id, name, computer, team) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                seats,
            )

        await self.database.atomically(seat)
        self.changes.changed(game_id)

    async def set_rules(self, game_id: int, rules: RuleSet, deadline: float | None = None) -> None:
        """The lobby's rules (and, given, its new idle deadline)."""
        await self.database.write(
            "UPDATE games SET rules = ?, deadline = COALESCE(?, deadline), owner = ? "
            "WHERE id = ? AND status = 'lobby'",
            (json.dumps(rules.options()), deadline, self.worker, game_id),
        )
        self.changes.changed(game_id)

    # -- the seats' clocks -------------------------------------------------------------

    async def set_missed(self, game_id: int, seat: int, missed: int, away: bool) -> None:
        """How many turns in a row the seat's clock ran out, and whether it is away."""
        await self.database.write(
            "UPDATE players SET missed = ?, away = ? WHERE game_id = ? AND seat = ?",
            (missed, int(away), game_id, seat),
        )
        self.changes.changed(game_id)

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
        self.changes.changed(game_id)

    async def set_deadline(self, game_id: int, version: int, deadline: float | None) -> None:
        """A new deadline for the turn the game is at (if it still is at `version`); this
        worker keeps the clock."""
        await self.database.write(
            "UPDATE games SET deadline = ?, owner = ? WHERE id = ? AND version = ?",
            (deadline, self.worker, game_id, version),
        )
        self.changes.changed(game_id)

    # -- moves, rounds, endings ----------------------------------------------------------

    async def record(
        self,
        game: GameRow,
        entries: Sequence[LogEntry],
        state: GameState,
        rounds: Sequence[RoundResult] = (),
        ending: Ending | None = None,
        deadline: float | None = None,
        ends_at: float | None = None,
    ) -> GameRow:
        """Append `entries` to the log and store the new state, all or nothing.

        `game.version` must still be current (else `StaleVersionError`); `rounds` are round
        results to keep; `ending` is given when the game is over, with a standing for every
        person's seat: their game results are kept, and if it is rated the chat's ratings
        change too; `deadline` is when the next turn runs out; `ends_at`, given at the
        start, when a «Генерал» match's time is up. Returns the game as stored now.
        """
        version = game.version + len(entries)
        encoded = json.dumps(state_to_json(state))
        moves = [
            (game.id, game.version + i, e.user_id, json.dumps(e.entry))
            for i, e in enumerate(entries, start=1)
        ]
        results = [
            (game.id, r.round_no, json.dumps(r.result), self.worker, _code(game, r.round_no))
            for r in rounds
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
                await still_seated(db, game)
            await db.executemany(
                "INSERT INTO moves (game_id, seq, user_id, entry) VALUES (?, ?, ?, ?)", moves
            )
            if results:
                await db.executemany(
                    "INSERT INTO round_results (game_id, round_no, result, announced, teller, "
                    "deal_code) VALUES (?, ?, ?, 0, ?, ?)",
                    results,
                )
            if ending is not None:
                await _finish(db, game, ending, self.database.dialect.name == "postgres")

        await self.database.atomically(store)
        self._read.states.keep(game.id, encoded, state)
        stored = _as_stored(game, state, version, ending, deadline, ends_at, self.worker)
        self.changes.changed(game.id, stored)
        return stored

    async def cancel(self, game_id: int, reason: EndReason) -> bool:
        """Cancel an open game (nothing is rated); whether it was open."""
        changed = await self.database.write(
            "UPDATE games SET status = ?, end_reason = ?, ended_at = CURRENT_TIMESTAMP "
            "WHERE id = ? AND status IN (?, ?)",
            (GameStatus.CANCELLED, reason, game_id, *OPEN),
        )
        if changed:
            self.changes.changed(game_id)
        return changed > 0

    async def owed_rounds(self, game_id: int) -> list[JSON]:
        """The results of the game's rounds not yet told the chat, in order."""
        rows = await self.database.rows(
            "SELECT result FROM round_results WHERE game_id = ? AND announced = 0 "
            "ORDER BY round_no",
            (game_id,),
        )
        return [json.loads(row[0]) for row in rows]

    async def announced(self, game_id: int, round_no: int) -> bool:
        """Whether a round's result has been told the chat."""
        rows = await self.database.rows(
            "SELECT announced FROM round_results WHERE game_id = ? AND round_no = ?",
            (game_id, round_no),
        )
        return bool(rows and rows[0][0])

    async def set_announced(self, game_id: int, round_no: int | None = None) -> None:
        """A round's result (`round_no`), or else the game's end, has been told the chat."""
        if round_no is None:
            await self.database.write("UPDATE games SET end_announced = 1 WHERE id = ?", (game_id,))
        else:
            await self.database.write(
                "UPDATE round_results SET announced = 1 WHERE game_id = ? AND round_no = ?",
                (game_id, round_no),
            )


def _as_stored(
    game: GameRow,
    state: GameState,
    version: int,
    ending: Ending | None,
    deadline: float | None,
    ends_at: float | None,
    owner: str,
) -> GameRow:
    """`game` as `Games.record` leaves it (what a read would give)."""
    stored = replace(
        game,
        status=GameStatus.ACTIVE,
        state=state,
        version=version,
        deadline=deadline,
        owner=owner,
        ends_at=game.ends_at if ends_at is None else ends_at,
    )
    if ending is None:
        return stored
    return replace(
        stored, status=GameStatus.FINISHED, end_reason=ending.reason, end_announced=False
    )


def _code(game: GameRow, round_no: int) -> str:
    """A finished round's deal code: the one it was dealt from, or a new one."""
    if round_no == 1 and game.dealt_from is not None:
        return game.dealt_from
    return deal_code()


async def _finish(db: Transaction, game: GameRow, ending: Ending, postgres: bool) -> None:
    """The game is over: its status and reason, the chat's season (`keep_season`), every
    person's result and, if rated, the chat's ratings."""
    await db.execute(
        "UPDATE games SET status = ?, end_reason = ?, ended_at = CURRENT_TIMESTAMP, "
        "end_announced = 0 WHERE id = ?",
        (GameStatus.FINISHED, ending.reason, game.id),
    )
    await keep_season(db, postgres, game, ending)
    await keep_results(db, game, ending)
