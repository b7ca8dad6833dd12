"""What the bot's log says at the default level: the games (started, each round's
result, ended), not its busy work — aiogram's line for every update and the outbox's
«sending» / «all sent» are DEBUG's (the harness turns them on with `LOG_DEBUG`)."""

from __future__ import annotations

import random
import re
from pathlib import Path

from bot.playground import FakeTelegram
from tests.e2e.actions import play_until, start_game, wait_text
from tests.e2e.process import BotProcess
from tests.e2e.shown import GAME_OVER, NAMES
from tests.e2e.stored import games_in


async def test_at_info_the_log_tells_the_games_not_each_update(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", users)
        bot = BotProcess(fake, tmp_path, watched=False)
        await bot.start()
        try:
            await start_game(fake, group, users)
            await play_until(fake, group, users, random.Random(5), text="Раунд 1: ")
            for user in users:  # computers take the seats; the last one to leave ends it
                fake.user_sends(user, group, "/leave")
            await wait_text(fake, group, GAME_OVER)
        finally:
            log = await bot.stop()
        game = games_in(tmp_path, group.id)[-1]["id"]
    lines = log.splitlines()
    info = [line for line in lines if " INFO " in line]
    assert not [line for line in lines if "outbox:" in line or " is handled" in line], log
    where = f"game {game} .*in chat {group.id}"
    for said in (f"{where}: ", f"{where}: round 1 over ", f"{where} ended: timeout"):
        assert any(re.search(said, line) for line in info), (said, log)
    assert fake.token not in log
    assert "Traceback" not in log, log
