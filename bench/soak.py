"""Soak: does the bot process's memory grow with the number of games it has played?

    python bench/soak.py [--games 1000] [--every 100] [--groups 12] [--hand-size 4]
                         [--computer-share 0.5] [--fresh-chats] [--seed 1]

One real bot process (`python -m bot`, PACING=false, COMPUTER_PACE_SECONDS=0.01,
BACKUP_EVERY_MINUTES=0) against the fake Bot API on 127.0.0.1 (flood limits off).
`--groups` groups of two people play short games in parallel, one after another, until
`--games` games have ended. Each game is `/newgame turn_timeout=0 target=1
open_threshold=0 hand_size=4` (untimed; the first round in which a loser scores ends it;
`--hand-size 0` deals the rules' 7, about twice as slow), with either both people seated
through the lobby's deep link or one person and a «🤖 +новичок» computer
(`--computer-share` of the games). The person to move presses a random legal button of
their hand (a random end when asked). With `--fresh-chats` every game is played in a new
group by two new people, so what the bot keeps per chat or per user shows too.

Every `--every` games (and at the end) the groups finish the games they are in and start
no new one, the bot is left to settle (nothing sent for a second), and the bot's memory is
read from /proc/<pid>/status (VmRSS, RssAnon, threads, open files). Unless `--no-probe`,
the bot also writes, on SIGUSR1, live objects per type, the lengths of the containers and
caches its own objects and modules hold, glibc's malloc statistics and the pixels held by
live PIL images (bench/soak_probe/sitecustomize.py, put on the bot's PYTHONPATH); the
report names what grew between the first and the last checkpoint (`--probe-out` keeps
every probe line).

Stops by itself: every wait has a timeout, a game has at most `MAX_MOVES` presses and the
whole run at most `--max-seconds`. Prints progress to stderr and, as its last line, JSON
{"games", "rss_mb_at_100", "rss_mb_at_1000", "growth_pct", "seconds", "ok", "samples", …}:
the two RSS keys are named after the first and the last checkpoint, and growth is from the
first to the last (`ok`: at most 10 %, every game played, the bot alive).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
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
    PICK_END,
    START,
    YOUR_TURN,
    BotRun,
    LoadFake,
    Watch,
    end_buttons,
    legal_buttons,
    newest_bot_message,
    say,
    seated,
    sits,
    version_of,
)
from bot.playground import (  # noqa: E402
    CallbackAnswer,
    Chat,
    FloodLimits,
    Message,
    User,
)
from tests.e2e.process import bot_env  # noqa: E402
from tests.e2e.stored import DB_NAME  # noqa: E402

OPTIONS = "turn_timeout=0 target=1 open_threshold=0"
COMPUTER = "🤖 +новичок"
END_YES = "Да, закончить"
JOINED = "Вы за столом"  # the bot's answer to the lobby's link (/start j<token>)
PROBE_DIR = Path(__file__).resolve().parent / "soak_probe"

STEP_TIMEOUT = 60.0  # a lobby step or an answer that takes longer fails the game
TURN_WAIT = 60.0  # no turn and no game over for this long: the game is stalled
MAX_MOVES = 400  # a game with more presses than this is given up (never expected)
SETTLE_QUIET = 1.0  # a checkpoint waits until the bot has sent nothing for this long…
SETTLE_MAX = 30.0  # … but no longer than this
PROBE_WAIT = 60.0
PROGRESS_SECONDS = 15.0


# -- the bot process --------------------------------------------------------------------


class SoakBot(BotRun):
    """`python -m bot` without flood pacing, computers at `pace`, and (with `probe`) the
    probe of bench/soak_probe on its path."""

    def __init__(self, fake: LoadFake, folder: Path, log_level: str, pace: float, probe: bool):
        super().__init__(fake, folder, log_level)
        self.pace = pace
        self.probe_file = folder / "probe.jsonl" if probe else None
        self.cpu_seconds_at_end = 0.0

    def env(self) -> dict[str, str]:
        env = bot_env(self.fake, self.folder / DB_NAME, self.log_level, pacing=False)
        env["COMPUTER_PACE_SECONDS"] = str(self.pace)
        env["BACKUP_EVERY_MINUTES"] = "0"  # only before a migration: no copies mid-run
        if self.probe_file is not None:
            env["PYTHONPATH"] = f"{PROBE_DIR}{os.pathsep}{env['PYTHONPATH']}"
            env["SOAK_PROBE_FILE"] = str(self.probe_file)
        return env

    def status(self) -> dict[str, Any]:
        """Memory figures of the bot process from /proc (kB → MB)."""
        fields: dict[str, str] = {}
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            fields[key] = value.strip()

        def mb(key: str) -> float:
            return round(int(fields[key].split()[0]) / 1024, 1)

        return {
            "rss_mb": mb("VmRSS"),
            "rss_anon_mb": mb("RssAnon"),
            "rss_file_mb": mb("RssFile"),
            "hwm_mb": mb("VmHWM"),
            "threads": int(fields["Threads"]),
            "fds": len(os.listdir(f"/proc/{self.pid}/fd")),
        }

    async def look_inside(self) -> dict[str, Any] | None:
        """Ask the probe for one line (SIGUSR1) and return it; None without a probe."""
        if self.probe_file is None or self.process is None or self.process.returncode is not None:
            return None
        before = self.probe_file.read_text().count("\n") if self.probe_file.exists() else 0
        self.process.send_signal(signal.SIGUSR1)
        deadline = time.monotonic() + PROBE_WAIT
        while time.monotonic() < deadline:
            await asyncio.sleep(0.2)
            if self.probe_file.exists():
                lines = self.probe_file.read_text().splitlines()
                if len(lines) > before:
                    probe: dict[str, Any] = json.loads(lines[-1])
                    if "error" in probe:
                        say(f"the bot's probe failed: {probe['error']}")
                        return None
                    return probe
            if self.process.returncode is not None:
                break
        say("the bot's probe did not answer")
        return None


# -- the groups --------------------------------------------------------------------------


@dataclass
class Tally:
    started: int = 0
    finished: int = 0
    computer_games: int = 0
    moves: int = 0
    rejected: int = 0
    failed: list[str] = field(default_factory=list)


class Group:
    """Two people in a group who play one short game after another."""

    def __init__(self, fake: LoadFake, tally: Tally, index: int, args: argparse.Namespace):
        self.fake = fake
        self.tally = tally
        self.index = index
        self.share = args.computer_share
        self.options = OPTIONS + (f" hand_size={args.hand_size}" if args.hand_size else "")
        self.fresh = args.fresh_chats
        self.played = 0
        self.rng = random.Random(args.seed * 1_000_003 + index)
        self.watch = Watch()
        self.people: list[User] = []
        self.chat = self.new_chat()

    def new_chat(self) -> Chat:
        """A new group of two new people (the old ones are no longer watched)."""
        if self.people:
            for chat_id in (self.chat.id, *(user.id for user in self.people)):
                self.fake.watches.pop(chat_id, None)
        number = len(self.fake.chats)
        self.people = [
            self.fake.add_user(f"Игрок{number}-{seat}", language_code="ru") for seat in range(2)
        ]
        self.chat = self.fake.add_group(f"Двор {number}", self.people)
        for chat_id in (self.chat.id, *(user.id for user in self.people)):
            self.fake.watches[chat_id] = self.watch
        return self.chat

    # -- what the chats show -------------------------------------------------------------

    def _newest(self, text: str, newer_than: int, start: bool = False) -> Message | None:
        """The bot's newest group message (newer than message `newer_than`) with `text` in
        it (at its start, with `start`)."""
        for message in reversed(self.chat.messages.values()):
            if message.message_id <= newer_than:
                return None
            content = message.content or ""
            if message.from_bot and (content.startswith(text) if start else text in content):
                return message
        return None

    def _reply(self, user: User, start: Message) -> Message | None:
        """The bot's first message in `user`'s private chat after their /start `start`."""
        for message in self.fake.private(user).messages.values():
            if message.message_id > start.message_id and message.from_bot and not message.service:
                return message
        return None

    def _turn(self, people: list[User], after: int) -> tuple[User, Message] | None:
        for user in people:
            hand = newest_bot_message(self.fake.private(user))
            if hand is not None and YOUR_TURN in (hand.content or "") and version_of(hand) > after:
                return user, hand
        return None

    async def _answer(self, query_id: str) -> CallbackAnswer:
        answer: CallbackAnswer = await self.watch.until(
            lambda: self.fake.answer_for(query_id), STEP_TIMEOUT
        )
        return answer

    # -- a game --------------------------------------------------------------------------

    async def play_until(self, claim: Claim) -> None:
        """Play games while `claim` hands out game numbers."""
        while claim.take():
            computer = self.rng.random() < self.share
            if self.fresh and self.played:
                self.new_chat()
            self.played += 1
            try:
                await self.play_game(computer)
            except (TimeoutError, RuntimeError, LookupError) as error:
                what = f"group {self.index}: {type(error).__name__} {error}"
                self.tally.failed.append(what)
                say(f"game failed: {what}")
                await self.end_stuck_game()

    async def play_game(self, computer: bool) -> None:
        fake, creator = self.fake, self.people[0]
        people = self.people[:1] if computer else self.people
        self.tally.started += 1
        self.tally.computer_games += computer
        newest = self.chat.next_message_id - 1
        fake.user_sends(creator, self.chat, f"/newgame {self.options}")
        lobby = await self.watch.until(lambda: self._newest(LOBBY, newest), STEP_TIMEOUT)
        for user in people:
            url = fake.user_presses(user, lobby, JOIN)
            start = fake.follow_link(user, url)
            await self.watch.until(partial(sits, lobby, user), STEP_TIMEOUT)
            # the creator sits from /newgame on, so the lobby names them before the bot has
            # read their /start: wait for its answer too, or «▶ Начать» overtakes it and the
            # answer («Игра уже началась.») lands below the hand, where _turn does not look
            reply = await self.watch.until(partial(self._reply, user, start), STEP_TIMEOUT)
            if JOINED not in (reply.content or ""):
                raise RuntimeError(f"the link answered {reply.content!r}")
        if computer:
            answer = await self._answer(fake.user_presses(creator, lobby, COMPUTER))
            if answer.show_alert:
                raise RuntimeError(f"«{COMPUTER}» answered {answer.text!r}")
            await self.watch.until(lambda: len(seated(lobby)) == 2, STEP_TIMEOUT)
        answer = await self._answer(fake.user_presses(creator, lobby, START))
        if answer.text != DEALING:
            raise RuntimeError(f"«{START}» answered {answer.text!r}")
        after = -1

        def next_step() -> tuple[User, Message] | Message | None:
            return self._newest(GAME_OVER, lobby.message_id, start=True) or self._turn(
                people, after
            )

        for _ in range(MAX_MOVES):
            step = await self.watch.until(next_step, TURN_WAIT)
            if isinstance(step, Message):
                self.tally.finished += 1
                return
            assert isinstance(step, tuple)
            mover, hand = step
            version, choices = version_of(hand), legal_buttons(hand)
            after = version
            if not choices:
                self.tally.rejected += 1
                continue
            answer = await self._answer(fake.user_presses(mover, hand, self.rng.choice(choices)))
            if answer.text == PICK_END and not answer.show_alert:
                ends = await self.watch.until(partial(end_buttons, hand), STEP_TIMEOUT)
                answer = await self._answer(fake.user_presses(mover, hand, self.rng.choice(ends)))
            if answer.show_alert:
                self.tally.rejected += 1
            else:
                self.tally.moves += 1
        raise RuntimeError(f"no «{GAME_OVER}» after {MAX_MOVES} moves")

    async def end_stuck_game(self) -> None:
        """A failed game must not stay open in the bot (it would hold memory): /endgame,
        confirmed, best effort."""
        creator = self.people[0]
        newest = self.chat.next_message_id - 1
        self.fake.user_sends(creator, self.chat, "/endgame")
        try:
            reply = await self.watch.until(
                lambda: next(
                    (
                        m
                        for m in reversed(self.chat.messages.values())
                        if m.message_id > newest and m.from_bot and m.reply_markup
                    ),
                    None,
                ),
                10,
            )
            await self._answer(self.fake.user_presses(creator, reply, END_YES))
        except (TimeoutError, LookupError):
            pass


class Claim:
    """Game numbers handed out to the groups up to the current checkpoint."""

    def __init__(self) -> None:
        self.taken = 0
        self.limit = 0
        self.started = time.monotonic()

    def take(self) -> bool:
        if self.taken >= self.limit:
            return False
        self.taken += 1
        return True


# -- the run -------------------------------------------------------------------------------


async def settle(fake: LoadFake) -> None:
    """Until the bot has sent nothing (but polls) for SETTLE_QUIET s, at most SETTLE_MAX."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + SETTLE_MAX
    seen, quiet_since = len(fake.calls), loop.time()
    while loop.time() < deadline:
        await asyncio.sleep(0.1)
        sent = sum(1 for c in fake.calls[seen:] if c.method.lower() != "getupdates")
        seen = len(fake.calls)
        if sent or fake.pending_updates:
            quiet_since = loop.time()
        elif loop.time() - quiet_since >= SETTLE_QUIET:
            return


