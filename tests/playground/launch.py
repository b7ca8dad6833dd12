"""`python -m bot playground` as a person starts it, for the playground's tests."""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.e2e.process import stretched

ROOT = Path(__file__).resolve().parents[2]
READY = "Playground: open "


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def playground_env(folder: Path, **extra: str) -> dict[str, str]:
    """A person's environment: no token, the default database path under `folder`."""
    env = {k: v for k, v in os.environ.items() if k not in {"BOT_TOKEN", "WEBHOOK_URL"}}
    return env | {
        "PYTHONPATH": str(ROOT),
        "DATABASE_PATH": str(folder / "data" / "kozel.sqlite3"),
        "COMPUTER_PACE_SECONDS": "0.2",
        **extra,
    }


@dataclass
class Playground:
    url: str
    process: asyncio.subprocess.Process
    log: Path

    def log_text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


@asynccontextmanager
async def playground(folder: Path, *args: str) -> AsyncIterator[Playground]:
    """`python -m bot [args]` in `folder` until its ready line; stopped with SIGINT (Ctrl-C)
    at the end, which it must survive cleanly."""
    log = folder / "playground.log"
    with log.open("wb") as errors:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            *args,
            cwd=folder,
            env=playground_env(folder),
            stdout=asyncio.subprocess.PIPE,
            stderr=errors,
        )
    assert process.stdout is not None
    try:
        started = process.stdout.readline()  # a loaded machine may take a minute or more
        line = (await asyncio.wait_for(started, stretched(60))).decode()
        assert line.startswith(READY), line + log.read_text()
        url = line.removeprefix(READY).split()[0]
        yield Playground(url, process, log)
    finally:
        if process.returncode is None:
            process.send_signal(2)  # SIGINT, as Ctrl-C
            try:
                await asyncio.wait_for(process.wait(), 20)
            except TimeoutError:
                process.kill()
                await process.wait()
