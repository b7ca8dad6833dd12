"""The table app under load: how soon every viewer hears a press, and what open viewers cost.

    python bench/webapp.py [--tables 50] [--moves 20] [--pace 2] [--seed 1]

This process is the bot's side: a `GameService` on a temporary SQLite file, `--tables`
two-person games of Козёл dealt, and the table app's server (`bot.webapp`, the real
views) on 127.0.0.1. A child process (`--client`) is the phones: for each table its
two players and two watchers sign in with `initData` signed as Telegram signs it and keep a
live stream open (4 × `--tables` viewers); then every table's players press in the app,
`--moves` moves a table, all tables at once, a move every `--pace` seconds or so (half to
one and a half times it), each once the table's four viewers have heard the one before.
A press's latency, for each viewer, is from sending the press to reading the new version
on that viewer's stream.

The viewers' clock stops when an event's end is read, before its view is decoded (and only
the players' views are: they choose moves from them), so the client's own work adds little.
`client_cpu` and `bot_cpu` are the share of a core each process used while the tables
played (the two share the machine's cores, as a bot and its users' phones would not), and
`load` the machine's load average over the last minute, at the end.

The bot's memory is its VmRSS before the viewers come and once they all hold a stream.
Prints JSON as its last line: {"viewers", "presses", "update_ms_p50", "update_ms_p95",
"client_cpu", "viewers_mb", "bot_cpu", "load", "goals", "met"}.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

# this file is called like a package of the repository: look packages up from its root
ROOT = Path(__file__).resolve().parents[1]
sys.path[0] = str(ROOT)

from bench.app_players import FOR_GOOD  # noqa: E402
from bot.core.rows import GameRow, Player  # noqa: E402
from bot.core.service import GameService  # noqa: E402
from bot.core.storage import Storage  # noqa: E402
from bot.game.record import Record  # noqa: E402
from bot.ui.table_app import seat_part, shared_view  # noqa: E402
from bot.webapp.backstage import Backstage, Views  # noqa: E402
from bot.webapp.init_data import signed  # noqa: E402
from bot.webapp.server import AppServer, table_app  # noqa: E402
from tests.e2e.app_client import table_events  # noqa: E402

TOKEN = "100500:bench-webapp"
UPDATE_GOAL_MS, VIEWERS_GOAL_MB = 100.0, 50.0
WAIT = 60.0  # seconds a viewer may take to hear a press before the run fails


class Everyone:
    """The Telegram side: everybody is in the group; nothing to show in Telegram."""

    async def is_member(self, chat_id: int, user_id: int) -> bool:
        return True

    def lobby_changed(self, game: GameRow) -> None:
        pass

    def back(self, game: GameRow, user_id: int) -> None:
        pass

    def send_replay(self, user_id: int, record: Record, round_no: int) -> None:
        pass

    def send_review(self, user_id: int, record: Record, seat: int) -> None:
        pass


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def dealt(service: GameService, table: int) -> dict[str, Any]:
    """Table `table`'s game, dealt to two people; who may watch it."""
    people = [Player(0, 1000 * table + seat, f"P{table}-{seat}") for seat in (1, 2)]
    for person in people:
        await service.storage.people.remember_user(person.user_id, person.name, None)
        await service.storage.people.set_started(person.user_id)
    game, _ = await service.new_lobby(-table, 0, people[0], "goat turn_timeout=0")
    await service.join(game.id, people[1])
    await service.start(game.id, people[0].user_id)
    watchers = [1000 * table + seat for seat in (3, 4)]
    return {"token": game.join_token, "players": [p.user_id for p in people], "watchers": watchers}


