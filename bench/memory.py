"""Memory: how big is the bot process after start, and after 100 short games of every kind?

    python bench/memory.py [--games 100] [--source DIR] [--seed 1]

One real bot process (`python -m bot`, PACING=false, COMPUTER_PACE_SECONDS=0) against the
fake Bot API on 127.0.0.1 (flood limits off), its code from `--source` (another checkout,
e.g. `git archive fe484da | tar -x -C /tmp/before`, so before and after are measured in one
sitting; the driver's own code is always this checkout's). One group plays `--games` short
games one after another, every preset in turn (`GAMES`: the room with 10 seats and the
double-twelve set), each with one person — played here, pressing a random legal button —
and computers in the other seats (a game needs a person).

The bot's memory is read from /proc/<pid>: VmRSS and RssAnon from `status`, Pss and the
private pages (USS) from `smaps_rollup`, each once the bot has sent nothing for a second:
after start, after the first game, after the 50th and after the last; `peak_mb` is VmHWM.

Prints progress to stderr and, as its last line, JSON {"after_start_mb", "after_1_mb",
"after_50_mb", "after_100_mb", "growth_50_100_mb", "peak_mb", …} (the keys after games 50
and 100 are named after the games actually read: the half and the whole of `--games`), the
goals and `met`: at most `AFTER_100_GOAL_MB` after the last game and at most
`GROWTH_GOAL_MB` from the half to the last (the start's goal, today's figure + 10 MB, needs
today's figure: run with `--source` on today's checkout too).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

# this file is called like a package of the repository: look packages up from its root
ROOT = Path(__file__).resolve().parents[1]
sys.path[0] = str(ROOT)

from bench.load import (  # noqa: E402
    DEALING,
    GAME_OVER,
    JOIN,
    LOBBY,
    START,
    YOUR_TURN,
    LoadFake,
    callback_data,
    end_buttons,
    legal_buttons,
    newest_bot_message,
    say,
    seated,
    sits,
)
from bench.soak import (  # noqa: E402
    COMPUTER,
    JOINED,
    PROBE_DIR,
    STEP_TIMEOUT,
    TURN_WAIT,
    Group,
    SoakBot,
    Tally,
    bench_rss_mb,
    settle,
    trim_fake,
)
from bot.playground import FloodLimits, Message, User  # noqa: E402
from bot.telegram.buttons import BuildAct, DoublesButton  # noqa: E402
from tests.e2e.process import bot_env  # noqa: E402
from tests.e2e.stored import DB_NAME  # noqa: E402

SHORT = "turn_timeout=0 target=1"
GAMES: tuple[tuple[str, int], ...] = (
    (f"goat {SHORT} open_threshold=0", 4),
    (f"goat_teams {SHORT} open_threshold=0", 4),
    (f"sea_goat {SHORT}", 2),
    (f"classic {SHORT}", 4),
    (f"donkey {SHORT} open_threshold=0", 4),
    (f"telephone {SHORT}", 4),
    (f"muggins {SHORT}", 4),
    (f"bykovo {SHORT}", 4),
    (f"general {SHORT} minutes=1", 4),
    (f"room {SHORT} max_pip=12", 10),
    (f"fives_threes {SHORT}", 4),
)
"""`/newgame` options and seats of each game in turn: the first scoring ends a game (target=1,
Козёл's losers scoring from their first point, the general's clock at one minute)."""
MAX_PRESSES = 3000
"""A game with more presses than this is given up: the general's one-minute match, its
computers moving at once, takes some hundreds."""
AFTER_100_GOAL_MB = 300.0
GROWTH_GOAL_MB = 10.0


class MemoryBot(SoakBot):
    """The soak's bot, computers at once, its code from `source`."""

    def __init__(
        self, fake: LoadFake, folder: Path, log_level: str, source: Path, probe: bool
    ) -> None:
        super().__init__(fake, folder, log_level, pace=0.0, probe=probe)
        self.source = source

    def env(self) -> dict[str, str]:
        env = bot_env(self.fake, self.folder / DB_NAME, self.log_level, source=self.source)
        env["COMPUTER_PACE_SECONDS"] = "0"
        env["BACKUP_EVERY_MINUTES"] = "0"
        if self.probe_file is not None:
            env["PYTHONPATH"] = f"{PROBE_DIR}{os.pathsep}{env['PYTHONPATH']}"
            env["SOAK_PROBE_FILE"] = str(self.probe_file)
        return env

    def memory(self) -> dict[str, float]:
        """RSS, anonymous RSS and the peak from `status`, Pss and USS from `smaps_rollup`."""
        status = self.status()
        rollup: dict[str, int] = {}
        for line in Path(f"/proc/{self.pid}/smaps_rollup").read_text().splitlines()[1:]:
            key, _, value = line.partition(":")
            rollup[key] = int(value.split()[0])
        private = rollup["Private_Clean"] + rollup["Private_Dirty"]
        return {
            "rss_mb": status["rss_mb"],
            "rss_anon_mb": status["rss_anon_mb"],
            "pss_mb": round(rollup["Pss"] / 1024, 1),
            "uss_mb": round(private / 1024, 1),
            "hwm_mb": status["hwm_mb"],
        }


