"""What a process keeps per game goes when nobody needs it: locks and clock tasks."""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path

from bot.core.people import CACHED
from bot.core.recent import Recent
from bot.core.rows import ChatSettings, Player
from bot.core.service import GameService
from bot.core.storage import Storage
from bot.core.timers import SystemClock, Timers
from tests.core.test_timers import Messages


async def test_locks_live_only_while_held_or_awaited(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "kozel.sqlite3")
    try:
        service = GameService(storage)
        for game_id in range(1000):  # e.g. /start j<id> with made-up ids
            async with service.lock(game_id):
                pass
        held = service.lock(7)
        async with held:
            waiting = asyncio.ensure_future(service.lock(7).acquire())
            await asyncio.sleep(0)
            assert service.lock(7) is held and not waiting.done()
        await waiting
        held.release()
        del held, waiting
        gc.collect()
        assert len(service._locks) == 0
    finally:
        await storage.close()


async def test_a_lobby_clock_is_forgotten_once_the_lobby_is_gone(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "kozel.sqlite3")
    try:
        service = GameService(storage)
        timers = Timers(service, Messages(), SystemClock())
        game, _ = await service.new_lobby(-100, 0, Player(0, 1, "Маша"), "")
        timers.arm(game)
        assert len(timers._tasks) == 1
        cancelled = await service.cancel_lobby(game.id, 1, admin=False)
        timers.arm(cancelled)  # a game that ended has no clock
        await asyncio.sleep(0.05)
        assert timers._tasks == {}
        await timers.close()
    finally:
        await storage.close()


def test_recent_keeps_the_most_recently_used() -> None:
    recent: Recent[int, str] = Recent(2)
    recent[1], recent[2] = "a", "b"
    assert recent[1] == "a"  # 1 is now newer than 2
    recent[3] = "c"
    assert dict(recent) == {1: "a", 3: "c"}


async def test_cached_chats_and_languages_are_bounded(tmp_path: Path) -> None:
    """Settings and languages are read on every update; a bot in many chats keeps only the
    recent ones in memory (the rest stay in the database)."""
    storage = await Storage.open(tmp_path / "kozel.sqlite3")
    try:
        for chat_id in range(-1, -CACHED - 51, -1):
            await storage.people.chat_settings(chat_id)
            await storage.people.user_language(-chat_id)
        assert len(storage.people._chat_settings) == len(storage.people._languages) == CACHED
        await storage.people.save_chat_settings(-1, ChatSettings(language="en"))
        assert (await storage.people.chat_settings(-1)).language == "en"
    finally:
        await storage.close()