def trim_fake(fake: LoadFake) -> None:
    """Forget what the benchmark no longer needs, so the bench process stays small: the
    call log, answered presses, and the bytes of the pictures sent so far (their sizes and
    ids stay: the bot may send one again by file_id, nobody downloads one here)."""
    fake.calls[:] = fake.calls[-100:]
    for photo in fake._files.values():  # the fake keeps every upload: ~1 MB a game
        photo.data = b""
    answered = [q for q, query in fake.callback_queries.items() if query.answer is not None]
    for query_id in answered:
        del fake.callback_queries[query_id]
    fake.delivered.clear()
    fake.answered.clear()


def grown(first: dict[str, int], last: dict[str, int], top: int = 15) -> dict[str, int]:
    """The `top` largest increases from `first` to `last`."""
    deltas = Counter({k: v - first.get(k, 0) for k, v in last.items()})
    return {k: v for k, v in deltas.most_common(top) if v > 0}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    checkpoints = sorted({*range(args.every, args.games, args.every), args.games})
    tally = Tally()
    samples: list[dict[str, Any]] = []
    probes: list[tuple[int, dict[str, Any]]] = []
    started = time.monotonic()
    budget_end = started + args.max_seconds
    completed = True
    with tempfile.TemporaryDirectory(prefix="kozel-soak-") as folder:
        async with LoadFake(FloodLimits(), decode_photos=False) as fake:
            bot = SoakBot(fake, Path(folder), args.log_level, args.pace, args.probe)
            try:
                await bot.start()
                say(f"bot started (pid {bot.pid}): {bot.status()}")
                groups = [Group(fake, tally, i, args) for i in range(args.groups)]
                claim = Claim()
                for checkpoint in checkpoints:
                    claim.limit = checkpoint
                    ended = await play_phase(groups, claim, bot, budget_end)
                    if ended:
                        completed = False
                        say(ended)
                    if bot.process is None or bot.process.returncode is not None:
                        say("the bot's last log lines:\n" + "".join(bot.tail)[-3000:])
                        break
                    await settle(fake)
                    seconds = round(time.monotonic() - started, 1)
                    sample: dict[str, Any] = {"games": tally.finished, "seconds": seconds}
                    sample |= bot.status()
                    probe = await bot.look_inside()
                    if probe is not None:
                        sample |= {
                            "objects": probe["objects"],
                            "tasks": probe["tasks"],
                            "blocks": probe["blocks"],
                            "malloc_mb": probe.get("malloc"),
                            "image_mb": probe.get("image_mb"),
                        }
                        probes.append((tally.finished, probe))
                    samples.append(sample)
                    trim_fake(fake)
                    say(f"checkpoint: {json.dumps(sample)}")
                    if not completed:
                        break
            finally:
                with contextlib.suppress(OSError, AssertionError):
                    bot.cpu_seconds_at_end = bot.cpu_seconds()
                await bot.stop()
                if args.probe_out and bot.probe_file is not None and bot.probe_file.exists():
                    shutil.copyfile(bot.probe_file, args.probe_out)
    return report(args, tally, samples, probes, bot, time.monotonic() - started, completed)


