"""Achievements kept: judged from stored games as the end of a game judges them, once per
(chat, person, achievement, game) however often; read back rarest first; following a
group that became a supergroup; and back-filled over a database of the version before
them (schema 014) to exactly the badges live play gave — on SQLite and PostgreSQL."""

from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path

from bot.ai import Level
from bot.core.achievements import Achievement
from bot.core.achievements.store import Achievements
from bot.core.rows import Ending, GameRow, LogEntry, Player, RoundResult, standings_of
from bot.core.storage import Storage
from bot.game import serial
from bot.game.engine import legal_moves, new_game
from bot.game.events import RoundEnded
from bot.game.state import Phase
from bot.game.typed import parse_rules
from tests.conftest import Opener

YARD, CLUB, SUPER = -100, -200, -300
ANN, BOB, CAT, DAN = 1, 2, 3, 4
GAMES: tuple[tuple[int, str, tuple[int, ...], int], ...] = (
    # chat, preset, people, computers
    (YARD, "goat", (ANN, BOB), 0),
    (YARD, "sea_goat", (ANN, BOB), 0),
    (YARD, "goat", (ANN, BOB, CAT, DAN), 0),
    (YARD, "telephone", (ANN, BOB, CAT), 0),
    (CLUB, "goat", (ANN,), 3),
    (YARD, "muggins", (BOB, CAT), 0),
    (YARD, "goat_teams", (ANN, BOB, CAT, DAN), 0),
    (YARD, "goat", (ANN, DAN), 1),
    (YARD, "sea_goat", (CAT, DAN), 0),
    (YARD, "goat", (ANN, BOB), 0),
)


async def finished(
    storage: Storage, chat: int, preset: str, people: Sequence[int], computers: int, seed: int
) -> GameRow:
    """A game played to its end by random legal moves and stored as the tables store one:
    its log, its rounds' results and every person's standing."""
    rules = parse_rules(preset, players=len(people) + computers)
    seats = [Player(s, user, f"Игрок {user}") for s, user in enumerate(people)]
    seats += [
        Player(s, -s, f"🤖 Мастер {s}", computer=Level.HARD)
        for s in range(len(people), rules.players)
    ]
    lobby = await storage.games.create_lobby(chat, 0, seats[0], rules, seed)
    assert lobby is not None
    await storage.games.set_seats(lobby, seats)
    game = await storage.games.game(lobby.id)
    assert game is not None
    chooser = random.Random(seed)
    state = new_game(rules, [str(s) for s in range(rules.players)], seed)[0]
    entries, rounds = [], []
    while state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.ROUND_OVER:
            entry = serial.TIME_UP if rules.format.timed else serial.NEXT_ROUND
        else:
            moves = legal_moves(state)
            entry = serial.encode(moves[chooser.randrange(len(moves))])
        user = seats[state.to_move].user_id if state.phase is Phase.PLAYING else None
        state, events = serial.step_events(state, entry)
        entries.append(LogEntry(user, entry))
        ended = [e for e in events if isinstance(e, RoundEnded)]
        rounds += [RoundResult(e.round_no, serial.encode(e)) for e in ended]
    assert state.outcome is not None
    standings = standings_of(state.outcome.places, seats)
    ending = Ending(state.outcome.reason, standings, computers == 0, time.time())
    return await storage.games.record(game, entries, state, rounds, ending)


async def kept(storage: Storage) -> set[tuple[int, int, str, int]]:
    rows = await storage.rows("SELECT chat_id, user_id, achievement, game_id FROM achievements")
    return {(row[0], row[1], row[2], row[3]) for row in rows}


async def play_all(storage: Storage, live: bool) -> None:
    """Every game of `GAMES`; with `live`, each judged as its end is told."""
    for seed, (chat, preset, people, computers) in enumerate(GAMES, start=1):
        game = await finished(storage, chat, preset, people, computers, seed)
        if live:
            await Achievements(storage).judge(game.id)


