"""Finished games as records (docs/RECORD.md) — for /history, /export, the round replays
and shared deals.

A game's record is built from its move log with the rules it was played under, once it is
over (games stored before records were kept get theirs the first time they are asked for),
and kept. A running game has no record anyone can see; a finished round of one can be
replayed (its hands were shown at its end), and its deal code shared.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from enum import StrEnum

from bot.core.rows import DealAtTable, GameRow, GameStatus, SharedDeal
from bot.core.storage import Storage
from bot.game import record as records
from bot.game.record import Played, Record, Seat

EXPORT_BATCH = 50
"""Records read at a time for /export."""


class Asked(StrEnum):
    """What a person's ask of a finished round («🎞 Повтор») or game («🔍 Разбор») comes
    to, in Telegram or in the table app: one to send, or why not."""

    REPLAY = "replay"
    NOT_OVER = "not-over"  # the round is not over (or no such round)
    NOT_STARTED = "not-started"  # their private chat with the bot was never opened
    REVIEW = "review"  # to make, then send
    REVIEW_AGAIN = "review-again"  # made before: sent again
    REVIEW_BUSY = "review-busy"  # being made or sent for an earlier ask (here or elsewhere)
    NOT_YOURS = "not-yours"  # a review only of one's own seat in a finished game


@dataclass(frozen=True, slots=True)
class Ask:
    """An ask's answer, and what to send to the asker's private chat (`record`: none when
    refused), for a review from which seat (held: `Replays.send_review` lets it go)."""

    asked: Asked
    record: Record | None = None
    seat: int = 0


class History:
    """Records of finished games and rounds, built when first asked for and kept."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def record(self, game_id: int) -> Record | None:
        """The finished game's record; None for a game still running (or cancelled)."""
        kept = await self.storage.archive.record(game_id)
        if kept is not None:
            return kept
        game = await self.storage.games.game(game_id)
        if game is None or game.status is not GameStatus.FINISHED or game.state is None:
            return None
        built = await self._build(game)
        await self.storage.archive.keep(game.id, game.chat_id, built)
        return built

    async def in_chat(self, game_id: int, chat_id: int) -> bool:
        """Whether the game was played in the chat."""
        game = await self.storage.games.game(game_id)
        return game is not None and game.chat_id == chat_id

    async def recent(self, chat_id: int, limit: int) -> list[Record]:
        """The chat's last `limit` finished games' records, the latest first."""
        ids = await self.storage.archive.finished(chat_id, limit)
        found = [await self.record(game_id) for game_id in ids]
        return [r for r in found if r is not None]

    async def every(self, chat_id: int) -> AsyncIterator[Record]:
        """All the chat's finished games' records, the oldest first (/export)."""
        ids = sorted(await self.storage.archive.finished(chat_id))
        for game_id in ids:
            found = await self.record(game_id)
            if found is not None:
                yield found

    async def finished_round(self, game_id: int, round_no: int) -> Record | None:
        """A record of the game up to round `round_no` if that round is over (for a running
        game too): what its replay is drawn from. Nothing of a later round is in it."""
        if await self.storage.archive.code(game_id, round_no) is None:
            return None  # not over yet (or no such round)
        kept = await self.storage.archive.record(game_id)
        if kept is None:
            game = await self.storage.games.game(game_id)
            if game is None or game.state is None:
                return None
            kept = await self._build(game)
        rounds = [r for r in kept["rounds"] if r["round"] <= round_no]
        if not rounds or rounds[-1]["round"] != round_no or rounds[-1]["result"] is None:
            return None
        return {**kept, "rounds": rounds, "end": None}

    async def ask_replay(self, game_id: int, round_no: int, user_id: int) -> Ask:
        """A round's replay for a person (anyone may ask: its hands were shown at its end),
        once the round is over and they have opened their private chat with the bot."""
        record = await self.finished_round(game_id, round_no)
        if record is None:
            return Ask(Asked.NOT_OVER)
        if not await self.storage.people.started_users([user_id]):
            return Ask(Asked.NOT_STARTED)
        return Ask(Asked.REPLAY, record)

    async def ask_review(self, game_id: int, user_id: int) -> Ask:
        """The review of a person's own seat in a finished game, held for this worker to
        make or send, unless an earlier ask holds it."""
        game = await self.storage.games.game(game_id)
        seat = None if game is None else game.seat_of(user_id)
        record = await self.record(game_id) if seat is not None else None
        if seat is None or record is None:
            return Ask(Asked.NOT_YOURS)
        if not await self.storage.people.started_users([user_id]):
            return Ask(Asked.NOT_STARTED)
        archive, worker = self.storage.archive, self.storage.worker
        if not await archive.hold_review(game_id, seat, worker):
            return Ask(Asked.REVIEW_BUSY)
        kept = await archive.review(game_id, seat) is not None
        return Ask(Asked.REVIEW_AGAIN if kept else Asked.REVIEW, record, seat)

    async def shared(self, code: str) -> SharedDeal | None:
        """The deal a code stands for (from the round first dealt it), if any."""
        dealings = await self.storage.archive.dealings(code)
        if not dealings:
            return None
        first = dealings[0]
        kept = await self.finished_round(first.game_id, first.round_no)
        if kept is None:
            return None
        rules = records.rules_of(kept)
        return SharedDeal(rules, records.dealt_of(rules, kept["rounds"][-1]["deal"]))

    async def tables(self, code: str) -> list[DealAtTable]:
        """Every table that played the code's deal, and how its round went: names only
        where the chat allows it (`/settings`)."""
        tables = []
        for dealing in await self.storage.archive.dealings(code):
            kept = await self.finished_round(dealing.game_id, dealing.round_no)
            if kept is None:
                continue
            settings = await self.storage.people.chat_settings(dealing.chat_id)
            names = tuple(s["name"] for s in kept["seats"])
            table = DealAtTable(
                dealing=dealing,
                preset=kept["preset"],
                shown=settings.shows_deals,
                names=names,
                round=kept["rounds"][-1],
            )
            tables.append(table)
        return tables

    async def _build(self, game: GameRow) -> Record:
        log = await self.storage.archive.stamped_log(game.id)
        codes = await self.storage.archive.codes(game.id)
        started, ended = await self.storage.archive.times(game.id)
        seats = [Seat(p.name, None if p.human else str(p.computer)) for p in game.players]
        played = Played(
            game=game.id,
            started=started,
            ended=ended if game.status is GameStatus.FINISHED else None,
            codes=codes,
        )
        return await asyncio.to_thread(records.build, game.rules, seats, game.seed, log, played)