async def play_phase(groups: list[Group], claim: Claim, bot: SoakBot, budget_end: float) -> str:
    """The groups play until `claim` runs out; a reason when they were stopped early (the
    bot process ended, or the run's time is up), else ""."""
    assert bot.process is not None
    players: asyncio.Future[Any] = asyncio.ensure_future(
        asyncio.gather(*(g.play_until(claim) for g in groups))
    )
    exited: asyncio.Future[Any] = asyncio.ensure_future(bot.process.wait())
    reporter = asyncio.ensure_future(report_progress(groups[0].tally, bot, claim.started))
    try:
        done, _ = await asyncio.wait(
            {players, exited},
            timeout=max(1.0, budget_end - time.monotonic()),
            return_when=asyncio.FIRST_COMPLETED,
        )
        if players in done:
            players.result()  # a bug in the benchmark itself is raised here
            return ""
        return "the bot process ended" if exited in done else "--max-seconds reached"
    finally:
        for task in (players, exited, reporter):
            task.cancel()
        await asyncio.gather(players, exited, reporter, return_exceptions=True)


async def report_progress(tally: Tally, bot: SoakBot, started: float) -> None:
    while True:
        await asyncio.sleep(PROGRESS_SECONDS)
        say(
            f"{time.monotonic() - started:6.0f} s: {tally.finished} games ended, "
            f"{tally.moves} moves, bot RSS {bot.status()['rss_mb']} MB, "
            f"bot CPU {bot.cpu_seconds():.0f} s"
        )