class Table(Group):
    """A group whose first person plays game after game with computers."""

    async def play(self, options: str, seats: int) -> None:
        fake, person = self.fake, self.people[0]
        self.tally.started += 1
        newest = self.chat.next_message_id - 1
        fake.user_sends(person, self.chat, f"/newgame {options}")
        lobby = await self.watch.until(lambda: self._newest(LOBBY, newest), STEP_TIMEOUT)
        start = fake.follow_link(person, fake.user_presses(person, lobby, JOIN))
        await self.watch.until(partial(sits, lobby, person), STEP_TIMEOUT)
        reply = await self.watch.until(partial(self._reply, person, start), STEP_TIMEOUT)
        if JOINED not in (reply.content or ""):
            raise RuntimeError(f"the link answered {reply.content!r}")
        for taken in range(2, seats + 1):
            answer = await self._answer(fake.user_presses(person, lobby, COMPUTER))
            if answer.show_alert:
                raise RuntimeError(f"«{COMPUTER}» answered {answer.text!r}")
            await self.watch.until(partial(seats_taken, lobby, taken), STEP_TIMEOUT)
        answer = await self._answer(fake.user_presses(person, lobby, START))
        if answer.text != DEALING:
            raise RuntimeError(f"«{START}» answered {answer.text!r}")
        await self._moves(person, lobby, start)

    async def _moves(self, person: User, lobby: Message, start: Message) -> None:
        """At each turn press a random legal button of the hand, and go on through what it
        asks (an end, the doubles to put down, open or closed), until the game is over."""
        private = self.fake.private(person)
        pressed: tuple[str, ...] = ()

        def next_step() -> Message | None:
            over = next(
                (
                    m
                    for m in reversed(private.messages.values())
                    if m.message_id > start.message_id
                    and m.from_bot
                    and (m.content or "").startswith(GAME_OVER)
                ),
                None,
            ) or self._newest(GAME_OVER, lobby.message_id, start=True)  # a hand never came
            hand = newest_bot_message(private)
            if over is not None or hand is None or YOUR_TURN not in (hand.content or ""):
                return over
            return hand if keyboard(hand) != pressed else None

        for _ in range(MAX_PRESSES):
            step = await self.watch.until(next_step, TURN_WAIT)
            if (step.content or "").startswith(GAME_OVER):
                self.tally.finished += 1
                return
            pressed, choices = keyboard(step), choices_of(step)
            if not choices:
                raise RuntimeError(f"nothing to press on {step.content!r}")
            query = self.fake.user_presses(person, step, self.rng.choice(choices))
            answer = await self._answer(query)
            self.tally.moves += not answer.show_alert
            self.tally.rejected += answer.show_alert
        raise RuntimeError(f"no «{GAME_OVER}» after {MAX_PRESSES} presses")

    def last_seen(self) -> str:
        """The newest bot message of the group and of the person's private chat."""
        chats = (self.chat, self.fake.private(self.people[0]))
        newest = (newest_bot_message(chat) for chat in chats)
        return " | ".join(repr((m.content or "")[:200]) for m in newest if m is not None)


def seats_taken(lobby: Message, seats: int) -> bool:
    return len(seated(lobby)) == seats


def keyboard(hand: Message) -> tuple[str, ...]:
    return tuple(data for _, data in callback_data(hand))


def choices_of(hand: Message) -> list[str]:
    """The buttons a move goes on with: among the tiles, the legal ones (and «doubles»);
    while the hand asks, «done» if it is there, else a double, an arm or a face, else an
    end."""
    build = [data for data in keyboard(hand) if data.startswith(DoublesButton.__prefix__)]
    tiles = legal_buttons(hand)
    if tiles:
        return tiles + build
    done = [data for data in build if DoublesButton.unpack(data).act is BuildAct.DONE]
    return done or build or end_buttons(hand)


async def reading(fake: LoadFake, bot: MemoryBot, games: int) -> dict[str, Any]:
    """The bot's memory once it has settled (and what the probe saw, with `--probe`)."""
    await settle(fake)
    trim_fake(fake)
    figures: dict[str, Any] = dict(bot.memory())
    probe = await bot.look_inside()
    if probe is not None:
        caches = {k: v for k, v in probe["containers"].items() if k.startswith("render")}
        figures |= {"image_mb": probe["image_mb"], "malloc_mb": probe["malloc"], "caches": caches}
    say(f"after {games} games: {json.dumps(figures)}")
    return figures


