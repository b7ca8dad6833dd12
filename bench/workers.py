"""Workers: several webhook workers on one PostgreSQL database, with a kill and a restart.

    python bench/workers.py [--workers 3] [--groups 10] [--seed 1]
                            [--database postgresql://USER@HOST:PORT/DB]

`--workers` bot processes (`python -m bot` in webhook mode, COMPUTER_PACE_SECONDS=0.05)
behind the fake Bot API's balancer, which spreads its POSTs over them round-robin, on one
PostgreSQL database — a new one on `--database`'s server, dropped afterwards, or (without
it) a throwaway server this script starts (Debian's `postgresql`, see tests/postgres.py).
The fake's flood limits are off, as for a bot whose limits Telegram raised. `--groups`
groups of two people each sit down with a «🤖 +новичок» computer and play
`/newgame goat target=31 turn_timeout=2`; people press after 0.2–0.6 s of looking, and
in every second group only the first person presses, so the other's clock moves for
them. Four seconds into the play the first worker that sends some of the bot's messages
(the holder of some shards' claims; the workers share them) is killed (SIGKILL) and taken
out of the balancer, two seconds later another is restarted (SIGTERM, start).

It measures what #19's multi-worker test must hold, and what still breaks: games played
to their end, stored states equal to the replay of their move logs, round results and
game ends each told once, presses never answered (the killed worker's in flight), joins
the lobby message did not show within 20 s, requests Telegram refused (several senders
racing on one message would show here as "message to edit not found"), and whether
the other workers took over the sending of every shard the killed one held.

Prints progress to stderr and, as its last line, JSON {"workers", "groups", "finished",
"replayed", "rounds_told", "rounds_stored", "groups_told_each_round_once", "miscounted",
"ends_told", "unanswered", "stalled_joins", "refused", "refused_by_reason", "tracebacks",
"sender_replaced", "seconds", "ok"} (`ok`: every game finished, replayed, told each round
and its end once, nothing refused, no join stalled, no traceback, and with more than one
worker the sending taken over).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

# this file is called like a package of the repository: look packages up from its root
ROOT = Path(__file__).resolve().parents[1]
sys.path[0] = str(ROOT)

from bench.load import fresh_database, say  # noqa: E402
from bot.playground import Chat, FakeTelegram, User  # noqa: E402
from tests.e2e.actions import dealt, find, open_lobby, play_move, press, seated, turn_message  # noqa: E402
from tests.e2e.process import BotProcess  # noqa: E402
from tests.e2e.shown import GAME_OVER, JOIN, RU, START, bot_messages  # noqa: E402
from tests.e2e.stored import games_in, query, replay_game, stored_state  # noqa: E402
from tests.playground.launch import free_port  # noqa: E402
from tests.postgres import PostgresServer, server_binaries  # noqa: E402

OPTIONS = "goat target=31 turn_timeout=2"
ROUND_RESULT = "Счёт (было → раунд → стало)"
STALL = 6.0  # seconds without a turn for the pressing player: press again
THINK = (0.2, 0.6)  # seconds a person looks at their hand before pressing
SECRET = "workers-bench"
SHARD_LINE = re.compile(
    r"(sends the bot's messages of|gives back|lost the claims of) shards \[([\d, ]*)\]"
)


def held_shards(log: str) -> set[int]:
    """The shards a worker sends at the end of `log` (it says when it takes and lets go)."""
    held: set[int] = set()
    for verb, numbers in SHARD_LINE.findall(log):
        shards = {int(n) for n in numbers.split(",") if n.strip()}
        held = held | shards if verb.startswith("sends") else held - shards
    return held


GAME_SECONDS = 300.0


def worker(fake: FakeTelegram, folder: Path, url: str, public: str) -> BotProcess:
    port = free_port()
    folder.mkdir()
    settings = {
        "WEBHOOK_URL": public,
        "WEBHOOK_SECRET": SECRET,
        "WEBHOOK_HOST": "127.0.0.1",
        "WEBHOOK_PORT": str(port),
    }
    fake.balanced.append(f"http://127.0.0.1:{port}/telegram/updates")
    return BotProcess(fake, folder, webhook=settings, database_url=url)


async def sit_down(fake: FakeTelegram, group: Chat, user: User, stalled: list[str]) -> None:
    """Through the lobby's deep link; again if the lobby does not show them in time."""
    for _ in range(3):
        lobby = find(fake, group, "Собираем стол")
        assert lobby is not None
        fake.follow_link(user, fake.user_presses(user, lobby, JOIN))
        try:
            await fake.wait_until(
                lambda lobby=lobby: user.name in seated(lobby),  # type: ignore[misc]
                20,
            )
            return
        except TimeoutError:
            stalled.append(user.name)