def report(
    args: argparse.Namespace,
    tally: Tally,
    samples: list[dict[str, Any]],
    probes: list[tuple[int, dict[str, Any]]],
    bot: SoakBot,
    seconds: float,
    completed: bool,
) -> dict[str, Any]:
    first = samples[0] if samples else {}
    last = samples[-1] if samples else {}
    base, end = first.get("rss_mb"), last.get("rss_mb")
    growth = round((end - base) / base * 100, 1) if base and end else None
    result: dict[str, Any] = {
        "games": tally.finished,
        f"rss_mb_at_{first.get('games', args.every)}": base,
        f"rss_mb_at_{last.get('games', args.games)}": end,
        "growth_pct": growth,
        "growth_pct_last_half": late_growth(samples),
        "seconds": round(seconds, 1),
        "rss_anon_mb_first_last": [first.get("rss_anon_mb"), last.get("rss_anon_mb")],
        "hwm_mb": last.get("hwm_mb"),
        "target_pct": 10,
        "ok": completed and growth is not None and growth <= 10 and not tally.failed,
        "completed": completed,
        "groups": args.groups,
        "options": OPTIONS + (f" hand_size={args.hand_size}" if args.hand_size else ""),
        "fresh_chats": args.fresh_chats,
        "computer_games": tally.computer_games,
        "moves": tally.moves,
        "rejected_presses": tally.rejected,
        "failed_games": len(tally.failed),
        "first_failure": tally.failed[0] if tally.failed else None,
        "bot_errors": bot.errors,
        "bot_first_error": bot.first_error or None,
        "bot_cpu_s": round(bot.cpu_seconds_at_end, 1),
        "bench_cpu_s": round(time.process_time(), 1),
        "bench_rss_mb": bench_rss_mb(),
        "samples": samples,
    }
    if len(probes) >= 2:
        (_, p0), (_, p1) = probes[0], probes[-1]
        result["grown_types"] = grown(p0["types"], p1["types"])
        result["grown_containers"] = grown(p0["containers"], p1["containers"])
        result["largest_containers"] = dict(Counter(p1["containers"]).most_common(10))
        result["container_trend"] = {
            key: [p["containers"].get(key, 0) for _, p in probes]
            for key in result["grown_containers"]
        }
    return result