async def test_a_game_is_judged_once_however_often(open_storage: Opener) -> None:
    storage = await open_storage()
    await play_all(storage, live=True)
    badges = await kept(storage)
    assert any(game == 1 and kind == Achievement.FIRST_WIN for _, _, kind, game in badges)
    again = Achievements(storage)
    for game_id in range(1, len(GAMES) + 1):
        await again.judge(game_id)
    assert await kept(storage) == badges
    done = await again.backfill()
    assert done.games == len(GAMES)
    assert done.earned == len(badges)
    assert await kept(storage) == badges


async def test_what_a_person_holds_is_read_rarest_first(open_storage: Opener) -> None:
    storage = await open_storage()
    for user in (ANN, BOB, CAT):
        await storage.people.remember_user(user, f"Игрок {user}", None)
    rows = [
        (YARD, ANN, "fisherman", 1),
        (YARD, ANN, "fisherman", 2),
        (YARD, ANN, "general", 2),
        (CLUB, ANN, "eggs", 3),
        (YARD, BOB, "fisherman", 1),
        (YARD, CAT, "fisherman", 1),
        (YARD, BOB, "eggs", 1),
        (YARD, ANN, "retired_badge", 1),  # an achievement no longer defined
    ]
    await play_all_rows(storage, rows)
    held = await Achievements(storage).held(ANN, YARD)
    assert [(h.achievement, h.times, h.holders, h.seen) for h in held] == [
        (Achievement.GENERAL, 1, 1, 3),
        (Achievement.FISHERMAN, 2, 3, 3),
    ]
    everywhere = await Achievements(storage).held(ANN, None)
    assert [h.achievement for h in everywhere] == ["general", "eggs", "fisherman"]
    assert await Achievements(storage).held(DAN, YARD) == []


async def play_all_rows(storage: Storage, rows: Sequence[tuple[int, int, str, int]]) -> None:
    """Achievement rows as judging keeps them, for games 1 … 3."""
    for seed in (1, 2, 3):
        await finished(storage, YARD, "goat", (ANN, BOB), 0, seed)
    for row in rows:
        await storage.database.write(
            "INSERT INTO achievements (chat_id, user_id, achievement, game_id) VALUES (?, ?, ?, ?)",
            row,
        )


async def test_a_supergroup_keeps_its_badges(open_storage: Opener) -> None:
    storage = await open_storage()
    await play_all(storage, live=True)
    before = await kept(storage)
    await storage.people.migrate_chat(YARD, SUPER)
    moved = {(SUPER if c == YARD else c, u, a, g) for c, u, a, g in before}
    assert await kept(storage) == moved
    await Achievements(storage).backfill()  # judged again where the games are now
    assert await kept(storage) == moved


def made_old(path: Path) -> None:
    """The database as the version before achievements left it: schema 014 (no seasons, no
    badges, no presence), and no records kept (as games before records were: built when
    first read)."""
    with closing(sqlite3.connect(path)) as db, db:
        db.executescript(
            "DROP TABLE achievements; DROP TABLE presence; DROP TABLE season_ratings; "
            "DROP TABLE seasons; ALTER TABLE chat_settings DROP COLUMN season_length; "
            "ALTER TABLE chat_settings DROP COLUMN time_zone; "
            "DELETE FROM records; PRAGMA user_version = 14;"
        )


async def test_backfill_over_an_old_database_gives_the_badges_of_live_play(
    tmp_path: Path,
) -> None:
    live = await Storage.open(tmp_path / "live.sqlite3")
    old = await Storage.open(tmp_path / "old.sqlite3")
    try:
        await play_all(live, live=True)
        await play_all(old, live=False)
        await old.close()
        made_old(tmp_path / "old.sqlite3")
        old = await Storage.open(tmp_path / "old.sqlite3")
        assert await kept(old) == set()
        first = await Achievements(old).backfill()
        badges = await kept(live)
        assert await kept(old) == badges
        assert len({b[2] for b in badges}) >= 4  # several kinds, some from the history
        assert {"first_win", "first_goat"} <= {b[2] for b in badges}
        second = await Achievements(old).backfill()
        assert second == first
        assert await kept(old) == badges
    finally:
        await live.close()
        await old.close()