async def run(args: argparse.Namespace) -> dict[str, Any]:
    half = max(1, args.games // 2)
    read_after = {1, half, args.games}
    readings: dict[int, dict[str, Any]] = {}
    tally = Tally()
    started = time.monotonic()
    failed: list[str] = []
    with tempfile.TemporaryDirectory(prefix="kozel-memory-") as folder:
        async with LoadFake(FloodLimits(), decode_photos=False) as fake:
            bot = MemoryBot(fake, Path(folder), args.log_level, args.source, args.probe)
            await bot.start()
            try:
                readings[0] = await reading(fake, bot, 0)
                table = Table(fake, tally, 0, group_args(args))
                for number in range(1, args.games + 1):
                    options, seats = args.formats[(number - 1) % len(args.formats)]
                    try:
                        await table.play(options, seats)
                    except (TimeoutError, RuntimeError, LookupError) as error:
                        failed.append(f"game {number} ({options}): {type(error).__name__} {error}")
                        failed[-1] += f" — last seen: {table.last_seen()}"
                        say(failed[-1])
                        await table.end_stuck_game()
                    if bot.process is None or bot.process.returncode is not None:
                        failed.append("the bot process ended:\n" + "".join(bot.tail)[-3000:])
                        break
                    if number in read_after:
                        readings[number] = await reading(fake, bot, number)
                    elif number % 10 == 0:
                        trim_fake(fake)
                        say(f"{number} games, RSS {bot.memory()['rss_mb']} MB")
            finally:
                await bot.stop()
    return report(args, readings, half, tally, failed, bot, time.monotonic() - started)


def group_args(args: argparse.Namespace) -> argparse.Namespace:
    """What `Group` reads of the soak's arguments."""
    return argparse.Namespace(computer_share=1.0, hand_size=0, fresh_chats=False, seed=args.seed)


def report(
    args: argparse.Namespace,
    readings: dict[int, dict[str, Any]],
    half: int,
    tally: Tally,
    failed: list[str],
    bot: MemoryBot,
    seconds: float,
) -> dict[str, Any]:
    def rss(games: int) -> float | None:
        return readings[games]["rss_mb"] if games in readings else None

    first, middle, last = rss(0), rss(half), rss(args.games)
    growth = round(last - middle, 1) if last is not None and middle is not None else None
    peak = max((r["hwm_mb"] for r in readings.values()), default=None)
    met = (
        not failed
        and last is not None
        and growth is not None
        and last <= AFTER_100_GOAL_MB
        and growth <= GROWTH_GOAL_MB
    )
    return {
        "after_start_mb": first,
        "after_1_mb": rss(1),
        f"after_{half}_mb": middle,
        f"after_{args.games}_mb": last,
        f"growth_{half}_{args.games}_mb": growth,
        "peak_mb": peak,
        "readings": {str(games): figures for games, figures in readings.items()},
        "games": tally.finished,
        "moves": tally.moves,
        "rejected_presses": tally.rejected,
        "failed": failed,
        "bot_errors": bot.errors,
        "bot_first_error": bot.first_error or None,
        "source": str(args.source),
        "formats": [options for options, _ in args.formats],
        "seconds": round(seconds, 1),
        "bench_rss_mb": bench_rss_mb(),
        "after_games_goal_mb": AFTER_100_GOAL_MB,
        "growth_goal_mb": GROWTH_GOAL_MB,
        "met": met,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument(
        "--source", type=Path, default=ROOT, help="the checkout whose bot is measured"
    )
    parser.add_argument(
        "--formats", help="comma-separated presets to play in turn (by default every one)"
    )
    parser.add_argument("--seed", type=int, default=1, help="the person's random presses")
    parser.add_argument(
        "--probe",
        action="store_true",
        help="also the pixels of live pictures, malloc's figures and the render caches' sizes",
    )
    parser.add_argument("--log-level", default="WARNING", help="the bot's LOG_LEVEL")
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be positive")
    if not (args.source / "bot" / "__main__.py").exists():
        parser.error(f"--source {args.source} holds no bot")
    args.source = args.source.resolve()
    wanted = args.formats.split(",") if args.formats else [g[0].split()[0] for g in GAMES]
    args.formats = [g for name in wanted for g in GAMES if g[0].split()[0] == name]
    if len(args.formats) != len(wanted):
        parser.error(f"--formats: choose from {', '.join(g[0].split()[0] for g in GAMES)}")
    print(json.dumps(asyncio.run(run(args)), ensure_ascii=False))


if __name__ == "__main__":
    main()
