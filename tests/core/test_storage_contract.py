"""The storage's contract, held by both databases: every test runs on a real SQLite file
and on a real PostgreSQL database (`open_storage`), through `Storage`'s repositories.
(Ratings, stats, settings, languages and waiters: `test_storage_stats.py`.)"""

from __future__ import annotations

import asyncio
import math

import pytest

from bot.ai import Level
from bot.core.database import migrations
from bot.core.database.postgres import POSTGRES, numbered, shown
from bot.core.database.sqlite import SQLITE
from bot.core.errors import StaleVersionError
from bot.core.outbox import SHARDS, Outbox, Parcel, shard_of
from bot.core.rows import (
    Ending,
    GameRow,
    GameStatus,
    LogEntry,
    Player,
    RoundResult,
    Standing,
)
from bot.core.storage import Storage
from bot.game import new_game, parse_rules
from bot.game.events import EndReason
from bot.telegram.references import MessageReferences
from tests.conftest import Opener
from tests.e2e.process import LATEST

CHAT = -1_002_233_445_566  # a supergroup's id needs 64 bits
ANN, BOB = 7_000_000_001, 7_000_000_002
RULES = parse_rules("goat players=2")
STATE = new_game(RULES, ("Ann", "Bob"), 1)[0]
PASS = {"type": "Pass"}


async def lobby(storage: Storage, thread: int = 0) -> GameRow:
    game = await storage.games.create_lobby(CHAT, thread, Player(0, ANN, "Ann"), RULES, 2**47, 10.5)
    assert game is not None
    await storage.games.set_seats(game, [Player(0, ANN, "Ann"), Player(1, BOB, "Bob")])
    stored = await storage.games.game(game.id)
    assert stored is not None
    return stored


def test_every_migration_exists_in_both_dialects() -> None:
    numbers = [number for number, _ in migrations(SQLITE)]
    assert numbers == list(range(1, LATEST + 1))
    assert [number for number, _ in migrations(POSTGRES)] == numbers


def test_placeholders_are_numbered_outside_quoted_text() -> None:
    assert numbered("SELECT ? WHERE a = '?' AND \"b?\" = ?") == (
        "SELECT $1 WHERE a = '?' AND \"b?\" = $2"
    )
    assert (
        shown("postgresql://kozel:hunter2@db:5432/kozel") == "postgresql://kozel:***@db:5432/kozel"
    )


async def test_a_new_database_is_at_the_latest_version(open_storage: Opener) -> None:
    storage = await open_storage()
    assert await storage.schema_version() == LATEST
    again = await open_storage()  # opening a migrated database migrates nothing
    assert await again.schema_version() == LATEST


async def test_one_open_game_per_topic(open_storage: Opener) -> None:
    storage = await open_storage()
    game = await lobby(storage)
    assert game.status is GameStatus.LOBBY and game.chat_id == CHAT
    assert (game.seed, game.deadline, game.version) == (2**47, 10.5, 0)
    assert [p.user_id for p in game.players] == [ANN, BOB]
    assert await storage.games.create_lobby(CHAT, 0, Player(0, BOB, "Bob"), RULES, 1) is None
    in_topic = await lobby(storage, thread=5)
    assert await storage.games.open_game(CHAT, 5) == in_topic
    assert await storage.games.open_game(CHAT, 0) == game
    assert game.join_token is not None
    assert await storage.games.game_by_token(game.join_token) == game
    assert [g.id for g in await storage.games.open_games_in(CHAT)] == [game.id, in_topic.id]
    assert [g.id for g in await storage.games.open_games_of(BOB)] == [game.id, in_topic.id]
    assert await storage.games.game(10**12) is None


async def test_seats_rules_and_messages_are_kept(open_storage: Opener) -> None:
    storage = await open_storage()
    references = MessageReferences(storage.database)  # the Telegram shell's
    game = await lobby(storage)
    computer = Player(2, -1, "Робот", computer=Level.HARD, team=1)
    await storage.games.set_seats(game, [*game.players, computer], deadline=99.0)
    await storage.games.set_rules(game.id, parse_rules("goat players=3"))
    await references.set_lobby_message(game.id, 11)
    await references.set_table_message(game.id, 12)
    await references.set_hand_message(game.id, 1, 13)
    await storage.games.set_missed(game.id, 1, 2, True)
    stored = await storage.games.game(game.id)
    assert stored is not None
    assert stored.players[2] == computer
    assert (stored.players[1].hand_message_id, stored.players[1].missed) == (13, 2)
    assert stored.players[1].away
    assert (stored.lobby_message_id, stored.table_message_id, stored.deadline) == (11, 12, 99.0)
    assert stored.rules.players == 3