async def seat_everybody(
    fake: FakeTelegram, group: Chat, people: list[User], stalled: list[str]
) -> None:
    lobby = await open_lobby(fake, group, people[0], OPTIONS)
    for user in people:
        await sit_down(fake, group, user, stalled)
    await press(fake, people[0], lobby, "🤖 +новичок")
    await fake.wait_until(lambda: "🤖 Новичок" in (lobby.content or ""), 20)
    while await press(fake, people[0], lobby, START) != RU("dealing"):
        await asyncio.sleep(1)  # the lobby was shown stale: it shows the seats now
    await dealt(fake, group, lobby, people)


async def drive(fake: FakeTelegram, group: Chat, pressing: list[User], seed: int) -> None:
    """The `pressing` people play until the game is over; a lost press is made again."""
    rng, after = random.Random(seed), -1
    while find(fake, group, GAME_OVER) is None:
        try:
            await fake.wait_until(
                lambda after=after: (  # type: ignore[misc]
                    find(fake, group, GAME_OVER) or turn_message(fake, pressing, after)
                ),
                STALL,
            )
        except TimeoutError:
            after = -1  # the hand still shows the same turn: that press was lost
            continue
        if find(fake, group, GAME_OVER) is not None:
            return
        await asyncio.sleep(rng.uniform(*THINK))  # people look before they press
        try:
            after = await play_move(fake, pressing, rng, after)
        except TimeoutError:
            after = -1


@contextlib.asynccontextmanager
async def server(url: str | None) -> AsyncIterator[str]:
    """`url`, or a throwaway PostgreSQL server's."""
    if url is not None:
        yield url
        return
    binaries = server_binaries()
    if binaries is None:
        raise SystemExit("no PostgreSQL server installed: apt-get install postgresql")
    started = PostgresServer(binaries, durable=True)
    started.start()
    try:
        yield started.url()
    finally:
        started.stop()


