"""Storage of ratings, stats, chat settings, languages and waiters — part of the storage's
contract, so each test runs on a real SQLite file and on a real PostgreSQL database.

Games are recorded as the service records them: round results are encoded `RoundEnded`s
and every person's seat gets a standing.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from contextlib import closing
from importlib import resources
from pathlib import Path

import pytest

from bot.ai import Level
from bot.core.ratings import Skill, rated
from bot.core.rows import (
    ChatSettings,
    Ending,
    GameRow,
    LogEntry,
    Player,
    PlayerStats,
    PresetStats,
    RoundResult,
    Standing,
)
from bot.core.scores import Scores
from bot.core.storage import Storage
from bot.game import new_game, parse_rules
from bot.game.events import EndReason, GameEnded, Place, RoundEnded, SeatResult
from bot.game.serial import encode
from tests.conftest import Opener

YARD, CLUB, ELSEWHERE = -100, -200, -300
NAMES = {1: "Ann", 2: "Bob", 3: "Cat", 4: "Dan"}


@pytest.fixture
async def storage(open_storage: Opener) -> Storage:
    storage = await open_storage()
    for user, name in NAMES.items():
        await storage.people.remember_user(user, name, None)
    await storage.people.remember_chat(YARD, "supergroup", "Двор")
    return storage


A_STATE = new_game(parse_rules("goat players=2"), ("a", "b"), 1)[0]
"""A state to store: these tests look at results, not at the table."""


def round_result(no: int, reason: str, seat: int, points: Sequence[int]) -> RoundResult:
    """A round's result; `points` are each seat's round points."""
    results = tuple(
        SeatResult(s, s, (), p, p, 0, 0, 0, p, True, False) for s, p in enumerate(points)
    )
    return RoundResult(no, encode(RoundEnded(no, reason, seat, False, False, 0, 0, results)))


async def lobby(
    storage: Storage, chat_id: int, users: Sequence[int], computer: bool, preset: str = "goat"
) -> GameRow:
    creator = Player(0, users[0], NAMES[users[0]])
    game = await storage.games.create_lobby(chat_id, 0, creator, parse_rules(preset), 1)
    assert game is not None
    players = [Player(seat, user, NAMES[user]) for seat, user in enumerate(users)]
    if computer:
        players.append(Player(len(users), -1, "Робот", computer=Level.EASY))
    await storage.games.set_seats(game, players)
    game = await storage.games.game(game.id)
    assert game is not None
    return game


async def play(
    storage: Storage,
    chat_id: int,
    places: Sequence[tuple[int, int]],
    *,
    preset: str = "goat",
    reason: str = "target",
    rounds: Sequence[RoundResult] = (),
    computer: bool = False,
    teams: bool = False,
) -> GameRow:
    """A finished game: `places` are `(user, place)` by seat, the last place the goat(s);
    in 2×2 the sides are seat % 2; with `computer` a computer takes one more seat."""
    game = await lobby(storage, chat_id, [user for user, _ in places], computer, preset)
    worst = max(place for _, place in places)
    standings = []
    for seat, (user, place) in enumerate(places):
        side = seat % 2 if teams else seat
        goat = place == worst
        standings.append(
            Standing(user, seat, side, place, place == 1, goat, place * 30, 10 - place)
        )
    ending = Ending(EndReason(reason), tuple(standings), not computer, at=0.0)
    entries = [LogEntry(places[0][0], {"type": "Pass"})]
    stored = await storage.games.record(game, entries, A_STATE, rounds, ending)
    assert stored == await storage.games.game(game.id)  # what it says it stored
    return game


async def the_season(storage: Storage) -> None:
    """Ann: won, lost, won, won in the yard; won (with a computer) and lost in the club."""
    rounds = [
        round_result(1, "fish", 0, [0, 20]),
        round_result(2, "out", 1, [15, 0]),
        round_result(3, "fish", 1, [0, 30]),
    ]
    await play(storage, YARD, [(1, 1), (2, 2)], rounds=rounds)
    await play(storage, YARD, [(2, 1), (1, 2)], rounds=[round_result(1, "out", 0, [0, 12])])
    await play(
        storage,
        YARD,
        [(1, 1), (3, 2), (2, 3)],
        preset="sea_goat",
        reason="bald_goat",
        rounds=[round_result(1, "fish", 0, [0, 5, 40])],
    )
    await play(storage, YARD, [(1, 1), (4, 2)], preset="sea_goat")
    await play(storage, CLUB, [(1, 1), (3, 2)], preset="sea_goat", computer=True)
    await play(storage, CLUB, [(3, 1), (1, 2)])


async def test_stats_count_every_finished_game_in_the_chat_or_everywhere(storage: Storage) -> None:
    await the_season(storage)
    assert await Scores(storage).stats(1, YARD) == PlayerStats(
        games=4,
        wins=3,
        goats=1,
        bald_goats=0,
        fish_made=2,
        best_streak=2,
        favourite_preset="sea_goat",  # 2 against 2: the most recent
        presets=(
            PresetStats("sea_goat", games=2, wins=2, points=0, rounds=1, podiums=2),
            PresetStats("goat", games=2, wins=1, points=27, rounds=4, podiums=2),
        ),
    )
    assert await Scores(storage).stats(1, None) == PlayerStats(
        games=6,
        wins=4,
        goats=2,
        bald_goats=0,
        fish_made=2,
        best_streak=3,
        favourite_preset="goat",  # 3 against 3: the most recent
        presets=(
            PresetStats("goat", games=3, wins=1, points=27, rounds=4, podiums=3),
            PresetStats("sea_goat", games=3, wins=3, points=0, rounds=1, podiums=3),
        ),
    )
    assert await Scores(storage).stats(1, CLUB) == PlayerStats(
        games=2,
        wins=1,
        goats=1,
        best_streak=1,
        favourite_preset="goat",
        presets=(
            PresetStats("goat", games=1, podiums=1),
            PresetStats("sea_goat", games=1, wins=1, podiums=1),
        ),
    )
    assert await Scores(storage).stats(2, YARD) == PlayerStats(
        games=3,
        wins=1,
        goats=2,
        bald_goats=1,
        fish_made=1,
        best_streak=1,
        favourite_preset="goat",
        presets=(
            PresetStats("goat", games=2, wins=1, points=50, rounds=4, podiums=2),
            PresetStats("sea_goat", games=1, points=40, rounds=1, podiums=1),
        ),
    )
    assert await Scores(storage).stats(4, CLUB) == PlayerStats()


async def test_the_leaderboard_orders_by_the_shown_rating(storage: Storage) -> None:
    await the_season(storage)
    rows = await Scores(storage).ratings(YARD)
    assert sorted(r.user_id for r in rows) == [1, 2, 3, 4]
    assert rows[0].user_id == 1
    assert [r.rating for r in rows] == sorted((r.rating for r in rows), reverse=True)
    ann = rows[0]
    assert (ann.name, ann.games, ann.wins, ann.goats, ann.rating_points) == ("Ann", 4, 3, 1, 35)
    assert ann.rating > 1000
    assert ann.provisional
    page, total, mine = await Scores(storage).leaderboard(YARD, rows[2].user_id, 1, 2)
    assert total == 4
    assert page == [(2, rows[1]), (3, rows[2])]
    assert mine == (3, rows[2])
    assert await Scores(storage).leaderboard(YARD, 99, 3, 10) == ([(4, rows[3])], 4, None)
    assert await Scores(storage).leaderboard(ELSEWHERE, 1, 0, 10) == ([], 0, None)
    assert (await Scores(storage).leaderboard(CLUB, 2, 0, 10))[2] is None


async def test_a_player_sees_his_rating_in_every_chat(storage: Storage) -> None:
    await the_season(storage)
    found = await Scores(storage).ratings_of(1)
    assert sorted(title for title, _ in found) == ["-200", "Двор"]
    assert [row.rating for _, row in found] == sorted((r.rating for _, r in found), reverse=True)
    by_title = dict(found)
    assert (await Scores(storage).leaderboard(YARD, 1, 0, 10))[2] == (1, by_title["Двор"])
    assert (by_title["-200"].games, by_title["-200"].wins) == (1, 0)  # the computer game: unrated
    assert await Scores(storage).ratings_of(99) == []


async def test_games_with_computers_are_kept_but_not_rated(storage: Storage) -> None:
    await play(storage, YARD, [(1, 1), (2, 2)])
    before = await Scores(storage).ratings(YARD)
    await play(storage, YARD, [(2, 1), (1, 2)], computer=True)
    await play(storage, CLUB, [(2, 1), (1, 2)], computer=True)
    assert await Scores(storage).ratings(YARD) == before
    assert await Scores(storage).ratings(CLUB) == []
    assert (await Scores(storage).stats(1, YARD)).games == 2
    assert (await Scores(storage).stats(2, None)).wins == 2


async def test_a_rated_game_moves_skills_by_sides(storage: Storage) -> None:
    await play(storage, YARD, [(1, 1), (2, 2), (3, 1), (4, 2)], preset="goat_teams", teams=True)
    expected = rated({}, [[1, 3], [2, 4]], [1, 2])
    rows = {r.user_id: r for r in await Scores(storage).ratings(YARD)}
    for user, skill in expected.items():
        assert Skill(rows[user].mu, rows[user].sigma) == skill
    assert rows[1].rating == rows[3].rating > 1000 > rows[2].rating == rows[4].rating
    # the next game starts from the stored skills
    await play(storage, YARD, [(2, 1), (1, 2)])
    again = {r.user_id: r for r in await Scores(storage).ratings(YARD)}
    assert Skill(again[1].mu, again[1].sigma) == rated(expected, [[2], [1]], [1, 2])[1]
    assert (again[1].games, again[1].wins, again[1].goats) == (2, 1, 1)


async def test_a_cancelled_game_changes_nothing(storage: Storage) -> None:
    await play(storage, YARD, [(1, 1), (2, 2)])
    ratings, stats = await Scores(storage).ratings(YARD), await Scores(storage).stats(1, None)
    game = await lobby(storage, YARD, [1, 2], computer=False)
    stored = await storage.games.record(
        game,
        [LogEntry(1, {"type": "Pass"})],
        A_STATE,
        [round_result(1, "fish", 0, [0, 9])],
        deadline=9.5,
    )
    assert stored == await storage.games.game(game.id)
    assert await storage.games.cancel(game.id, EndReason.ENDED)
    assert not await storage.games.cancel(game.id, EndReason.ENDED)
    assert await Scores(storage).ratings(YARD) == ratings
    assert await Scores(storage).stats(1, None) == stats


async def test_chat_settings_default_save_and_cache(open_storage: Opener, storage: Storage) -> None:
    assert await storage.people.chat_settings(YARD) == ChatSettings("", "ru", True)
    chosen = ChatSettings("sea_goat target=150", "en", False)
    await storage.people.save_chat_settings(YARD, chosen)
    assert await storage.people.chat_settings(YARD) is chosen
    assert await storage.people.chat_settings(CLUB) == ChatSettings()
    other = await open_storage()  # the same database, read anew
    assert await other.people.chat_settings(YARD) == chosen


async def test_the_user_s_languages(storage: Storage) -> None:
    assert await storage.people.user_language(99) == (None, None)
    assert await storage.people.user_language(1) == (None, None)
    await storage.people.remember_user(1, "Ann", "ann", "en")
    assert await storage.people.user_language(1) == (None, "en")
    await storage.people.remember_user(1, "Ann", "ann")
    assert await storage.people.user_language(1) == (None, "en")
    await storage.people.set_user_language(1, "uk")
    assert await storage.people.user_language(1) == ("uk", "en")
    await storage.people.remember_user(1, "Ann", "ann", "de")
    assert await storage.people.user_language(1) == ("uk", "de")
    await storage.people.set_user_language(1, None)
    assert await storage.people.user_language(1) == (None, "de")
    await storage.people.remember_user(5, "Eve", None, "ru")
    assert await storage.people.user_language(5) == (None, "ru")


async def test_waiters_are_told_once(storage: Storage) -> None:
    assert await storage.people.add_waiter(YARD, 2)
    assert not await storage.people.add_waiter(YARD, 2)
    assert await storage.people.add_waiter(YARD, 1)
    assert await storage.people.add_waiter(CLUB, 1)
    assert await storage.people.take_waiters(YARD) == [2, 1]
    assert await storage.people.take_waiters(YARD) == []
    assert await storage.people.take_waiters(CLUB) == [1]


async def test_a_migrated_chat_keeps_everything(storage: Storage) -> None:
    await the_season(storage)
    settings = ChatSettings("goat fish=all", "en", False)
    await storage.people.save_chat_settings(YARD, settings)
    await storage.people.add_waiter(YARD, 3)
    ratings, stats = await Scores(storage).ratings(YARD), await Scores(storage).stats(1, YARD)
    await storage.people.migrate_chat(YARD, ELSEWHERE)
    assert await Scores(storage).ratings(ELSEWHERE) == ratings
    assert await Scores(storage).ratings(YARD) == []
    assert await Scores(storage).stats(1, ELSEWHERE) == stats
    assert await Scores(storage).stats(1, YARD) == PlayerStats()
    assert await storage.people.chat_settings(ELSEWHERE) == settings
    assert await storage.people.chat_settings(YARD) == ChatSettings()
    assert await storage.people.take_waiters(ELSEWHERE) == [3]
    assert dict(await Scores(storage).ratings_of(1))["Двор"].user_id == 1


def old_database(path: Path) -> None:
    """A database of the version before the stats (schema 2) with a finished sea goat:
    Ann won, Bob was the bald goat, a computer played too; Ann has a rating line."""
    with closing(sqlite3.connect(path)) as db, db:
        for name in ("001_initial.sql", "002_computer_players.sql"):
            db.executescript(resources.files("migrations").joinpath(name).read_text("utf-8"))
        outcome = GameEnded(
            "bald_goat", (Place(0, 0, 1, 40, False, 6), Place(1, 1, 2, 130, True, 0))
        )
        db.execute(
            "INSERT INTO games (id, chat_id, creator_id, status, rules, seed, state, end_reason) "
            "VALUES (1, ?, 1, 'finished', ?, 1, ?, 'bald_goat')",
            (YARD, json.dumps({"preset": "sea_goat"}), json.dumps({"outcome": encode(outcome)})),
        )
        db.executemany(
            "INSERT INTO players (game_id, seat, user_id, name, robot) VALUES (1, ?, ?, ?, ?)",
            [(0, 1, "Ann", None), (1, 2, "Bob", None), (2, -1, "Робот", "easy")],
        )
        db.execute("INSERT INTO ratings VALUES (?, 1, 3, 2, 1, 12)", (YARD,))
        db.execute("PRAGMA user_version = 2")


async def check_old_results(storage: Storage) -> None:
    """What `old_database` holds, as the stats and ratings read it now."""
    assert await Scores(storage).stats(2, YARD) == PlayerStats(
        games=1,
        goats=1,
        bald_goats=1,
        favourite_preset="sea_goat",
        presets=(PresetStats("sea_goat", games=1, podiums=1),),
    )
    assert (await Scores(storage).stats(1, None)).wins == 1
    (row,) = await Scores(storage).ratings(YARD)
    assert (row.games, row.rating, row.provisional) == (3, 1000, True)


async def test_the_migration_keeps_the_results_of_finished_games(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old_database(path)
    storage = await Storage.open(path)
    try:
        await check_old_results(storage)
    finally:
        await storage.close()
