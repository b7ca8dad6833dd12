"""Presence shared by two webhook workers on one PostgreSQL: Маша's page holds the game's
stream on worker A, Серёжа's on worker B, and every move is made in the app through B. B
knows she is at the table: her private hand is neither edited nor sent anew, and the
group's picture waits for the round's end (both are in the app). When her turn comes and
her phone puts the app away, her hand is brought up to date at once; when worker A dies
while holding her stream, another worker sweeps her stay and her hand follows."""

from __future__ import annotations

import asyncio
import random
import signal
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.game.engine import legal_moves
from bot.playground import FakeTelegram, User
from tests.e2e.actions import start_game, version_of
from tests.e2e.app_client import bearer, choice_of, next_table
from tests.e2e.shown import NAMES, YOUR_TURN, bot_messages
from tests.e2e.stored import games_in, query, seats_of, stored_state
from tests.e2e.test_e2e_app_presence import pictures, to_her
from tests.e2e.test_e2e_webapp_workers import webhook_worker
from tests.playground.launch import free_port
from tests.postgres import PostgresServer

OPTIONS = "goat turn_timeout=0"


class Table:
    """The game as the test plays it: moves made in the app through worker B, followed on
    Серёжа's stream there."""

    def __init__(self, web: aiohttp.ClientSession, base: str, folder: Path, game_id: int) -> None:
        self.web, self.base, self.folder, self.game_id = web, base, folder, game_id
        self.passes: dict[int, dict[str, str]] = {}
        self.seats = seats_of(folder, game_id)
        self.rng = random.Random(7)
        self.view: dict[str, Any] = {}
        self.stream: aiohttp.ClientResponse | None = None

    async def move(self) -> None:
        """The player to move plays a legal move in the app (through B)."""
        assert self.stream is not None
        state = stored_state(self.folder, self.game_id)
        mover = self.seats[state.to_move]
        body = {
            "version": self.view["version"],
            "choice": choice_of(self.rng.choice(legal_moves(state))),
        }
        url, headers = f"{self.base}/api/act", self.passes[mover]
        acted = await self.web.post(url, json=body, headers=headers)
        while acted.status == 429:  # at most five presses a second, as a finger
            await asyncio.sleep(0.3)
            acted = await self.web.post(url, json=body, headers=headers)
        assert acted.status == 200, await acted.text()
        seen = self.view["version"]
        while self.view["version"] == seen:  # until the move is on the table
            self.view = await next_table(self.stream, 30)

    async def follow(self, user: User) -> None:
        """`user`'s page holds the game's stream on B: the moves are seen there."""
        url = f"{self.base}/api/stream"
        self.stream = await self.web.get(url, headers=self.passes[user.id])
        self.view = await next_table(self.stream, 30)

    def to_move(self) -> int:
        return self.seats[stored_state(self.folder, self.game_id).to_move]


def her_hand(fake: FakeTelegram, user: User) -> tuple[int, bool]:
    """The move number her private hand's buttons are for, and whether it says her turn."""
    hands = [m for m in bot_messages(fake, user) if version_of(m) >= 0]
    if not hands:
        return -1, False
    return version_of(hands[-1]), YOUR_TURN in (hands[-1].content or "")


def present(folder: Path) -> int:
    return int(query(folder, "SELECT COUNT(*) FROM presence")[0][0])


async def test_a_worker_spares_the_hand_of_a_person_in_the_app_on_another(
    tmp_path: Path, postgres: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("APP_PICTURE_SECONDS", "600")  # longer than the round
    url = await postgres.fresh()
    public = f"http://127.0.0.1:{free_port()}/telegram/updates"
    async with FakeTelegram() as fake:
        masha, serge = users = [fake.add_user(name) for name in NAMES[:2]]
        group = fake.add_group("Двор", users)
        a, b = workers = [webhook_worker(fake, tmp_path / name, url, public) for name in "ab"]
        try:
            for worker in workers:
                await worker.start()
            await start_game(fake, group, users, OPTIONS)
            (game,) = games_in(a.folder, group.id)
            start_param = f"g{game['join_token']}"
            async with aiohttp.ClientSession() as web:
                table = Table(web, await b.app_base(), a.folder, game["id"])
                for user in users:
                    table.passes[user.id] = await bearer(web, table.base, fake, user, start_param)
                on_a = await a.app_base()
                on_a_pass = await bearer(web, on_a, fake, masha, start_param)
                hers = await web.get(f"{on_a}/api/stream", headers=on_a_pass)
                await next_table(hers, 30)
                await table.follow(serge)
                await fake.wait_until(lambda: present(a.folder) == 2, 30)
                await fake.wait_until(lambda: a.all_sent() and b.all_sent(), 30)
                before, shown = to_her(fake, masha), pictures(fake, group.id)

                first = table.view["view"]["round"]
                while table.view["view"]["round"] == first:  # the first round, in the app
                    assert pictures(fake, group.id) == shown, "the group's picture waits"
                    await table.move()
                await fake.wait_until(lambda: pictures(fake, group.id) > shown, 30)
                await fake.wait_until(lambda: a.all_sent() and b.all_sent(), 30)
                assert to_her(fake, masha) == before, "her hand waits while she is in the app"

                while table.to_move() != masha.id:
                    await table.move()
                hers.close()  # her phone puts the app away at her turn
                version = table.view["version"]
                await fake.wait_until(lambda: her_hand(fake, masha) == (version, True), 10)

                hers = await web.get(f"{on_a}/api/stream", headers=on_a_pass)  # back in the app
                await next_table(hers, 30)
                await fake.wait_until(lambda: present(a.folder) == 2, 30)
                await table.move()  # hers
                while table.to_move() != masha.id:
                    await table.move()
                version = table.view["version"]
                assert her_hand(fake, masha)[0] < version, "her hand waits while she is in the app"
                await a.stop(signal.SIGKILL)  # the worker holding her stream dies
                hers.close()
                await fake.wait_until(lambda: her_hand(fake, masha) == (version, True), 60)
        finally:
            for worker in workers:
                if worker.process is not None:
                    await worker.stop()
        assert not any("Traceback" in worker.log for worker in workers)
