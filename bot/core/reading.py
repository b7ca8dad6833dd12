"""Reading games: the rows of `games` with their players (one JSON list read with each
game, in one query), decoded once into `GameRow`s; and the check that a lobby still seats
whom it was read with. Shared by the games' repository and the workers' (`adopt`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.ai import Level
from bot.core.database import Database, Row, Transaction
from bot.core.errors import StaleVersionError
from bot.core.recent import Recent
from bot.core.rows import GameRow, GameStatus, Player
from bot.game.events import EndReason
from bot.game.rules import RuleSet
from bot.game.serial import state_from_json
from bot.game.state import GameState

KEPT = 4096
"""How many games' states `States` keeps decoded: every busy table's."""

SEATS = "s.seat, s.user_id, s.name, s.hand_message_id, s.computer, s.missed, s.away, s.team"


class States:
    """Each recent game's state as last stored or read, with the text stored: a press reads
    its game, whose text is the one its last move wrote, so it is not decoded again (a
    state is immutable; the least recently used game is forgotten first)."""

    def __init__(self, kept: int = KEPT) -> None:
        self._states: Recent[int, tuple[str, GameState]] = Recent(kept)

    def decoded(self, game_id: int, text: str) -> GameState:
        if game_id in self._states and self._states[game_id][0] == text:
            return self._states[game_id][1]
        state = state_from_json(json.loads(text))
        self.keep(game_id, text, state)
        return state

    def keep(self, game_id: int, text: str, state: GameState) -> None:
        self._states[game_id] = (text, state)


class GameReader:
    """The games `g` a query picks, with their players."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.states = States()
        # a game's players as a JSON list of rows, read with the game
        seated = database.dialect.json_rows.format(SEATS)
        self._seated = f"(SELECT {seated} FROM players s WHERE s.game_id = g.id) AS seated"

    async def one(self, where: str, params: Sequence[Any]) -> GameRow | None:
        games = await self.games(where, params)
        return games[0] if games else None

    async def games(self, where: str, params: Sequence[Any]) -> list[GameRow]:
        """The games `g` that `where` (joins, conditions, order) picks, with their players,
        in one query."""
        rows = await self.database.rows(f"SELECT g.*, {self._seated} FROM games g {where}", params)
        return [game_row(row, self.states) for row in rows]


def game_row(row: Row, states: States) -> GameRow:
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
        state=states.decoded(row["id"], row["state"]) if row["state"] else None,
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
        dealt_from=row["dealt_from"],
    )


async def still_seated(db: Transaction, game: GameRow) -> None:
    """`StaleVersionError` unless the game seats exactly `game.players` (who, with what
    computer level and team)."""
    rows = await db.fetch(
        "SELECT user_id, computer, team FROM players WHERE game_id = ? ORDER BY seat",
        (game.id,),
    )
    if [tuple(row) for row in rows] != [(p.user_id, p.computer, p.team) for p in game.players]:
        raise StaleVersionError(f"the seats of game {game.id} changed")