async def test_a_move_is_stored_once_per_version(open_storage: Opener) -> None:
    storage = await open_storage()
    game = await lobby(storage)
    moved = await storage.games.record(
        game, [LogEntry(ANN, PASS), LogEntry(None, PASS)], STATE, deadline=50.0
    )
    assert (moved.version, moved.status, moved.deadline) == (2, GameStatus.ACTIVE, 50.0)
    assert await storage.games.game(game.id) == moved
    assert await storage.games.running_ids() == [game.id]
    with pytest.raises(StaleVersionError):  # the same turn again: another writer was first
        await storage.games.record(game, [LogEntry(BOB, PASS)], STATE)
    assert await storage.games.log(game.id) == [PASS, PASS]
    assert await storage.games.game(game.id) == moved
    await storage.games.set_deadline(game.id, 1, 77.0)  # a deadline for a turn long gone: nothing
    await storage.games.set_deadline(game.id, 2, 60.0)
    assert (await storage.games.game(game.id)).deadline == 60.0  # type: ignore[union-attr]


async def test_a_person_back_is_stored_in_one_write(open_storage: Opener) -> None:
    """Back from away: no turns missed, not away, and their clock for the turn the game is
    at (none for a turn long gone)."""
    storage = await open_storage()
    game = await lobby(storage)
    moved = await storage.games.record(game, [LogEntry(ANN, PASS)], STATE)
    await storage.games.set_missed(game.id, 1, 3, True)
    await storage.games.back(game.id, 1, True, moved.version - 1, 70.0)  # a turn long gone
    stored = await storage.games.game(game.id)
    assert stored is not None and stored.deadline is None
    assert (stored.players[1].missed, stored.players[1].away) == (0, False)
    await storage.games.set_missed(game.id, 1, 3, True)
    await storage.games.back(game.id, 1, True, moved.version, 80.0)
    stored = await storage.games.game(game.id)
    assert stored is not None and (stored.deadline, stored.owner) == (80.0, storage.worker)
    assert (stored.players[1].missed, stored.players[1].away) == (0, False)


async def test_two_writers_on_one_turn_store_one_move(open_storage: Opener) -> None:
    """Two storages on one database (two workers) record the same turn at once."""
    first, second = await open_storage(), await open_storage()
    game = await lobby(first)
    outcomes = await asyncio.gather(
        *(
            s.games.record(game, [LogEntry(ANN, PASS)], STATE)
            for s in (first, second, first, second)
        ),
        return_exceptions=True,
    )
    assert sum(isinstance(o, GameRow) for o in outcomes) == 1
    assert sum(isinstance(o, StaleVersionError) for o in outcomes) == 3
    assert await second.games.log(game.id) == [PASS]


async def test_an_ending_is_owed_to_the_chat_until_announced(open_storage: Opener) -> None:
    storage = await open_storage()
    await storage.people.remember_user(ANN, "Ann", None)
    game = await lobby(storage)
    rounds = [RoundResult(1, {"round": 1}), RoundResult(2, {"round": 2})]
    standings = (
        Standing(ANN, 0, 0, 1, True, False, 20, 0),
        Standing(BOB, 1, 1, 2, False, True, 110, 2),
    )
    ended = await storage.games.record(
        game,
        [LogEntry(ANN, PASS)],
        STATE,
        rounds,
        Ending(EndReason.TARGET, standings, True, at=0.0),
    )
    assert (ended.status, ended.end_reason, ended.end_announced) == (
        GameStatus.FINISHED,
        EndReason.TARGET,
        False,
    )
    assert await storage.games.game(game.id) == ended
    assert await storage.games.open_game(CHAT, 0) is None
    assert await storage.games.last_finished_game(CHAT, 0) == ended
    stranger = await open_storage()  # a worker that finds it owing: takes it to tell it
    assert [g.id for g in await stranger.workers.adopt(math.inf)] == [game.id]
    assert await storage.games.owed_rounds(game.id) == [{"round": 1}, {"round": 2}]
    await storage.games.set_announced(game.id, 1)
    assert await storage.games.owed_rounds(game.id) == [{"round": 2}]
    await storage.games.set_announced(game.id, 2)
    await storage.games.set_announced(game.id)
    assert await (await open_storage()).workers.adopt(math.inf) == []
    assert (await storage.games.create_lobby(CHAT, 0, Player(0, BOB, "Bob"), RULES, 1)) is not None