async def serve(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        storage = await Storage.open(Path(folder) / "bench.sqlite3")
        service = GameService(storage)
        backstage = Backstage(
            service=service, views=Views(shared_view, seat_part), shell=Everyone(), bot_token=TOKEN
        )
        server = AppServer(table_app(backstage))
        await server.start("127.0.0.1", 0)
        try:
            tables = [await dealt(service, table) for table in range(1, args.tables + 1)]
            spec = {"base": f"http://127.0.0.1:{server.port}", "tables": tables}
            before = rss_mb()
            child = await asyncio.create_subprocess_exec(
                sys.executable, __file__, "--client", json.dumps(spec),
                "--moves", str(args.moves), "--seed", str(args.seed), "--pace", str(args.pace),
                stdout=asyncio.subprocess.PIPE,
            )  # fmt: skip
            assert child.stdout is not None
            assert (await child.stdout.readline()).strip() == b"open"
            viewers_mb = rss_mb() - before
            busy, wall = time.process_time(), time.perf_counter()
            result: dict[str, Any] = json.loads(await child.stdout.read())
            busy, wall = time.process_time() - busy, time.perf_counter() - wall
            await child.wait()
        finally:
            await server.stop()
            await storage.close()
    result["viewers_mb"] = round(viewers_mb, 1)
    result["bot_cpu"] = round(busy / wall, 2)
    result["load"] = round(os.getloadavg()[0], 2)
    result["goals"] = {"update_ms_p95": UPDATE_GOAL_MS, "viewers_mb": VIEWERS_GOAL_MB}
    result["met"] = result["update_ms_p95"] <= UPDATE_GOAL_MS and viewers_mb <= VIEWERS_GOAL_MB
    return result


class Viewer:
    """One phone: its pass, its stream, the newest view (a seat's: a watcher's is not read)
    and when each version came."""

    def __init__(self, user_id: int, headers: dict[str, str], seat: bool) -> None:
        self.user_id = user_id
        self.headers = headers
        self.seat = seat
        self.view: dict[str, Any] = {}
        self.version = -1
        self.heard: dict[int, float] = {}
        self.news = asyncio.Event()

    async def follow(self, web: aiohttp.ClientSession, base: str, opened: asyncio.Event) -> None:
        async with web.get(f"{base}/api/stream", headers=self.headers, timeout=FOR_GOOD) as stream:
            async for version, raw in table_events(stream):  # heard now: the view is read after
                self.version = version
                self.heard[version] = time.perf_counter()
                if self.seat:
                    self.view = json.loads(raw)["view"]
                self.news.set()
                opened.set()


async def session(
    web: aiohttp.ClientSession, base: str, user_id: int, token: str, seat: bool
) -> Viewer:
    person = json.dumps({"id": user_id, "first_name": f"U{user_id}"})
    fields = {"user": person, "start_param": f"g{token}", "auth_date": str(int(time.time()))}
    async with web.post(f"{base}/api/session", json={"init_data": signed(fields, TOKEN)}) as got:
        answer = await got.json()
    return Viewer(user_id, {"Authorization": f"Bearer {answer['token']}"}, seat)


def choice(hand: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    playable = [t["tile"] for t in hand["tiles"] if t.get("playable")]
    if playable:
        return {"chose": "tile", "tile": rng.choice(playable)}
    return {"chose": "draw" if hand.get("draw") else "pass"}


async def play(
    web: aiohttp.ClientSession, base: str, viewers: list[Viewer], args: argparse.Namespace
) -> list[float]:
    """The table's players press `moves` times, a move every `pace` seconds or so; each
    press's latency to each viewer (ms)."""
    rng, latencies = random.Random(args.seed), []
    for _ in range(args.moves):
        await asyncio.sleep(args.pace * rng.uniform(0.5, 1.5))
        seats = viewers[:2]
        mover = next((v for v in seats if (v.view.get("hand") or {}).get("turn")), None)
        if mover is None or mover.view.get("phase") != "playing":
            break
        version = mover.version
        chosen = choice(mover.view["hand"], rng)
        press: dict[str, Any] = {"version": version, "choice": chosen}
        sent = time.perf_counter()
        while True:
            async with web.post(f"{base}/api/act", json=press, headers=mover.headers) as acted:
                answer = await acted.json()
            asking = answer.get("asking")
            if asking is None:
                break
            press["choice"] = chosen | {"end": asking["choices"][0]}
        for viewer in viewers:
            async with asyncio.timeout(WAIT):
                while viewer.version <= version:
                    viewer.news.clear()
                    await viewer.news.wait()
            heard = min(t for v, t in viewer.heard.items() if v > version)
            latencies.append((heard - sent) * 1000)
    return latencies


async def phones(spec: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    base = spec["base"]
    limit = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=limit) as web:
        tables = [
            [
                await session(web, base, user, table["token"], user in table["players"])
                for user in (*table["players"], *table["watchers"])
            ]
            for table in spec["tables"]
        ]
        opened = [asyncio.Event() for table in tables for _ in table]
        readers = [
            asyncio.create_task(viewer.follow(web, base, event))
            for viewer, event in zip((v for t in tables for v in t), opened, strict=True)
        ]
        async with asyncio.timeout(WAIT):
            await asyncio.gather(*(event.wait() for event in opened))
        print("open", flush=True)
        busy, wall = time.process_time(), time.perf_counter()
        played = await asyncio.gather(
            *(
                play(web, base, table, argparse.Namespace(**vars(args) | {"seed": args.seed + i}))
                for i, table in enumerate(tables)
            )
        )
        busy, wall = time.process_time() - busy, time.perf_counter() - wall
        for reader in readers:
            reader.cancel()
    latencies = sorted(ms for table in played for ms in table)
    return {
        "viewers": len(opened),
        "presses": len(latencies) // 4,
        "update_ms_p50": round(statistics.median(latencies), 1),
        "update_ms_p95": round(latencies[int(len(latencies) * 0.95) - 1], 1),
        "client_cpu": round(busy / wall, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pace", type=float, default=2.0, help="seconds between a table's moves")
    parser.add_argument("--client", help=argparse.SUPPRESS)  # the phones' side
    args = parser.parse_args()
    if args.client:
        print(json.dumps(asyncio.run(phones(json.loads(args.client), args))))
        return
    print(json.dumps(asyncio.run(serve(args))))


if __name__ == "__main__":
    main()