async def run(args: argparse.Namespace) -> dict[str, Any]:
    os.environ["COMPUTER_PACE_SECONDS"] = "0.05"
    with tempfile.TemporaryDirectory(prefix="kozel-workers-") as folder:
        async with (
            server(args.database) as where,
            fresh_database(where) as url,
            FakeTelegram() as fake,
        ):
            assert url is not None
            fake.flood = False
            public = f"http://127.0.0.1:{free_port()}/telegram/updates"
            groups, people = [], []
            for number in range(args.groups):
                pair = [fake.add_user(f"Игрок {number}а"), fake.add_user(f"Игрок {number}б")]
                groups.append(fake.add_group(f"Двор {number}", pair))
                people.append(pair)
            workers = [
                worker(fake, Path(folder) / f"worker{i}", url, public) for i in range(args.workers)
            ]
            stalled: list[str] = []
            started = time.monotonic()
            try:
                for bot in workers:
                    await bot.start()
                say(f"{len(workers)} workers up; seating {args.groups} groups")
                seating = zip(groups, people, strict=True)
                await asyncio.gather(*(seat_everybody(fake, g, p, stalled) for g, p in seating))
                playing = [
                    asyncio.ensure_future(drive(fake, g, p if i % 2 else p[:1], args.seed + i))
                    for i, (g, p) in enumerate(zip(groups, people, strict=True))
                ]
                await asyncio.sleep(4)
                sender = next(i for i, bot in enumerate(workers) if held_shards(bot.log))
                orphans, logs_at_kill = (
                    held_shards(workers[sender].log),
                    [len(b.log) for b in workers],
                )
                if len(workers) > 1:
                    say(f"killing worker {sender}, the sender of shards {sorted(orphans)}")
                    await workers[sender].stop(signal.SIGKILL)
                    fake.balanced.remove(fake.balanced[sender])  # the balancer's health check
                await asyncio.sleep(2)
                if len(workers) > 2:
                    again = (sender + 1) % len(workers)
                    say(f"restarting worker {again}")
                    await workers[again].stop()
                    await workers[again].start()
                _, late = await asyncio.wait(playing, timeout=GAME_SECONDS)
                for task in late:
                    task.cancel()
            finally:
                for bot in workers:
                    if bot.process is not None:
                        await bot.stop()
            took = time.monotonic() - started
            taken = set().union(
                *(held_shards(b.log[at:]) for b, at in zip(workers, logs_at_kill, strict=True))
            )
            return report(args, fake, groups, workers, stalled, took, orphans <= taken)


def report(
    args: argparse.Namespace,
    fake: FakeTelegram,
    groups: list[Chat],
    workers: list[BotProcess],
    stalled: list[str],
    seconds: float,
    replaced: bool,
) -> dict[str, Any]:
    folder = workers[0].folder
    finished = replayed = rounds_told = rounds_stored = told_once = ends_told = 0
    miscounted: dict[str, list[int]] = {}  # a group told its rounds not once: [told, stored]
    for group in groups:
        (game,) = games_in(folder, group.id)
        finished += game["status"] == "finished"
        replayed += stored_state(folder, game["id"]) == replay_game(folder, game["id"])
        stored = query(folder, "SELECT COUNT(*) FROM round_results WHERE game_id = ?", game["id"])
        messages = bot_messages(fake, group)
        told = sum(ROUND_RESULT in (m.content or "") for m in messages)
        rounds_stored += stored[0][0]
        rounds_told += told
        told_once += told == stored[0][0]
        if told != stored[0][0]:
            miscounted[group.title or str(group.id)] = [told, stored[0][0]]
        ends_told += sum((m.content or "").startswith(GAME_OVER) for m in messages) == 1
    refused = [c for c in fake.calls if c.status not in (None, 200)]
    tracebacks = sum(bot.log.count("Traceback") for bot in workers)
    for number, bot in enumerate(workers):  # what went wrong, to read beside the figures
        for found in re.finditer(r"\n[^\n]*\nTraceback.*?(?=\n\d{4}-\d\d-\d\d |\Z)", bot.log, re.S):
            say(f"worker {number}:{found.group()}")
    result = {
        "workers": args.workers,
        "groups": args.groups,
        "finished": finished,
        "replayed": replayed,
        "rounds_told": rounds_told,
        "rounds_stored": rounds_stored,
        "groups_told_each_round_once": told_once,
        "miscounted": miscounted,
        "ends_told": ends_told,
        "unanswered": len(fake.unanswered_queries()),
        "stalled_joins": len(stalled),
        "refused": len(refused),
        "refused_by_reason": dict(Counter(f"{c.method}: {c.description}" for c in refused)),
        "tracebacks": tracebacks,
        "sender_replaced": replaced,
        "seconds": round(seconds, 1),
    }
    everything = args.groups
    result["ok"] = (
        finished == replayed == ends_told == told_once == everything
        and not refused
        and not stalled
        and not tracebacks
        and (result["sender_replaced"] or args.workers == 1)
    )
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--groups", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", metavar="URL", help="a PostgreSQL server to use")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args)), ensure_ascii=False))


if __name__ == "__main__":
    main()
