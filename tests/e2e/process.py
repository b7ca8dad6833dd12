"""The real bot process (`python -m bot`) against the fake Bot API: its environment, start,
stop and log, and `running_bot`, which checks the promises every test keeps when it ends."""

from __future__ import annotations

import asyncio
import io
import math
import os
import signal
import subprocess
import sys
import tarfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.playground import FakeTelegram
from bot.telegram.pacing import REPLY_PATIENCE
from tests.e2e.shown import bot_messages
from tests.e2e.stored import DB_NAME, on_postgres

ROOT = Path(__file__).resolve().parents[2]


LATEST = max(int(path.name[:3]) for path in (ROOT / "migrations").glob("*.sql"))
"""The schema version a database has once today's bot has opened it."""


WEBAPP = {
    "WEBAPP_URL": "https://example.org/app/",
    "WEBAPP_SHORT_NAME": "table",
    "WEBAPP_HOST": "127.0.0.1",
    "WEBAPP_PORT": "0",
}
"""The table app's settings in the tests: its server on any free port of this machine."""


WATCHED = "aiogram.event,bot.telegram.courier"
"""The loggers whose DEBUG lines the harness reads (`LOG_DEBUG`): aiogram's line for each
update handled, the outbox's when it starts sending and when all is sent."""


@dataclass
class BotProcess:
    """`python -m bot` on a database in `folder`, talking to `fake`.

    Its stderr is read all the time (a full pipe would stall the bot) into `logs`.
    """

    fake: FakeTelegram
    folder: Path
    process: asyncio.subprocess.Process | None = None
    logs: list[bytes] = field(default_factory=list)
    pacing: bool = False  # the bot's own flood pacing (slow for whole games; its tests set it)
    source: Path = ROOT  # where its code comes from (an older version's, for upgrades)
    webhook: dict[str, str] | None = None  # WEBHOOK_* settings: a webhook, not polling
    webapp: bool = False  # the table app served beside (`WEBAPP`), on a port it logs
    database_url: str | None = None  # PostgreSQL instead of the file in `folder`
    watched: bool = True  # logs the `WATCHED` lines (`handled` and `idle` need them)
    _reader: asyncio.Task[None] | None = None
    _run_start: int = 0
    _first_update: int | None = None  # updates before this one were another process's

    @property
    def db_path(self) -> Path:
        return self.folder / DB_NAME

    @property
    def log(self) -> str:
        """Everything every run of the process wrote to stderr."""
        return b"".join(self.logs).decode(errors="replace")

    async def start(self) -> None:
        env = bot_env(self.fake, self.db_path, pacing=self.pacing, source=self.source)
        if not self.watched:
            del env["LOG_DEBUG"]  # as a person runs it
        if self.database_url is not None:
            env["DATABASE_URL"] = self.database_url
            on_postgres(self.folder, self.database_url)
        listening = "setWebhook" if self.webhook else "getUpdates"
        before = len(self.fake.calls_of(listening))
        self._run_start = len(self.logs)
        if self._first_update is None:
            self._first_update = self.fake._next_update_id
        extra = (self.webhook or {}) | (WEBAPP if self.webapp else {})
        self.process = await spawn_bot(self.folder, env | extra)
        self._reader = asyncio.ensure_future(self._read(self.process))
        try:
            await self.fake.wait_until(lambda: len(self.fake.calls_of(listening)) > before, 30)
        except BaseException:
            await self.stop(signal.SIGKILL)  # left running, it would load the tests after
            raise

    async def app_base(self) -> str:
        """The table app's address in this run (`WEBAPP`: any free port, logged)."""
        mark = "table app listening on 127.0.0.1:"

        def logged() -> str | None:
            run = b"".join(self.logs[self._run_start :]).decode(errors="replace")
            _, found, rest = run.partition(mark)
            return f"http://127.0.0.1:{rest.split()[0]}" if found and rest.strip() else None

        base: str = await self.fake.wait_until(logged, 30)
        return base

    async def _read(self, process: asyncio.subprocess.Process) -> None:
        assert process.stderr is not None
        while chunk := await process.stderr.read(65536):
            self.logs.append(chunk)

    async def stop(self, sig: int = signal.SIGTERM) -> str:
        """Stop the process (SIGKILL to crash it); the log of this run."""
        assert self.process is not None
        if self.process.returncode is None:
            self.process.send_signal(sig)
        await self.process.wait()
        if self._reader is not None:
            await self._reader
        self.process = None
        return b"".join(self.logs[self._run_start :]).decode(errors="replace")

    async def handled(self, update_id: int, timeout: float = 20) -> None:
        """Wait until the bot has finished with an update (aiogram's DEBUG line: `WATCHED`)."""
        mark = f"Update id={update_id} is "
        await self.fake.wait_until(lambda: mark in self.log, timeout)

    async def idle(self, timeout: float = 20) -> None:
        """Wait until the bot has finished with every update queued so far (the messages
        about a press are sent after its answer, so an answer alone does not say that)."""
        queued = {int(u["update_id"]) for u in self.fake.pending_updates}
        queued |= {delivery.update_id for delivery in self.fake.webhook_deliveries}
        for call in self.fake.calls_of("getUpdates"):
            if isinstance(call.result, list):
                queued |= {int(u["update_id"]) for u in call.result}
        first = self._first_update or 0
        marks = [f"Update id={update_id} is " for update_id in queued if update_id >= first]
        await self.fake.wait_until(lambda: all(mark in self.log for mark in marks), timeout)
        await self.fake.wait_until(self.all_sent, timeout)

    def all_sent(self) -> bool:
        """The outbox of the running process has nothing left to send (it logs when it
        starts and when it is done)."""
        run = b"".join(self.logs[self._run_start :])
        return run.rfind(b"outbox: sending") <= run.rfind(b"outbox: all sent")


