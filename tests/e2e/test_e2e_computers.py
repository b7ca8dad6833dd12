"""Computer players fill empty seats: they move by themselves and are never rated."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from bot.playground import FakeTelegram
from tests.e2e.actions import join, open_lobby, play_until, press, wait_text
from tests.e2e.process import BotProcess


async def test_one_person_and_three_computers_play_a_whole_unrated_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPUTER_PACE_SECONDS", "0.02")
    async with FakeTelegram() as fake:
        masha, olya = fake.add_user("Маша"), fake.add_user("Оля")
        group = fake.add_group("Двор", [masha, olya])
        bot = BotProcess(fake, tmp_path)
        await bot.start()
        try:
            lobby = await open_lobby(fake, group, masha)
            await join(fake, group, masha)
            assert "только тот" in await press(fake, olya, lobby, "🤖 +мастер")
            for level in ("новичок", "любитель", "мастер"):
                await press(fake, masha, lobby, f"🤖 +{level}")
            await fake.wait_until(lambda: "🤖 Мастер 3" in (lobby.content or ""))
            assert "Игроки: Маша, 🤖 Новичок 1, 🤖 Любитель 2, 🤖 Мастер 3" in (lobby.content or "")
            await press(fake, masha, lobby, "▶ Начать")
            await play_until(fake, group, [masha], random.Random(3))
            end = await wait_text(fake, group, "Игра окончена")
            assert "🤖" in (end.content or "")
            private = [m for m in fake.messages(masha) if m.from_bot]
            assert all("🤖" not in (m.content or "") for m in private[1:])
        finally:
            log = await bot.stop()
        assert "Traceback" not in log, log
        assert not fake.unanswered_queries()
        with sqlite3.connect(tmp_path / "kozel.sqlite3") as db:
            assert db.execute("SELECT status FROM games").fetchall() == [("finished",)]
            assert db.execute("SELECT COUNT(*) FROM ratings").fetchone() == (0,)
            computers = db.execute(
                "SELECT COUNT(*) FROM players WHERE computer IS NOT NULL"
            ).fetchone()
            assert computers == (3,)


async def test_a_game_needs_a_person(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        masha = fake.add_user("Маша")
        group = fake.add_group("Двор", [masha])
        bot = BotProcess(fake, tmp_path)
        await bot.start()
        try:
            lobby = await open_lobby(fake, group, masha)
            await press(fake, masha, lobby, "Выйти")
            await press(fake, masha, lobby, "🤖 +новичок")
            await press(fake, masha, lobby, "🤖 +новичок")
            assert "хотя бы один человек" in await press(fake, masha, lobby, "▶ Начать")
        finally:
            log = await bot.stop()
        assert "Traceback" not in log, log
