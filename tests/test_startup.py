"""`python -m bot` as a user starts it: a clear line without a token, polling with one."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from tests.fakebot import TOKEN, FakeTelegram

ROOT = Path(__file__).resolve().parent.parent


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"BOT_TOKEN", "TELEGRAM_API_BASE"}}
    env["PYTHONPATH"] = str(ROOT)
    env["DATABASE_PATH"] = str(tmp_path / "data" / "kozel.sqlite3")
    env.update(extra)
    return env


def test_without_token_it_says_what_to_set(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=_env(tmp_path),
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
        env=_env(tmp_path, BOT_TOKEN=TOKEN, TELEGRAM_API_BASE=base),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        await fake.wait_polling(timeout=20)
        fake.user_sends(user, user, "/start")
        reply = await fake.wait_for_call("sendMessage", timeout=20)
        assert reply.ok
        assert reply.params["chat_id"] == "7"
        assert "Козёл" in str(reply.params["text"])
        assert "Козёл" in (fake.chat_view(user, user)[-1].text or "")
        assert (tmp_path / "data").is_dir()
    finally:
        process.terminate()
        _, stderr = await process.communicate()
        await fake.stop()
    assert TOKEN not in stderr.decode()
