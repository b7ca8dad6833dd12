"""«🔁 Ещё партию» under a game's end: a new lobby with the same rules, the presser seated,
the computers seated again; a second press makes nothing."""

from __future__ import annotations

import random
from pathlib import Path

from bot.playground import FakeTelegram
from tests.e2e.actions import play_until, press, start_game, wait_text
from tests.e2e.process import running_bot
from tests.e2e.shown import GAME_OVER, NAMES
from tests.e2e.stored import games_in, seats_of

AGAIN = "🔁 Ещё партию"


async def test_play_again_opens_a_lobby_with_the_same_rules(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", users)
        async with running_bot(fake, tmp_path):
            await start_game(fake, group, users, "target=1", computers=["любитель"])
            await play_until(fake, group, users, random.Random(3))
            end = await wait_text(fake, group, GAME_OVER)
            (last,) = games_in(tmp_path, group.id)
            last_seats = seats_of(tmp_path, last["id"])
            computers = [u for u in last_seats if u < 0]
            assert computers
            presser = users[1]
            answer = await press(fake, presser, end, AGAIN)
            assert answer == "Новый стол с теми же правилами — садитесь!"
            await fake.wait_until(lambda: len(games_in(tmp_path, group.id)) == 2, 20)
            _, new = games_in(tmp_path, group.id)
            assert new["status"] == "lobby"
            assert new["rules"] == last["rules"]
            assert new["creator_id"] == presser.id
            assert seats_of(tmp_path, new["id"]) == [presser.id, *computers]
            # a second press, by anyone: a pointer to the open lobby, nothing new
            again = await press(fake, users[0], end, AGAIN)
            assert again == "Здесь уже есть игра — вот она."
            assert len(games_in(tmp_path, group.id)) == 2