async def test_only_an_open_game_is_cancelled(open_storage: Opener) -> None:
    storage = await open_storage()
    game = await lobby(storage)
    assert await storage.games.cancel(game.id, EndReason.IDLE)
    assert not await storage.games.cancel(game.id, EndReason.ENDED)
    cancelled = await storage.games.game(game.id)
    assert cancelled is not None
    assert (cancelled.status, cancelled.end_reason) == (GameStatus.CANCELLED, EndReason.IDLE)


async def test_what_a_message_shows(open_storage: Opener) -> None:
    references = MessageReferences((await open_storage()).database)
    assert await references.shown(CHAT, 5) is None
    await references.set_shown(CHAT, 5, "table|keys")
    await references.set_shown(CHAT, 5, "table 2|keys")
    assert await references.shown(CHAT, 5) == "table 2|keys"
    await references.set_shown(CHAT, 5, None)
    assert await references.shown(CHAT, 5) is None


async def test_who_opened_the_bot_and_who_blocked_it(open_storage: Opener) -> None:
    storage = await open_storage()
    for user in (ANN, BOB):
        await storage.people.remember_user(user, "x", None)
    await storage.people.set_started(ANN)
    assert await storage.people.started_users([ANN, BOB, 5]) == {ANN}
    assert await storage.people.set_blocked(ANN)
    assert not await storage.people.set_blocked(ANN)  # told once
    await storage.people.set_started(ANN)  # writing again: reachable again
    assert await storage.people.set_blocked(ANN)


async def test_a_game_is_adopted_once_its_worker_is_silent_or_gone(open_storage: Opener) -> None:
    """A game is the worker's that stored its last change; another adopts it when that
    worker has not beaten since the time given, or has left."""
    first, second = await open_storage(), await open_storage()
    await first.workers.beat(100.0)
    game = await lobby(first)
    await second.workers.beat(100.0)
    assert await second.workers.adopt(alive_since=90.0) == []  # the first is alive
    (adopted,) = await second.workers.adopt(alive_since=101.0)  # …and now it is not
    assert adopted.id == game.id
    assert await first.games.running_ids() == [] == await second.games.running_ids()  # a lobby
    moved = await first.games.record(adopted, [LogEntry(ANN, PASS)], STATE)  # a press on the first
    assert await first.games.running_ids() == [game.id] and await second.games.running_ids() == []
    await first.workers.leave()
    assert [g.id for g in await second.workers.adopt(alive_since=0.0)] == [moved.id]
    assert await second.games.running_ids() == [game.id]
    assert await second.workers.adopt(alive_since=math.inf) == []  # its own already


async def test_two_workers_adopting_at_once_take_each_game_once(open_storage: Opener) -> None:
    workers = [await open_storage() for _ in range(4)]
    games = [await lobby(workers[0], thread) for thread in range(6)]
    await workers[0].workers.leave()
    for worker in workers[1:]:
        await worker.workers.beat(1.0)
    taken = await asyncio.gather(*(w.workers.adopt(alive_since=0.0) for w in workers[1:]))
    ids = sorted(g.id for found in taken for g in found)
    assert ids == [g.id for g in games]


async def test_a_round_told_by_a_worker_gone_is_adopted_with_its_game(
    open_storage: Opener,
) -> None:
    """The worker that ended a round dies before telling it, after another stored the next
    turn: a third adopts the game to tell it (while the second, alive, keeps its game)."""
    teller, next_turn, third = [await open_storage() for _ in range(3)]
    for worker in (teller, next_turn, third):
        await worker.workers.beat(100.0)
    game = await lobby(teller)
    ended = await teller.games.record(
        game, [LogEntry(ANN, PASS)], STATE, [RoundResult(1, {"round": 1})]
    )
    await next_turn.games.record(ended, [LogEntry(BOB, PASS)], STATE)
    await next_turn.workers.beat(200.0)
    await third.workers.beat(200.0)
    assert await third.workers.adopt(alive_since=50.0) == []  # the teller may still tell it
    (adopted,) = await third.workers.adopt(alive_since=150.0)  # …it has not beaten since
    assert adopted.id == game.id and await third.games.owed_rounds(game.id) == [{"round": 1}]
    assert await next_turn.workers.adopt(alive_since=150.0) == []  # told by the third now


