"""«🔍 Разбор» and the bot's child processes, through the fake Bot API: a review and a
replay are made in processes of their own, which end with the bot however it ends."""

from __future__ import annotations

import contextlib
import os
import random
import signal
from pathlib import Path

from bot.playground import Chat, FakeTelegram, Message, User
from tests.e2e.actions import play_until, press, start_game
from tests.e2e.process import BotProcess, running_bot
from tests.e2e.shown import NAMES, RU, bot_messages
from tests.e2e.stored import games_in, query

QUICK = "target=25"  # a game of a few rounds


def children(pid: int) -> set[int]:
    """The processes whose parent is `pid` (a scan of /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and _stat(int(entry.name))[1:2] == [str(pid)]:
            found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Whether process `pid` is still there (a zombie, waiting for its new parent to
    reap it, has ended)."""
    return _stat(pid)[:1] not in ([], ["Z"])


def _stat(pid: int) -> list[str]:
    """/proc/<pid>/stat's fields after the command: the state, the parent, …"""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return []
    return stat.rsplit(")", 1)[1].split()


def command(pid: int) -> str:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    return ""


def with_button(fake: FakeTelegram, chat: Chat | User, label: str) -> Message | None:
    """The bot's newest message in `chat` with a button labelled `label`."""
    return next(
        (
            m
            for m in reversed(bot_messages(fake, chat))
            if label in [b["text"] for row in m.reply_markup or [] for b in row]
        ),
        None,
    )


async def finished_game(
    fake: FakeTelegram, bot: BotProcess, folder: Path, group: Chat, players: list[User]
) -> int:
    """A quick game played to its end in `group`, its record kept; its id."""
    await start_game(fake, group, players, QUICK)
    (game,) = games_in(folder, group.id)
    await play_until(fake, group, players, random.Random(4))
    await bot.idle()
    await fake.wait_until(
        lambda: query(folder, "SELECT 1 FROM records WHERE game_id = ?", game["id"])
    )
    return int(game["id"])


async def test_the_bots_children_end_with_it(tmp_path: Path) -> None:
    """kill -9 the bot while a review and a replay are being made: within seconds none of
    its child processes (the reviewer, the drawer, multiprocessing's resource tracker)
    remains."""
    async with FakeTelegram() as fake:
        masha, serge = (fake.add_user(name) for name in NAMES[:2])
        group = fake.add_group("Двор", [masha, serge])
        async with running_bot(fake, tmp_path) as bot:
            await finished_game(fake, bot, tmp_path, group, [masha, serge])
            hand = await fake.wait_until(lambda: with_button(fake, masha, RU("review-button")))
            assert await press(fake, masha, hand, RU("review-button")) == RU("review-preparing")
            result = await fake.wait_until(lambda: with_button(fake, group, RU("replay-button")))
            assert await press(fake, masha, result, RU("replay-button")) == RU("replay-preparing")
            assert bot.process is not None
            pid = bot.process.pid

            def making() -> set[int] | None:
                found = children(pid)
                workers = [p for p in found if "spawn_main" in command(p)]
                return found if len(workers) >= 2 else None

            spawned = await fake.wait_until(making, 60)  # the reviewer and the drawer
            os.kill(pid, signal.SIGKILL)
            try:
                await fake.wait_until(lambda: not any(alive(p) for p in spawned), 20)
            finally:
                for left in filter(alive, spawned):  # not to keep the test's pipe open
                    os.kill(left, signal.SIGKILL)
            await bot.stop()