async def spawn_bot(folder: Path, env: dict[str, str], *python: str) -> asyncio.subprocess.Process:
    """`python [python options] -m bot` in `folder`; its stderr is a pipe the caller must
    keep reading (a full pipe stalls the bot)."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        *python,
        "-m",
        "bot",
        cwd=folder,
        env=env,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )


def bot_env(
    fake: FakeTelegram,
    db_path: Path,
    log_level: str = "INFO",
    pacing: bool = False,
    source: Path = ROOT,
) -> dict[str, str]:
    """The environment of a `python -m bot` (its code from `source`) talking to `fake` with
    its token; a reply finds its place in a busy chat as patiently as the fake waits. At
    `INFO` or `DEBUG` it also logs the `WATCHED` lines the harness reads."""
    env = {k: v for k, v in os.environ.items() if k not in {"BOT_TOKEN", "TELEGRAM_API_BASE"}}
    return env | {
        "PYTHONPATH": str(source),
        "BOT_TOKEN": fake.token,
        "TELEGRAM_API_BASE": fake.base,
        "DATABASE_PATH": str(db_path),
        "LOG_LEVEL": log_level,
        "LOG_DEBUG": WATCHED if log_level.upper() in {"DEBUG", "INFO"} else "",
        "PACING": str(pacing).lower(),
        "REPLY_PATIENCE_SECONDS": str(REPLY_PATIENCE * fake.patience),
    }


def previous_version(commit: str, folder: Path) -> Path:
    """The bot's code at `commit` (its `bot`, `migrations` and `render`), unpacked from the
    repository's history into `folder`: a `BotProcess.source` for the upgrade tests."""
    done = subprocess.run(
        ["git", "archive", commit, "bot", "migrations", "render"],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    if done.returncode:
        pytest.fail(f"commit {commit} is not in this clone: {done.stderr.decode()}")
    with tarfile.open(fileobj=io.BytesIO(done.stdout)) as archive:
        archive.extractall(folder, filter="data")
    return folder


def stretched(seconds: float) -> int:
    """A short clock of the bot's (`turn_timeout=…`) that gives a loaded machine the time a
    quiet one needs, in whole seconds: as patient as every wait on the fake."""
    return math.ceil(seconds * FakeTelegram.patience)


@asynccontextmanager
async def running_bot(
    fake: FakeTelegram,
    folder: Path,
    pacing: bool = False,
    webhook: dict[str, str] | None = None,
    database_url: str | None = None,
    webapp: bool = False,
) -> AsyncIterator[BotProcess]:
    """A started bot; when the block ends without an error, check the common promises:
    every press was answered, the fake saw no bug of its own, no Traceback in the log."""
    bot = BotProcess(
        fake, folder, pacing=pacing, webhook=webhook, database_url=database_url, webapp=webapp
    )
    try:
        await bot.start()
        yield bot
        if bot.process is not None:
            await bot.idle()  # a stop cuts short what the bot is still sending
    except BaseException:
        print(bot.log[-20_000:])  # shown by pytest for the failed test
        raise
    finally:
        if bot.process is not None:
            await bot.stop()
    kept_promises(fake, bot)
    no_forms(fake)


def kept_promises(fake: FakeTelegram, bot: BotProcess) -> None:
    """Every press was answered, the fake saw no bug of its own, no Traceback in the log."""
    assert not fake.unanswered_queries(), fake.unanswered_queries()
    assert not fake.internal_errors, fake.internal_errors[-1]
    assert "Traceback" not in bot.log, bot.log


FORMS = ("(а)", "(ней)", "(ла)", "(ло)")
"""The marks of a form's «вышел(а)»: the bot's Russian says things without them."""


def no_forms(fake: FakeTelegram) -> None:
    """No message, caption or answer of the bot reads like a form to fill in."""
    said = [m.content or "" for chat in fake.chats.values() for m in bot_messages(fake, chat)]
    said += [q.answer.text or "" for q in fake.callback_queries.values() if q.answer is not None]
    formal = [text for text in said if any(form in text for form in FORMS)]
    assert not formal, formal
