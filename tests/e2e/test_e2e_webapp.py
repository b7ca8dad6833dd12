"""The table app through the real bot process: the group's «📱 За стол» opens it on the game;
a seated person, signed in with `initData` as Telegram signs it, plays from the app while the
other plays from the private hand; a stream hears every move, ends when the bot stops, and
once the bot is back a stream opened with `since` catches up on what it missed."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import aiohttp

from bot.game.engine import legal_moves
from bot.game.moves import Play
from bot.playground import FakeTelegram
from tests.e2e.actions import dealt, join, open_lobby, play_move, press
from tests.e2e.app_client import bearer, next_table
from tests.e2e.process import WEBAPP, running_bot
from tests.e2e.shown import NAMES, RU, START, bot_messages
from tests.e2e.stored import games_in, seats_of, stored_state

APP = RU("open-table-app")
OPTIONS = "goat turn_timeout=0"


async def test_a_seat_plays_in_the_app_and_a_stream_survives_a_restart(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        users = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", users)
        async with running_bot(fake, tmp_path, webapp=True) as bot, aiohttp.ClientSession() as web:
            lobby = await open_lobby(fake, group, users[0], OPTIONS)
            (game,) = games_in(tmp_path, group.id)
            link = f"https://t.me/{fake.bot_username}/{WEBAPP['WEBAPP_SHORT_NAME']}"
            start_param = f"g{game['join_token']}"
            assert fake.user_presses(users[0], lobby, APP) == f"{link}?startapp={start_param}"
            for user in users:
                await join(fake, group, user, lobby)
            assert await press(fake, users[0], lobby, START) == RU("dealing")
            await dealt(fake, group, lobby, users)
            table = next(m for m in bot_messages(fake, group) if m.photo)
            url = fake.user_presses(users[1], table, APP)
            assert parse_qs(urlsplit(url).query) == {"startapp": [start_param]}

            base = await bot.app_base()
            state = stored_state(tmp_path, game["id"])
            seats = seats_of(tmp_path, game["id"])
            mover = next(u for u in users if u.id == seats[state.to_move])
            headers = await bearer(web, base, fake, mover, start_param)
            stream = await web.get(f"{base}/api/stream", headers=headers)
            version = (await next_table(stream, 20))["version"]

            move = next(m for m in legal_moves(state) if isinstance(m, Play))
            choice = {"chose": "tile", "tile": move.tile, "end": move.end}
            acted = await web.post(
                f"{base}/api/act", json={"version": version, "choice": choice}, headers=headers
            )
            assert await acted.json() == {"result": "moved", "asking": None}
            assert (await next_table(stream, 20))["version"] == version + 1
            after = await play_move(fake, users, random.Random(3), version)  # the private hand
            assert (await next_table(stream, 20))["version"] > version + 1

            await bot.stop()  # the stream ends with the bot
            assert await asyncio.wait_for(stream.content.read(), 20) == b""
            seen = stored_state(tmp_path, game["id"])
            await bot.start()
            base = await bot.app_base()
            await play_move(fake, users, random.Random(4), after)  # while nobody watches
            again = await web.get(
                f"{base}/api/stream", params={"since": str(version + 1)}, headers=headers
            )
            caught_up = await next_table(again, 20)
            assert caught_up["version"] > version + 2
            assert stored_state(tmp_path, game["id"]) != seen
            again.close()
