"""A real PostgreSQL for the tests: Debian's server (package `postgresql`, which `.ci/run`
installs when missing), a throwaway cluster in a temporary folder on a free port of
127.0.0.1, run as the `postgres` user when the tests run as root (the server refuses root).
Each test gets a database of its own. Without the server the tests that need one are
skipped, saying why — except with `CI=true`, where they fail."""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import asyncpg

from tests.playground.launch import free_port

INSTALL = "apt-get install postgresql"
_names = itertools.count(1)


def server_binaries() -> Path | None:
    """The newest installed server's `bin` folder."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/postgres"), key=lambda p: int(p.parts[-3])
    )
    return found[-1].parent if found else None


class PostgresServer:
    """One cluster, started and stopped by the tests of one process."""

    def __init__(self, binaries: Path, *, durable: bool = False) -> None:
        self.binaries = binaries
        self.durable = durable  # fsync and synchronous commits, as a real server (benches)
        self.folder = Path(tempfile.mkdtemp(prefix="kozel-postgres-"))
        self.port = free_port()

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.binaries / program), *args]
        if os.geteuid() == 0:  # PostgreSQL will not run as root
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
        data = str(self.folder / "data")
        self._run("initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "-N")
        options = [
            f"-p {self.port}",
            f"-k {self.folder}",
            "-c listen_addresses=127.0.0.1",
            "-c max_connections=300",
        ]
        if not self.durable:
            options += ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
        log = str(self.folder / "server.log")
        self._run("pg_ctl", "-D", data, "-l", log, "-w", "-o", " ".join(options), "start")

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    async def fresh(self) -> str:
        """The URL of a new, empty database."""
        name = f"kozel_{os.getpid()}_{next(_names)}"
        connection = await asyncpg.connect(self.url())
        try:
            await connection.execute(f'CREATE DATABASE "{name}"')
        finally:
            await connection.close()
        return self.url(name)
