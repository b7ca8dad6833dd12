"""`python -m bot` as a user starts it: polling with a token, a clear line when a deployment
has none (without one a person gets the playground: tests/playground/test_playground.py)."""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import subprocess
import sys
from contextlib import closing
from importlib import resources
from pathlib import Path

import pytest

from bot.core.backups import BackupPlan, backup
from bot.core.database.sqlite import SqliteDatabase
from bot.core.storage import Storage
from bot.playground import FakeTelegram
from tests.e2e.process import LATEST

ROOT = Path(__file__).resolve().parents[2]
ANY_TOKEN = "100500:unused"  # for runs that stop at the database, before any request
PATIENCE = 60.0  # seconds a busy machine may need; the waits end as soon as it is done


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"BOT_TOKEN", "TELEGRAM_API_BASE"}}
    env["PYTHONPATH"] = str(ROOT)
    env["DATABASE_PATH"] = str(tmp_path / "data" / "kozel.sqlite3")
    env.update(extra)
    return env


@pytest.mark.parametrize(
    ("args", "extra"),
    [
        (["telegram"], {}),
        ([], {"WEBHOOK_URL": "https://example.org/hook"}),
        (["playground"], {"WEBHOOK_URL": "https://example.org/hook"}),
        (["telegram"], {"BOT_TOKEN": " "}),
    ],
    ids=["telegram", "webhook", "webhook-playground", "blank-token"],
)
def test_a_deployment_without_token_says_what_to_set(
    tmp_path: Path, args: list[str], extra: dict[str, str]
) -> None:
    """`python -m bot telegram` (the Dockerfile's) or a run with WEBHOOK_URL never falls back
    to the playground: one line and exit status 2."""
    done = subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,
        env=_env(tmp_path, **extra),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "BOT_TOKEN" in lines[0]
    assert "Traceback" not in done.stderr


async def test_with_token_it_polls_the_configured_server_and_answers(tmp_path: Path) -> None:
    fake = FakeTelegram()
    base = await fake.start()
    user = fake.add_user("Vasya", user_id=7)
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env=_env(tmp_path, BOT_TOKEN=fake.token, TELEGRAM_API_BASE=base),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        await fake.wait_polling(timeout=PATIENCE)
        fake.user_sends(user, user, "/start")
        reply = await fake.wait_for_call("sendMessage", timeout=PATIENCE)
        assert reply.ok
        assert reply.params["chat_id"] == "7"
        assert "Козёл" in str(reply.params["text"])
        assert "Козёл" in (fake.chat_view(user, user)[-1].text or "")
        assert (tmp_path / "data").is_dir()
    finally:
        process.terminate()
        _, stderr = await process.communicate()
        await fake.stop()
    assert fake.token not in stderr.decode()


def _broken(tmp_path: Path, kind: str) -> Path:
    """A DATABASE_PATH that cannot be used: random bytes, a folder, under a plain file."""
    if kind == "random bytes":
        path = tmp_path / "kozel.sqlite3"
        path.write_bytes(random.Random(1).randbytes(100_000))
    elif kind == "a folder":
        path = tmp_path / "kozel.sqlite3"
        path.mkdir()
    else:
        (tmp_path / "file").write_text("not a folder")
        path = tmp_path / "file" / "kozel.sqlite3"
    return path


@pytest.mark.parametrize("kind", ["random bytes", "a folder", "under a file"])
def test_an_unusable_database_is_one_line_and_an_exit(tmp_path: Path, kind: str) -> None:
    """No traceback and no hanging process (a supervisor restarts or alerts): one line
    naming the file and what is wrong, exit status 3, the damaged file untouched."""
    path = _broken(tmp_path, kind)
    before = path.read_bytes() if path.is_file() else None
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=_env(tmp_path, BOT_TOKEN=ANY_TOKEN, DATABASE_PATH=str(path)),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 3, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"cannot use the database {path}: "), line
    if before is not None:
        assert path.read_bytes() == before


