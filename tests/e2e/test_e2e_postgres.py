"""The real bot process on PostgreSQL (`DATABASE_URL`): a whole game through a SIGKILL and a
restart, checked against the engine's replay of the stored move log; a chat's history
moved over from SQLite (`migrate-to-postgres`); an unreachable or wrong `DATABASE_URL` ends
start-up with one line."""

from __future__ import annotations

import asyncio
import random
import signal
import subprocess
from pathlib import Path

from bot.core.crew import BEAT, DEAD
from bot.core.database.transfer import TABLES
from bot.core.storage import Storage
from bot.playground import FakeTelegram
from tests.core.test_storage_stats import check_old_results, old_database
from tests.e2e.actions import play_moves, play_until, say, start_game
from tests.e2e.checks import check_finished_game
from tests.e2e.process import running_bot
from tests.e2e.shown import SHORT
from tests.e2e.stored import games_in, on_postgres, query, replay_game, stored_state
from tests.e2e.test_startup import _env, _run
from tests.playground.launch import free_port
from tests.postgres import PostgresServer


async def test_a_game_on_postgres_survives_a_kill(tmp_path: Path, postgres: PostgresServer) -> None:
    url = await postgres.fresh()
    async with FakeTelegram() as fake:
        masha, olya = fake.add_user("Маша"), fake.add_user("Оля")
        group = fake.add_group("Двор", [masha, olya])
        async with running_bot(fake, tmp_path, database_url=url) as bot:
            await start_game(fake, group, [masha, olya], SHORT)
            rng = random.Random(3)
            after = await play_moves(fake, [masha, olya], rng, 5)
            await bot.idle()  # (a press taken but never handled would be lost, as in Telegram)
            await bot.stop(signal.SIGKILL)
            (game,) = games_in(tmp_path, group.id)
            assert stored_state(tmp_path, game["id"]) == replay_game(tmp_path, game["id"])
            await bot.start()
            # the killed worker's games are adopted once it has been silent for DEAD seconds
            await asyncio.sleep(DEAD + BEAT)
            await play_until(fake, group, [masha, olya], rng, after=after)
            await check_finished_game(fake, bot, group, olya, game["id"])
            assert stored_state(tmp_path, game["id"]) == replay_game(tmp_path, game["id"])
            (version,) = query(tmp_path, "SELECT MAX(version) FROM schema_migrations")
            assert version[0] >= 8
        assert not (tmp_path / "kozel.sqlite3").exists()  # nothing went to a file


def test_an_unreachable_database_url_is_one_line(tmp_path: Path) -> None:
    url = f"postgresql://kozel:hunter2@127.0.0.1:{free_port()}/kozel"
    done = _run(env=_env(tmp_path, BOT_TOKEN="123:abc", DATABASE_URL=url), cwd=tmp_path)
    assert (done.returncode, done.stdout) == (3, "")
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("cannot use the database postgresql://kozel:***@127.0.0.1:"), line
    assert "hunter2" not in done.stderr


def test_a_database_url_that_is_not_postgres_says_what_to_check(tmp_path: Path) -> None:
    env = _env(tmp_path, BOT_TOKEN="123:abc", DATABASE_URL="mysql://db/kozel")
    done = _run(env=env, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    (line,) = done.stderr.strip().splitlines()
    assert "DATABASE_URL" in line


def migrate(tmp_path: Path, path: Path, url: str) -> subprocess.CompletedProcess[str]:
    return _run("migrate-to-postgres", str(path), url, env=_env(tmp_path), cwd=tmp_path)


async def test_a_chat_history_moves_over_to_postgres(
    tmp_path: Path, postgres: PostgresServer
) -> None:
    """A chat played on SQLite — a finished game, one in progress, settings, a waiter —
    is copied into PostgreSQL; the bot on PostgreSQL goes on with the game in progress,
    numbers new games after the old ones, and rates on top of the old results."""
    url = await postgres.fresh()
    on_file, on_server = tmp_path / "file", tmp_path / "server"
    on_file.mkdir()
    on_server.mkdir()
    async with FakeTelegram() as fake:
        masha, olya = fake.add_user("Маша"), fake.add_user("Оля")
        group = fake.add_group("Двор", [masha, olya])
        rng = random.Random(11)
        async with running_bot(fake, on_file) as bot:
            await start_game(fake, group, [masha, olya], SHORT)
            await play_until(fake, group, [masha, olya], rng)
            await say(fake, bot, masha, group, "/nextgame")
            await start_game(fake, group, [masha, olya], SHORT)
            after = await play_moves(fake, [masha, olya], rng, 4)
        before = {t: query(on_file, f"SELECT COUNT(*) FROM {t}")[0][0] for t in TABLES}
        done = migrate(tmp_path, on_file / "kozel.sqlite3", url)
        assert done.returncode == 0, done.stderr
        said, rows = done.stdout.splitlines()[0].split(": ", 1)
        assert said == f"copied {on_file / 'kozel.sqlite3'} to {url}"
        assert rows == ", ".join(f"{table} {count}" for table, count in before.items())
        on_postgres(on_server, url)
        assert {t: query(on_server, f"SELECT COUNT(*) FROM {t}")[0][0] for t in TABLES} == before
        assert (before["games"], before["game_results"], before["ratings"]) == (2, 2, 2)
        for table in ("games", "players", "moves", "ratings", "game_results"):
            order = "ORDER BY 1, 2" if table != "games" else "ORDER BY id"
            rows = [tuple(r) for r in query(on_file, f"SELECT * FROM {table} {order}")]
            copied = [tuple(r) for r in query(on_server, f"SELECT * FROM {table} {order}")]
            if table in ("games", "moves"):  # the times are PostgreSQL's own type there
                rows, copied = _without_times(table, rows), _without_times(table, copied)
            assert copied == rows, table
        async with running_bot(fake, on_server, database_url=url) as bot:
            await play_until(fake, group, [masha, olya], rng, after=after)
            _, second = games_in(on_server, group.id)
            await check_finished_game(fake, bot, group, olya, second["id"])
            assert stored_state(on_server, second["id"]) == replay_game(on_server, second["id"])
            await start_game(fake, group, [masha, olya], SHORT)
            assert [g["id"] for g in games_in(on_server, group.id)] == [1, 2, 3]
    again = migrate(tmp_path, on_file / "kozel.sqlite3", url)
    assert again.returncode == 3 and again.stdout == ""
    assert again.stderr.startswith("nothing copied: the PostgreSQL database has chats already")


async def test_an_old_database_is_brought_up_to_date_on_the_way(
    tmp_path: Path, postgres: PostgresServer
) -> None:
    """A file of an old version (before the stats) is migrated, then copied: the stats and
    ratings the old games left are all there on PostgreSQL."""
    old, url = tmp_path / "old.sqlite3", await postgres.fresh()
    old_database(old)
    done = migrate(tmp_path, old, url)
    assert done.returncode == 0, done.stderr
    assert list((tmp_path / "backups").glob("old-*-before-003.sqlite3"))  # kept as it was
    storage = await Storage.connect(url)
    try:
        await check_old_results(storage)
    finally:
        await storage.close()


def _without_times(table: str, rows: list[tuple[object, ...]]) -> list[tuple[object, ...]]:
    """Rows without their creation and end times (text in SQLite, timestamptz here)."""
    times = {"games": (11, 12), "moves": (4,)}[table]
    return [tuple(v for i, v in enumerate(row) if i not in times) for row in rows]
