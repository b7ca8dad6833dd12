"""Two webhook workers on one PostgreSQL, each serving the table app: a viewer on each, the
moves pressed in the app through both — every viewer sees every move, in order (a move
committed on one worker reaches the other's streams by NOTIFY)."""

from __future__ import annotations

from pathlib import Path

import aiohttp

from bot.game.engine import legal_moves
from bot.game.state import Phase
from bot.playground import Chat, FakeTelegram, User
from tests.e2e.actions import start_game
from tests.e2e.app_client import bearer, choice_of, next_table
from tests.e2e.process import BotProcess
from tests.e2e.shown import NAMES
from tests.e2e.stored import games_in, seats_of, stored_state
from tests.playground.launch import free_port
from tests.postgres import PostgresServer

MOVES = 6


def webhook_worker(fake: FakeTelegram, folder: Path, url: str, public: str) -> BotProcess:
    """A worker behind the fake's balancer, with the table app on a port of its own."""
    port = free_port()
    fake.balanced.append(f"http://127.0.0.1:{port}/telegram/updates")
    folder.mkdir()
    hook = {
        "WEBHOOK_URL": public,
        "WEBHOOK_SECRET": "app-workers",
        "WEBHOOK_HOST": "127.0.0.1",
        "WEBHOOK_PORT": str(port),
    }
    return BotProcess(fake, folder, webhook=hook, database_url=url, webapp=True)


async def test_viewers_on_two_workers_see_every_move_in_order(
    tmp_path: Path, postgres: PostgresServer
) -> None:
    url = await postgres.fresh()
    public = f"http://127.0.0.1:{free_port()}/telegram/updates"
    async with FakeTelegram() as fake:
        people = [fake.add_user(name) for name in NAMES[:3]]
        group = fake.add_group("Двор", people)
        workers = [webhook_worker(fake, tmp_path / name, url, public) for name in ("a", "b")]
        try:
            for worker in workers:
                await worker.start()
            await start_game(fake, group, people[:2], "goat turn_timeout=0")
            async with aiohttp.ClientSession() as web:
                await watch_and_press(fake, group, people, workers, web)
        finally:
            for worker in workers:
                if worker.process is not None:
                    await worker.stop()
        assert not any("Traceback" in worker.log for worker in workers)


async def watch_and_press(
    fake: FakeTelegram,
    group: Chat,
    people: list[User],
    workers: list[BotProcess],
    web: aiohttp.ClientSession,
) -> None:
    """A watcher on the first worker and a player on the second watch, while the players
    press in the app on each worker in turn."""
    folder = workers[0].folder
    (game,) = games_in(folder, group.id)
    start_param = f"g{game['join_token']}"
    bases = [await worker.app_base() for worker in workers]
    passes = {
        (base, user.id): await bearer(web, base, fake, user, start_param)
        for base in bases
        for user in people
    }
    viewers = [(bases[0], people[2]), (bases[1], people[0])]
    streams = [
        await web.get(f"{base}/api/stream", headers=passes[base, who.id]) for base, who in viewers
    ]
    first = [await next_table(stream, 20) for stream in streams]
    assert first[0]["view"]["hand"] is None and first[1]["view"]["hand"]["tiles"]  # no hand
    seen = [[table["version"]] for table in first]
    seats = seats_of(folder, game["id"])
    for number in range(MOVES):
        state = stored_state(folder, game["id"])
        assert state.phase is Phase.PLAYING
        base = bases[number % 2]  # through both workers in turn
        press = {"version": seen[0][-1], "choice": choice_of(legal_moves(state)[0])}
        async with web.post(
            f"{base}/api/act", json=press, headers=passes[base, seats[state.to_move]]
        ) as acted:
            assert (await acted.json())["result"] == "moved"
        for stream, versions in zip(streams, seen, strict=True):
            versions.append((await next_table(stream, 20))["version"])
    assert seen[0] == seen[1] == sorted(set(seen[0])) and len(seen[0]) == MOVES + 1
    for stream in streams:
        stream.close()