def _made_database(path: Path) -> None:
    """A database of today's schema with some rows in it."""

    async def fill() -> None:
        storage = await Storage.open(path)
        try:
            for user in range(1, 3001):
                await storage.people.remember_user(user, f"Игрок {user}" * 5, None)
        finally:
            await storage.close()

    asyncio.run(fill())
    with closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def _run(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_a_damaged_database_names_the_recovery_which_copies_what_is_readable(
    tmp_path: Path,
) -> None:
    path = tmp_path / "kozel.sqlite3"
    _made_database(path)
    with path.open("r+b") as damaged:  # a page in the middle of the users' table is lost
        damaged.seek(path.stat().st_size // 2)
        damaged.write(b"\0" * 4096)
    before = path.read_bytes()
    env = _env(tmp_path, BOT_TOKEN=ANY_TOKEN, DATABASE_PATH=str(path))

    started = _run(env=env, cwd=tmp_path)
    assert started.returncode == 3
    (line,) = started.stderr.strip().splitlines()
    assert f"python -m bot db-recover {path}" in line, line
    assert path.read_bytes() == before

    recovered = _run("db-recover", str(path), env=env, cwd=tmp_path)
    assert recovered.returncode == 0, recovered.stderr
    target = tmp_path / "kozel.recovered.sqlite3"
    assert f"copied to {target}" in recovered.stdout
    assert path.read_bytes() == before  # the damaged file is only read
    SqliteDatabase.check(target)  # whole again
    with closing(sqlite3.connect(target)) as db:
        users = db.execute("SELECT COUNT(*) FROM users").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
    assert 0 < users < 3000, users  # what the lost page held (or led to) is gone, the rest is there
    assert version == LATEST
    again = _run("db-recover", str(path), env=env, cwd=tmp_path)  # never over an existing file
    assert again.returncode == 3 and "exists already" in again.stderr


def test_backups_before_a_migration_and_only_the_newest_kept(tmp_path: Path) -> None:
    path = tmp_path / "kozel.sqlite3"
    with closing(sqlite3.connect(path)) as db:  # a database of an older version
        db.executescript(
            resources.files("migrations").joinpath("001_initial.sql").read_text("utf-8")
        )
        db.execute("PRAGMA user_version = 1")
        db.commit()
    folder = tmp_path / "backups"

    async def opened() -> Storage:
        return await Storage.open(path, BackupPlan(folder, keep=3))

    storage = asyncio.run(opened())
    asyncio.run(storage.close())
    (first,) = folder.iterdir()
    assert first.name.endswith("-before-002.sqlite3")
    with closing(sqlite3.connect(first)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1  # as it was
    for _ in range(5):
        backup(path, folder, 3, "hourly")
    kept = sorted(p.name for p in folder.iterdir())
    assert len(kept) == 3 and all("hourly" in name for name in kept)


def test_help_lists_every_command_on_one_line_and_the_playgrounds_address(tmp_path: Path) -> None:
    """`--help` needs no token: each command the bot has on a line of its own, and where
    the playground's page is unless told otherwise; each command's own `--help` too."""
    done = _run("--help", env=_env(tmp_path, COLUMNS="60"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for command in ("telegram", "playground", "db-recover", "migrate-to-postgres"):
        (line,) = [line for line in lines if line.split()[:1] == [command]]
        assert len(line.split()) > 2, line  # the command and what it does, on its line
    assert any("127.0.0.1" in line and "--host" in line for line in lines), done.stdout
    assert any("8080" in line and "--port" in line for line in lines), done.stdout
    for command in ("db-recover", "migrate-to-postgres"):
        asked = _run(command, "--help", env=_env(tmp_path), cwd=tmp_path)
        assert (asked.returncode, asked.stdout.split()[:4]) == (
            0,
            ["usage:", "python", "-m", "bot"],
        ), asked
        assert not (tmp_path / "data").exists()  # it only said how to use it
