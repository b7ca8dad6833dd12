"""Fixtures more than one test file uses: a real PostgreSQL server, the storage on each
database the bot supports, and the machine shared by the tests running side by side — how
many run at once, and how patiently they wait."""

from __future__ import annotations

import fcntl
import os
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import pytest

from bot.core.storage import Storage
from bot.playground import FakeTelegram
from tests.postgres import INSTALL, PostgresServer, server_binaries

Opener = Callable[[], Awaitable[Storage]]
ALONE = Path(tempfile.gettempdir()) / "kozel-tests-alone.lock"
DOOR = ALONE.with_name("kozel-tests-door.lock")
PATIENCE = float(os.environ.get("E2E_TIMEOUT_SCALE") or 3)
"""How many times longer than on a quiet machine a test waits before it gives up: every
wait on the fake Bot API, and the bot's own short clocks in tests
(`tests.e2e.process.bot_env`, `tests.e2e.process.stretched`). Waits return as soon as
their condition holds, so only a failing test takes longer."""
FakeTelegram.patience = PATIENCE
MAX_WORKERS = 16


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: two tests per core this process may use (most of a test's time is spent
    waiting on a bot process and its fake Telegram), at most `MAX_WORKERS`."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return min(2 * (cores or 1), MAX_WORKERS)


@pytest.fixture(autouse=True)
def shared_machine(request: pytest.FixtureRequest) -> Iterator[None]:
    """Tests run side by side (`-n`), except those marked `alone`, which load the whole
    machine (several bot processes and a database server): one of those waits until no
    other test runs, and the others wait for it — their timings hold either way.

    Every test passes through `DOOR` on its way in; one marked `alone` stays in it until
    it ends, so no new test starts once it waits: it waits for the tests already running
    only (an exclusive `flock` alone waits while shared ones overlap, which side by side
    they always do, until the other workers have nothing left to run)."""
    alone = request.node.get_closest_marker("alone") is not None
    with ALONE.open("a") as lock, DOOR.open("a") as door:
        fcntl.flock(door, fcntl.LOCK_EX)
        fcntl.flock(lock, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        if not alone:
            fcntl.flock(door, fcntl.LOCK_UN)
        yield


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL server for this test process (skipped, saying why, where none is
    installed — never under CI)."""
    binaries = server_binaries()
    if binaries is None:
        reason = f"no PostgreSQL server installed ({INSTALL})"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    server = PostgresServer(binaries)
    server.start()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgres"])
async def open_storage(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Opener]:
    """Opens the storage on one database — a new SQLite file, or a new PostgreSQL
    database — as often as asked (each opening sees what the others stored); all are
    closed after the test."""
    if request.param == "postgres":
        url = await request.getfixturevalue("postgres").fresh()
    opened: list[Storage] = []

    async def opener() -> Storage:
        if request.param == "postgres":
            storage = await Storage.connect(url)
        else:
            storage = await Storage.open(tmp_path / "kozel.sqlite3")
        opened.append(storage)
        return storage

    yield opener
    for storage in opened:
        await storage.close()
