"""Webhook mode (`WEBHOOK_URL`): the real bot process serves Telegram's POSTs, which the fake
Bot API delivers as Telegram does — one update a request with the secret header, retried
until the bot answers 2xx. A whole game is played that way, through a restart of the bot
in the middle; forged requests reach nothing, and junk bodies are turned away without a
traceback."""

from __future__ import annotations

import json
import random
from pathlib import Path

import aiohttp

from bot.playground import FakeTelegram
from bot.playground.api.updates import SECRET_HEADER
from tests.e2e.actions import find, play_moves, play_until, replies_to, start_game
from tests.e2e.checks import check_finished_game
from tests.e2e.process import running_bot
from tests.e2e.shown import LOBBY, SHORT
from tests.e2e.stored import games_in
from tests.e2e.test_startup import _env, _run
from tests.playground.launch import free_port

SECRET = "kozel-Secret_42"


def webhook_env(port: int, secret: str = SECRET) -> dict[str, str]:
    return {
        "WEBHOOK_URL": f"http://127.0.0.1:{port}/telegram/updates",
        "WEBHOOK_SECRET": secret,
        "WEBHOOK_HOST": "127.0.0.1",
        "WEBHOOK_PORT": str(port),
    }


async def test_a_game_is_played_over_the_webhook_through_a_restart(tmp_path: Path) -> None:
    port = free_port()
    settings = webhook_env(port)
    async with FakeTelegram() as fake:
        masha, olya = fake.add_user("Маша"), fake.add_user("Оля")
        group = fake.add_group("Двор", [masha, olya])
        async with running_bot(fake, tmp_path, webhook=settings) as bot:
            (hook,) = fake.calls_of("setWebhook")
            assert hook.params["url"] == settings["WEBHOOK_URL"]
            assert hook.params["secret_token"] == SECRET
            allowed = hook.params["allowed_updates"]
            assert (json.loads(allowed) if isinstance(allowed, str) else allowed) == [
                "message",
                "callback_query",
                "my_chat_member",
            ]
            assert not fake.calls_of("getUpdates")
            async with aiohttp.ClientSession() as http:
                async with http.get(f"http://127.0.0.1:{port}/healthz") as health:
                    assert (health.status, await health.text()) == (200, "ok")
                forged = {
                    "update_id": 1,
                    "message": {
                        "message_id": 1,
                        "date": 0,
                        "chat": {"id": group.id, "type": "supergroup", "title": "Двор"},
                        "from": {"id": masha.id, "is_bot": False, "first_name": "Маша"},
                        "text": "/newgame",
                    },
                }
                for headers in ({}, {SECRET_HEADER: "wrong"}):
                    url = settings["WEBHOOK_URL"]
                    async with http.post(url, json=forged, headers=headers) as answer:
                        assert answer.status == 401
            assert find(fake, group, LOBBY) is None  # the forged /newgame reached nothing
            await start_game(fake, group, [masha, olya], SHORT)
            rng = random.Random(5)
            after = await play_moves(fake, [masha, olya], rng, 4)
            await bot.stop()
            # Telegram keeps the updates while the bot is down and retries them
            before = len(fake.webhook_deliveries)
            asked = fake.user_sends(masha, group, "/score")
            await fake.wait_until(lambda: 0 in [d.status for d in fake.webhook_deliveries[before:]])
            await bot.start()
            await fake.wait_until(lambda: replies_to(fake, group, asked), 30)
            tried = [d.status for d in fake.webhook_deliveries[before:]]
            assert tried[-1] == 200 and set(tried[:-1]) == {0}, tried
            await play_until(fake, group, [masha, olya], rng, after=after)
            (game,) = games_in(tmp_path, group.id)
            await check_finished_game(fake, bot, group, olya, game["id"])
        assert len(fake.calls_of("setWebhook")) == 2  # once per start; never deleted
        assert not fake.calls_of("deleteWebhook")


NOT_JSON = [b"{not json", b"", b"\xff"]
NOT_AN_UPDATE = {  # the body, and what its warning calls it
    b"[1,2,3]": "a body",
    b'{"hello":1}': "a body",
    b'{"update_id": 5, "poll_answer": {"nope": 1}}': "update 5",
    b'{"update_id": 6, "message": {"message_id": 1, "text": "/newgame"}}': "update 6",
    b'{"update_id": 7}': "update 7",  # valid, but of no kind of update
}


async def test_junk_with_the_secret_is_turned_away_and_the_game_goes_on(tmp_path: Path) -> None:
    """A body that is not JSON gets 400; JSON that is no update gets 200 (Telegram would
    only send it again) and one short warning; no traceback, and the bot plays on."""
    port = free_port()
    settings = webhook_env(port)
    async with FakeTelegram() as fake:
        masha, olya = fake.add_user("Маша"), fake.add_user("Оля")
        group = fake.add_group("Двор", [masha, olya])
        async with running_bot(fake, tmp_path, webhook=settings) as bot:

            def warnings() -> list[str]:
                return [s for s in bot.log.splitlines() if "WARNING bot.telegram.webhook:" in s]

            url, headers = settings["WEBHOOK_URL"], {SECRET_HEADER: SECRET}
            async with aiohttp.ClientSession() as http:
                for body in [*NOT_JSON, *NOT_AN_UPDATE]:
                    async with http.post(url, data=body, headers=headers) as got:
                        assert got.status == (400 if body in NOT_JSON else 200), body
            await fake.wait_until(lambda: len(warnings()) >= len(NOT_AN_UPDATE))
            await start_game(fake, group, [masha, olya], SHORT)
            await play_moves(fake, [masha, olya], random.Random(3), 2)
        lines = warnings()
        assert len(lines) == len(NOT_AN_UPDATE), lines
        for line, named in zip(lines, NOT_AN_UPDATE.values(), strict=True):
            assert f"ignored {named}," in line and fake.token not in line and len(line) < 300
        assert "Traceback" not in bot.log and "Task exception" not in bot.log, bot.log


def test_a_webhook_without_a_usable_secret_says_what_to_set(tmp_path: Path) -> None:
    """Telegram would refuse a secret it cannot send; a webhook without one would take
    anybody's updates: one line and exit status 2, before anything starts."""
    for secret in ("", "has spaces", "x" * 257):
        env = _env(tmp_path, BOT_TOKEN="123:abc", **webhook_env(free_port(), secret))
        done = _run(env=env, cwd=tmp_path)
        assert (done.returncode, done.stdout) == (2, "")
        (line,) = done.stderr.strip().splitlines()
        assert "WEBHOOK_SECRET" in line