def late_growth(samples: list[dict[str, Any]]) -> float | None:
    """RSS growth (%) from the checkpoint halfway through to the last: once the caches and
    malloc's heaps are warm, a leak still shows here, warm-up no longer does."""
    if len(samples) < 3:
        return None
    middle: float = samples[(len(samples) - 1) // 2]["rss_mb"]
    last: float = samples[-1]["rss_mb"]
    return round((last - middle) / middle * 100, 1)


def bench_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--every", type=int, default=100, help="games between memory readings")
    parser.add_argument("--groups", type=int, default=12, help="groups playing at once")
    parser.add_argument(
        "--computer-share", type=float, default=0.5, help="games of a person and a computer"
    )
    parser.add_argument(
        "--hand-size", type=int, default=4, help="tiles dealt to each (0: the rules' 7)"
    )
    parser.add_argument("--pace", type=float, default=0.01, help="COMPUTER_PACE_SECONDS")
    parser.add_argument(
        "--fresh-chats",
        action="store_true",
        help="every game in a new group of new people (per-chat memory grows too)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-seconds", type=float, default=1800.0, help="stop after this")
    parser.add_argument("--log-level", default="WARNING", help="the bot's LOG_LEVEL")
    parser.add_argument(
        "--no-probe", dest="probe", action="store_false", help="no object counts from the bot"
    )
    parser.add_argument("--probe-out", help="keep the probe's JSON lines in this file")
    args = parser.parse_args()
    if args.games < 1 or args.every < 1:
        parser.error("--games and --every must be positive")
    result = asyncio.run(run(args))
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