async def test_seats_changed_by_another_worker_are_not_overwritten(open_storage: Opener) -> None:
    first, second = await open_storage(), await open_storage()
    read = await lobby(first)
    await second.games.set_seats(read, [*read.players, Player(2, 5, "Cat")])
    with pytest.raises(StaleVersionError):  # the first read the seats before the second
        await first.games.set_seats(read, [*read.players, Player(2, 6, "Dan")])
    with pytest.raises(StaleVersionError):  # nor is a deal for the old seats stored
        await first.games.record(read, [], STATE)
    seated = await first.games.game(read.id)
    assert seated is not None and [p.user_id for p in seated.players] == [ANN, BOB, 5]
    assert seated.status is GameStatus.LOBBY


async def test_the_outbox_keeps_posts_in_order_until_delivered(open_storage: Opener) -> None:
    first, second = await open_storage(), await open_storage()
    one, two = Outbox(first.database), Outbox(second.database)
    await one.put([Parcel(CHAT, "table", '["table",1,1]', '{"a":1}', False)])
    await two.put([Parcel(ANN, "hand", None, "[]", True), Parcel(CHAT, "end", None, "[2]", True)])
    rows = await one.after(0)
    assert [(r.parcel.chat_id, r.parcel.kind, r.parcel.urgent) for r in rows] == [
        (CHAT, "table", False),
        (ANN, "hand", True),
        (CHAT, "end", True),
    ]
    assert rows[0].parcel.key == '["table",1,1]' and rows[0].parcel.payload == '{"a":1}'
    assert [r.id for r in await two.after(rows[0].id)] == [r.id for r in rows[1:]]
    await two.delivered([rows[0].id, rows[2].id])
    assert [r.parcel.kind for r in await one.after(0)] == ["hand"]
    await one.delivered([])


async def test_one_sender_of_a_shard_at_a_time_and_a_put_is_heard(open_storage: Opener) -> None:
    """On PostgreSQL a shard's claim is one process's until released, another shard's may
    be another's, and a put anywhere is heard with the shards it wrote to; alone on SQLite
    the process always holds every shard and hears its own puts."""
    first, second = await open_storage(), await open_storage()
    one, two = Outbox(first.database), Outbox(second.database)
    heard: asyncio.Queue[set[int]] = asyncio.Queue()
    listening = await one.listen(heard.put_nowait)
    claim = await one.claim(0)
    assert claim is not None and await claim.held()
    await one.put([Parcel(CHAT, "end", None, "[1]", True), Parcel(-3, "end", None, "[]", True)])
    assert await heard.get() == {shard_of(CHAT), shard_of(-3)}
    if first.database.shared:
        assert await two.claim(0) is None  # one sender a shard
        other = await two.claim(1)  # another shard: another sender
        assert other is not None
        own = {shard_of(CHAT), shard_of(-3)}

        async def others() -> set[int]:
            """The next put heard that is not this process's own, heard once more through
            NOTIFY (whenever that comes, on a busy machine)."""
            while (shards := await heard.get()) == own:
                pass
            return shards

        await two.put([Parcel(ANN, "end", None, "[1]", True)])
        assert await asyncio.wait_for(others(), 15) == {shard_of(ANN)}  # another process's
        await claim.release()
        assert not await claim.held()
        taken = await two.claim(0)  # let go: another may take it at once
        assert taken is not None
        await taken.release()
        await other.release()
    await listening.release()
    assert not await listening.held()
    await listening.release()  # again: nothing more
    await one.put([Parcel(CHAT, "end", None, "[1]", True)])
    await asyncio.sleep(0.2)
    assert heard.empty()  # no longer listening


async def test_a_shard_reads_its_own_chats_in_order(open_storage: Opener) -> None:
    """Each chat belongs to one shard (negative group ids too), read in the order put;
    all the shards together read every row."""
    outbox = Outbox((await open_storage()).database)
    chats = [CHAT, ANN, BOB, -5, -12, 3, 16, CHAT, -5]
    await outbox.put([Parcel(chat, "end", None, f"[{i}]", True) for i, chat in enumerate(chats)])
    read: list[int] = []
    for shard in range(SHARDS):
        rows = await outbox.after(0, {shard})
        assert all(shard_of(r.parcel.chat_id) == shard for r in rows)
        assert [r.id for r in rows] == sorted(r.id for r in rows)
        read += [int(r.parcel.payload[1:-1]) for r in rows]
    assert sorted(read) == list(range(len(chats)))
    assert len(await outbox.after(0)) == len(chats)
    both = {shard_of(-5), shard_of(ANN)}  # -5 and 3 share a shard
    two = await outbox.after(0, both)
    assert [r.parcel.chat_id for r in two] == [c for c in chats if shard_of(c) in both]
    assert {ANN, -5, 3} <= {r.parcel.chat_id for r in two}
