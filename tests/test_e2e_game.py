"""Whole games in a group, over HTTP, as the players see them."""

from __future__ import annotations

import random
from pathlib import Path

from tests.e2e import BotProcess, join, open_lobby, play_until, press, wait_text
from tests.fakebot import FakeTelegram

NAMES = ["Маша", "Серёжа", "Оля", "Алекс"]


async def test_three_players_play_a_whole_game_to_a_goat(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:3]]
        group = fake.add_group("Двор", users)
        bot = BotProcess(fake, tmp_path)
        await bot.start()
        try:
            lobby = await open_lobby(fake, group, users[0])
            for user in users:
                await join(fake, group, user)
            await press(fake, users[0], lobby, "▶ Начать")
            moves = await play_until(fake, group, users, random.Random(1))
            assert moves > 10
            end = await wait_text(fake, group, "Игра окончена")
            assert "козёл" in (end.content or "")
        finally:
            log = await bot.stop()
        print(fake.transcript(users[0], group))
        print(fake.transcript(users[1], users[1]))
        assert "Traceback" not in log, log
