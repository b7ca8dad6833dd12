"""Load: the real bot process against the fake Bot API, G groups of N people playing.

    python bench/load.py --groups 300 --seconds 60 [--think 2.0] [--seed 1] [--players 4]
                         [--app SHARE] [--no-flood] [--database postgresql://USER@HOST:PORT/DB]
                         [--reviews N [--review-players 4] [--review-target 101]]

Set-up (not measured, flood control off): G groups of `--players` users (4 by default);
each group opens a lobby with `/newgame turn_timeout=0 target=10000` (no turn clocks,
games that do not end; see `--target`; more than 4 players play the game room,
`/newgame room …`, double-9), every
player sits down through the lobby's deep link (which opens the bot for them) and the
creator presses «Начать». Then, with the fake's flood limits on, for `--seconds` the
player to move in each group waits for their hand to say it is their turn, thinks
N(think, think/4) seconds (at least think/4; the first move of each group starts after
an extra uniform(0, think) so the groups do not press in step), and presses a random
legal button (a random end when asked «Куда поставить?»). A game that ends anyway is
followed by a new one.

`--app SHARE` (0 to 1): that share of the people, chosen from `--seed`, play from the table
app instead (bench/app_players.py; the bot then serves the app, as `WEBAPP_URL` makes it):
once the game is dealt each opens the app on it (a session with `initData` signed as
Telegram signs it, and the live stream, held while the game lasts), learns from the stream
that it is their turn, thinks as the others do and moves with `POST /api/act`. Their
turns are told when the stream brings the view that says so (`turn_told_app_s_…`; the
chat's players' `turn_told_chat_s_…`, all together `turn_told_s_…` and, in ms,
`next_turn_ms_…`); the app's answer to a move is `app_act_ms_…`. Per-move figures divide
by every move, made in the chat or the app. With `--app 0` the app is not served at all.

Latency is measured inside the fake: from the getUpdates answer that first delivered a
press to the arrival of the bot's first request about it, the answerCallbackQuery with
its id. Every figure comes from the measured window (`--warmup` seconds of play before
it are not counted): calls that arrived in it, moves pressed in it, CPU used in it.

`--no-flood` lifts the flood limits, the fake's and the bot's own pacing, as for a bot
whose limits Telegram raised: the bot's CPU is the limit then. `--database` runs the bot on
PostgreSQL (a new database on that server, dropped afterwards) and adds the server's CPU
per move (`database_cpu_s_per_move`, every `postgres` process on this machine).

`--reviews N`: do reviews («🔍 Разбор», worked out in the bot's one reviewer process at
nice 19) delay the games? In the set-up, as few more groups of `--review-players` as hold
N people each play a game to `--review-target` to its end (random legal moves, no
thinking; a 4-player game to 101 takes about two minutes under the bot's own pacing);
at the window's start N of their people press «🔍 Разбор» on their closed hands at once,
and the reviews queue up while the load groups play. The window must hold them: with 4
players to 101 a review is about 0.2–1.7 s of CPU (and the reviewer's start-up about 3 s,
before it lowers its priority); 24 came within 20–50 s on 2 cores, so for instance

    python bench/load.py --groups 40 --warmup 20 --seconds 90 --reviews 24   # vs --reviews 0

The JSON then adds `reviews`, `reviews_done` (summaries that came in the window),
`review_wait_s` (press → summary, each; `_p50`, `_max`), `review_cpu_s` (the bot's log
lines "review of game …"), `reviewer_process_cpu_s` and `reviewer_processes` (the bot's
child processes from /proc: nice, CPU, CPU while still at nice 0), `review_photos`, and
the presses' latency, the next turn's wait and the sends and edits a second while the
reviews ran (`…_reviewing`: from the window's start to the last summary) and after them
(`…_after_reviews`).

`--capacity MINUTES` searches the most groups for which the next player is told it is their
turn within 2 s (p95) with no 429 (bench/capacity.py): it runs the load again and again,
from `--groups` up, doubling then bisecting, with the other options as given (`--app`,
`--no-flood`, `--database`, `--workers`, `--seconds`, `--warmup`), and starts no run after
MINUTES. Its last line is JSON {"capacity_groups", "moves_per_s" (at it), "turn_told_s_p95",
"sends_edits_per_move", "sends_edits_per_s", …, "cut_short", "trials": [each run's figures]}:

    python bench/load.py --capacity 10 --groups 10 --seconds 30 --warmup 10 --app 1

Prints progress lines to stderr, then as its last line JSON {"groups", "moves",
"moves_per_s", "latency_ms_p50", "latency_ms_p95", "api_calls_per_move",
"calls_by_method", "http_429", "global_peak_per_s", "cpu_s_per_move", …}: the peaks are
the most sends and edits the fake's flood control counted in one second (limit 30) and
in one group in one minute (limit 20). `api_calls_per_move` counts every
call the bot's outbox makes (sends, edits, deletes) and leaves out the answers to the
presses themselves (never delayed, one per press: `api_calls_per_move_with_answers` adds
them); `sends_edits_per_move` counts what Telegram's flood limits count, and
`sends_edits_by_chat` the same by the chat's kind and method ("group editMessageMedia").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import os
import random
import re
import signal
import sys
import tempfile
import time
from collections import Counter, deque
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import aiohttp
import asyncpg

# this file is called like a package of the repository: look packages up from its root
ROOT = Path(__file__).resolve().parents[1]
sys.path[0] = str(ROOT)


from bench.app_players import AppPlayer, app_web, start_param  # noqa: E402
from bench.capacity import search  # noqa: E402
from bot.playground import (  # noqa: E402
    CallbackAnswer,
    Chat,
    FakeTelegram,
    FloodLimits,
    Message,
    User,
)
from bot.playground.api.flood import COUNTED  # noqa: E402
from bot.playground.api.params import Params  # noqa: E402
from bot.telegram.buttons import MoveButton  # noqa: E402
from bot.telegram.record_buttons import ReviewGame  # noqa: E402
from tests.e2e.process import WEBAPP, bot_env, spawn_bot  # noqa: E402
from tests.playground.launch import free_port  # noqa: E402

T = TypeVar("T")

OPTIONS = "turn_timeout=0 target={target}"
WEBHOOK_PATH = "/telegram/updates"
PLAYERS = 4
LOBBY = "Собираем стол"
PLAYERS_LINE = "Игроки:"
WAITING = "Откройте"
JOIN = "🎲 Сесть за стол"
START = "▶ Начать"
DEALING = "Раздаю!"
YOUR_TURN = "Ваш ход"
PLAYABLE = "✅ "
PICK_END = "Куда поставить?"
GAME_OVER = "Игра окончена"
MOVE_KINDS = ("d", "p", "2")  # draw, pass, a pair of doubles: always legal when shown
REVIEW_SAMPLE_SECONDS = 0.1  # how often the bot's child processes are looked at
REVIEW_DATA = f"{ReviewGame.__prefix__}{ReviewGame.__separator__}"  # «🔍 Разбор»'s callback data
REVIEW_SUMMARY = "🔍 Разбор игры №"  # the review's first message (review-summary, review-none)
REVIEW_LOG = re.compile(
    r"review of game (\d+) seat (\d+): (\d+) of (\d+) decisions, ([\d.]+) s CPU"
)  # the bot's log line (bot/telegram/messenger/replays.py)
REVIEW_WAIT = 3600.0  # a review's summary is waited for until the window's end

SETUP_PARALLEL = 20  # groups set up at once
STEP_TIMEOUT = 60.0  # a set-up step or an answer that takes longer is a failure
TURN_WAIT = 60.0  # no turn for this long: the group counts as stalled
ANSWER_HEADING = "💬 "  # a group command answered in the private chat (bot/telegram/asking.py)
SETTLE_SECONDS = 5.0  # after the window: time for the answers to the last presses
BOT_STOP_SECONDS = 15.0
PROGRESS_SECONDS = 10.0
LAG_TICK = 0.05
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], share: float) -> float:
    """The value at `share` of the sorted values (nearest rank, as bench/render.py)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[round(share * (len(ordered) - 1))]


def most_within(times: list[float], seconds: float) -> int:
    """The most of `times` (sorted) that fall within one window of `seconds`, as the
    fake's flood control counts them."""
    most = first = 0
    for last, at in enumerate(times):
        while at - times[first] >= seconds:
            first += 1
        most = max(most, last - first + 1)
    return most


def ms(seconds: float) -> float | None:
    return None if math.isnan(seconds) else round(seconds * 1000, 1)  # NaN → null


def secs(seconds: float) -> float | None:
    return None if math.isnan(seconds) else round(seconds, 2)  # NaN → null


def middle_and_tail(
    name: str, values: list[float], unit: Callable[[float], float | None] = ms, after: str = ""
) -> dict[str, float | None]:
    """`{name}_p50{after}` and `{name}_p95{after}` of `values` in `unit` (a report's pair)."""
    return {f"{name}_p{share}{after}": unit(percentile(values, share / 100)) for share in (50, 95)}


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


# -- the fake, instrumented ---------------------------------------------------------------


class Watch:
    """Wakes one group's simulated players when one of their chats changes."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def poke(self) -> None:
        self._event.set()

    async def until(self, predicate: Callable[[], T | None], timeout: float) -> T:
        """The first truthy `predicate()`, checked after every change; TimeoutError."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError
            self._event.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(remaining):
                    await self._event.wait()


class LoadFake(FakeTelegram):
    """The fake Bot API plus what a load test needs: when each press was delivered in a
    getUpdates answer and when the bot's answerCallbackQuery for it came in, and a poke
    to the group whose chat changed (so players do not poll). Photos are checked from
    their header only unless `decode_photos` (a full PNG decode costs the fake ~2.4 ms)."""

    def __init__(self, limits: FloodLimits, decode_photos: bool) -> None:
        super().__init__(flood=False, flood_limits=limits)
        self.decode_photos = decode_photos
        self.watches: dict[int, Watch] = {}
        """Chat id → the watch of the group whose players see that chat."""
        self.delivered: dict[str, float] = {}
        """Callback query id → when a getUpdates answer or a webhook POST first carried it."""
        self.answered: dict[str, float] = {}
        """Callback query id → when the bot's first answerCallbackQuery for it came in."""
        self.taken: list[tuple[float, int]] = []
        """(when, chat id) of every send or edit the flood limits counted (flood on)."""

    def _take(self, chat: Chat, method: str) -> None:
        super()._take(chat, method)
        if self.flood:
            self.taken.append((self.now(), chat.id))

    def _poke(self, chat_id: int) -> None:
        watch = self.watches.get(chat_id)
        if watch is not None:
            watch.poke()

    def _handing_over(self, update: dict[str, Any]) -> None:
        query = update.get("callback_query")
        if query is not None:
            self.delivered.setdefault(str(query["id"]), self.now())

    async def _answer_callback_query(self, p: Params) -> bool:
        query_id = p.text("callback_query_id") or ""
        self.answered.setdefault(query_id, self.now())
        try:
            return await super()._answer_callback_query(p)
        finally:
            query = self.callback_queries.get(query_id)
            if query is not None:
                self._poke(query.message.chat.id)

    def _new_message(self, chat: Chat, sender: User | None, **fields: Any) -> Message:
        message = super()._new_message(chat, sender, **fields)
        self._poke(chat.id)
        return message

    def _apply_edit(self, message: Message, **changes: Any) -> dict[str, Any]:
        result = super()._apply_edit(message, **changes)
        self._poke(message.chat.id)
        return result


# -- the bot process ----------------------------------------------------------------------


class BotRun:
    """`python -m bot` on a fresh database, talking to the fake; its stderr is drained
    all the time (only the tail is kept) and its CPU time read from /proc."""

    def __init__(
        self,
        fake: FakeTelegram,
        folder: Path,
        log_level: str,
        profile: str | None = None,
        log_file: str | None = None,
        pacing: bool = True,
        database_url: str | None = None,
        webhook_port: int | None = None,
        app_port: int | None = None,
    ) -> None:
        self.fake = fake
        self.app_port = app_port
        """The table app served on this port (people play from it), else no app."""
        self.webhook_port = webhook_port
        """A webhook worker listening there (behind the fake's balancer), else polling."""
        self.pacing = pacing
        """The bot's own flood pacing (off with `--no-flood`: a bot with raised limits)."""
        self.database_url = database_url
        """PostgreSQL instead of a SQLite file in `folder`."""
        self.log_file = open(log_file, "w") if log_file else None  # noqa: SIM115
        """Every line the bot logs, kept here too."""
        self.folder = folder
        self.log_level = log_level
        self.profile = profile
        """Run the bot under cProfile (its main thread) and write the stats here."""
        self.process: asyncio.subprocess.Process | None = None
        self.tail: deque[str] = deque(maxlen=200)
        self.errors = 0
        """Log lines at ERROR level (or tracebacks)."""
        self.first_error = ""
        self.reviewed: list[tuple[float, int, int, float]] = []
        """(logged at, decisions looked at, decisions, CPU seconds) of every review the bot
        logged ("review of game … seat …")."""
        self._reader: asyncio.Task[None] | None = None

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def env(self) -> dict[str, str]:
        """The bot's environment (a subclass adds to it)."""
        env = bot_env(self.fake, self.folder / "kozel.sqlite3", self.log_level, self.pacing)
        if self.database_url:
            env["DATABASE_URL"] = self.database_url
        if self.webhook_port is not None:
            env |= {
                "WEBHOOK_URL": f"http://127.0.0.1:{self.webhook_port}{WEBHOOK_PATH}",
                "WEBHOOK_SECRET": "load-bench",
                "WEBHOOK_HOST": "127.0.0.1",
                "WEBHOOK_PORT": str(self.webhook_port),
            }
        if self.app_port is not None:
            env |= WEBAPP | {"WEBAPP_PORT": str(self.app_port)}
        return env

    @property
    def app_bases(self) -> list[str]:
        """The address of the table app's server."""
        return [f"http://127.0.0.1:{self.app_port}"]

    async def start(self) -> None:
        profiler = ["-m", "cProfile", "-o", self.profile] if self.profile else []
        self.process = await spawn_bot(self.folder, self.env(), *profiler)
        self._reader = asyncio.ensure_future(self._read(self.process))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60
        listening = "getupdates" if self.webhook_port is None else "setwebhook"
        before = sum(1 for c in self.fake.calls if c.method.lower() == listening)
        while sum(1 for c in self.fake.calls if c.method.lower() == listening) == before:
            if self.process.returncode is not None or loop.time() > deadline:
                raise RuntimeError(f"the bot did not start ({listening}):\n" + "".join(self.tail))
            await asyncio.sleep(0.05)

    async def _read(self, process: asyncio.subprocess.Process) -> None:
        assert process.stderr is not None
        while line := await process.stderr.readline():
            text = line.decode(errors="replace")
            self.tail.append(text)
            if self.log_file is not None:
                self.log_file.write(text)
            if " ERROR " in text or text.startswith("Traceback"):
                self.errors += 1
                self.first_error = self.first_error or text.strip()
            if found := REVIEW_LOG.search(text):
                looked, decisions, cpu = int(found[3]), int(found[4]), float(found[5])
                self.reviewed.append((self.fake.now(), looked, decisions, cpu))

    def cpu_seconds(self) -> float:
        """User + system CPU time of the bot process (all its threads) so far."""
        stat = Path(f"/proc/{self.pid}/stat").read_text()
        fields = stat.rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime

    def children(self) -> list[tuple[int, int, float]]:
        """(pid, nice, CPU seconds so far) of each of the bot's child processes: the
        reviewer's (and multiprocessing's resource tracker)."""
        pids: set[int] = set()
        for listed in Path(f"/proc/{self.pid}/task").glob("*/children"):
            with contextlib.suppress(OSError):
                pids.update(int(pid) for pid in listed.read_text().split())
        found = []
        for pid in sorted(pids):
            with contextlib.suppress(OSError):
                fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
                cpu = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime
                found.append((pid, int(fields[16]), cpu))  # nice
        return found

    async def stop(self) -> None:
        if self.process is None:
            return
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.process.wait(), BOT_STOP_SECONDS)
            except TimeoutError:
                say(f"the bot did not stop within {BOT_STOP_SECONDS:.0f} s: killed")
                self.process.kill()
                await self.process.wait()
        if self._reader is not None:
            await self._reader


class Fleet:
    """Webhook workers behind the fake's balancer, on one database, seen as one bot."""

    def __init__(self, fake: FakeTelegram, runs: list[BotRun]) -> None:
        self.runs = runs
        self.database_url = runs[0].database_url
        fake.balanced[:] = [f"http://127.0.0.1:{run.webhook_port}{WEBHOOK_PATH}" for run in runs]

    @property
    def errors(self) -> int:
        return sum(run.errors for run in self.runs)

    @property
    def first_error(self) -> str:
        return next((run.first_error for run in self.runs if run.first_error), "")

    @property
    def reviewed(self) -> list[tuple[float, int, int, float]]:
        return [line for run in self.runs for line in run.reviewed]

    @property
    def app_bases(self) -> list[str]:
        """Each worker's table app: the phones are spread over them."""
        return [base for run in self.runs for base in run.app_bases]

    def cpu_seconds(self) -> float:
        return sum(run.cpu_seconds() for run in self.runs)

    def children(self) -> list[tuple[int, int, float]]:
        return [child for run in self.runs for child in run.children()]

    async def start(self) -> None:
        for run in self.runs:
            await run.start()

    async def stop(self) -> None:
        await asyncio.gather(*(run.stop() for run in self.runs))


Bot = BotRun | Fleet


def machine_cpu() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]  # idle, iowait
    total = sum(values[:8])  # guest time is already in user
    return float(total - idle), float(total)


# -- the players ----------------------------------------------------------------------------


@dataclass
class Tally:
    """What the players did, with the fake's clock."""

    window: tuple[float, float] = (float("inf"), float("inf"))
    presses: list[tuple[str, float]] = field(default_factory=list)
    """(callback query id, pressed at) of every press while playing."""
    moves: list[float] = field(default_factory=list)
    """When each accepted move was pressed (the last press of it), in the chat or the app."""
    app_moves: list[tuple[float, float]] = field(default_factory=list)
    """(pressed at, seconds the app took to answer) of each accepted move made in the app."""
    turn_gaps: list[tuple[float, float, bool]] = field(default_factory=list)
    """(seen at, seconds from the previous move's press to the next player being told it is
    their turn: their hand saying «Ваш ход», or their app's stream; told in the app)."""
    rejected: int = 0
    unanswered: int = 0
    stalls: int = 0
    new_games: int = 0

    def inside(self, at: float) -> bool:
        return self.window[0] <= at < self.window[1]


def newest_bot_message(chat: Chat) -> Message | None:
    """The bot's newest visible message in a chat (its own service messages and answers to
    group commands, «💬 /score в «Двор»…», aside)."""
    for message in reversed(chat.messages.values()):
        answer = (message.content or "").startswith(ANSWER_HEADING)
        if not message.deleted and message.from_bot and message.service is None and not answer:
            return message
    return None


def callback_data(message: Message) -> list[tuple[str, str]]:
    """(text, callback_data) of every callback button of a message."""
    return [
        (button["text"], str(button["callback_data"]))
        for row in message.reply_markup or []
        for button in row
        if "callback_data" in button
    ]


def version_of(message: Message) -> int:
    for _, data in callback_data(message):
        if data.startswith("m:"):
            return MoveButton.unpack(data).version
    return -1


def legal_buttons(hand: Message) -> list[str]:
    """The callback data of the buttons that make a legal move: marked tiles, draw, pass."""
    chosen = []
    for text, data in callback_data(hand):
        if not data.startswith("m:"):
            continue
        if text.startswith(PLAYABLE) or MoveButton.unpack(data).kind in MOVE_KINDS:
            chosen.append(data)
    return chosen


def end_buttons(hand: Message) -> list[str]:
    """The «⬅ Налево» / «Направо ➡» buttons, once the hand asks which end."""
    ends = []
    for _, data in callback_data(hand):
        if data.startswith("m:"):
            button = MoveButton.unpack(data)
            if button.kind == "t" and button.end >= 0:
                ends.append(data)
    return ends


def seated(lobby: Message) -> list[str]:
    """The names on the lobby's «Игроки:» line."""
    content = lobby.content or ""
    if PLAYERS_LINE not in content:
        return []
    line = content.split(PLAYERS_LINE)[1].split("\n")[0].strip()
    return line.split(", ")


def sits(lobby: Message, user: User) -> bool:
    """The lobby names `user` among the players and waits for nobody to open the bot."""
    return user.name in seated(lobby) and WAITING not in (lobby.content or "")


@dataclass
class AppSide:
    """The table app of a run: who plays from it ((group, seat)), the phones' HTTP client
    and the app servers they are spread over."""

    people: set[tuple[int, int]]
    web: aiohttp.ClientSession
    bases: list[str]


def app_people(args: argparse.Namespace) -> set[tuple[int, int]]:
    """(group, seat) of the `--app` share of the people, chosen from `--seed`."""
    everyone = [(group, seat) for group in range(args.groups) for seat in range(args.players)]
    return set(random.Random(args.seed).sample(everyone, round(args.app * len(everyone))))


class Table:
    """One group of people and the game they play; some of them may play from the app."""

    def __init__(
        self,
        fake: LoadFake,
        tally: Tally,
        index: int,
        args: argparse.Namespace,
        app: AppSide | None = None,
    ) -> None:
        self.fake = fake
        self.tally = tally
        self.index = index
        self.think: float = args.think
        room = "room " if args.players > PLAYERS else ""
        self.options = room + OPTIONS.format(target=args.target)
        self.rng = random.Random(args.seed * 1_000_003 + index)
        self.players = [
            fake.add_user(f"Игрок{index}-{seat}", language_code="ru")
            for seat in range(args.players)
        ]
        self.chat = fake.add_group(f"Двор {index}", self.players)
        self.watch = Watch()
        for chat_id in (self.chat.id, *(user.id for user in self.players)):
            fake.watches[chat_id] = self.watch
        self.after = -1
        """The version of the last hand a move was pressed on."""
        self.moved_at: float | None = None
        self.last_turn_at = 0.0
        self.web = app.web if app else None
        self.app: dict[int, AppPlayer] = {}
        """User id → the phone of each person who plays from the app."""
        for seat, user in enumerate(self.players):
            if app is not None and (index, seat) in app.people:
                base = app.bases[(index * args.players + seat) % len(app.bases)]
                self.app[user.id] = AppPlayer(fake, user, base, self.watch.poke)

    # -- set-up --------------------------------------------------------------------------

    def _lobby(self, newer_than: int) -> Message | None:
        """The bot's newest lobby message in the group, if newer than message `newer_than`."""
        for message in reversed(self.chat.messages.values()):
            if message.message_id <= newer_than:
                return None
            if message.from_bot and LOBBY in (message.content or ""):
                return message
        return None

    async def _answer(self, query_id: str) -> CallbackAnswer:
        answer: CallbackAnswer = await self.watch.until(
            lambda: self.fake.answer_for(query_id), STEP_TIMEOUT
        )
        return answer

    async def start_game(self) -> None:
        """A lobby, everybody seated through the deep link, «Начать», hands dealt."""
        fake, creator = self.fake, self.players[0]
        newest = self.chat.next_message_id - 1
        fake.user_sends(creator, self.chat, f"/newgame {self.options}")
        lobby = await self.watch.until(lambda: self._lobby(newest), STEP_TIMEOUT)
        game = start_param(lobby)
        for user in self.players:
            url = fake.user_presses(user, lobby, JOIN)
            fake.follow_link(user, url)
            await self.watch.until(partial(sits, lobby, user), STEP_TIMEOUT)
        answer = await self._answer(fake.user_presses(creator, lobby, START))
        if answer.text != DEALING:
            raise RuntimeError(f"group {self.index}: «{START}» answered {answer.text!r}")
        self.after = -1
        self.moved_at = None
        if self.app:
            if self.web is None or game is None:
                raise RuntimeError(f"group {self.index}: the lobby has no table app link")
            await asyncio.gather(*(player.open(self.web, game) for player in self.app.values()))
        await self.watch.until(self.turn, STEP_TIMEOUT)

    def close(self) -> None:
        """The app's phones stop following their streams."""
        for player in self.app.values():
            player.close()

    # -- play ----------------------------------------------------------------------------

    def turn(self) -> tuple[User, Message | AppPlayer] | None:
        """The player told it is their turn at a version newer than the last move pressed:
        by their newest hand message, or by their app's stream if they play from the app."""
        for user in self.players:
            player = self.app.get(user.id)
            if player is not None:
                if player.turn(self.after):
                    return user, player
                continue
            hand = newest_bot_message(self.fake.private(user))
            if (
                hand is not None
                and YOUR_TURN in (hand.content or "")
                and version_of(hand) > self.after
            ):
                return user, hand
        return None

    def game_over(self) -> bool:
        return any(player.over() for player in self.app.values()) or any(
            (m := newest_bot_message(self.fake.private(user))) is not None
            and (m.content or "").startswith(GAME_OVER)
            for user in self.players
        )

    def next_step(self) -> tuple[User, Message | AppPlayer] | bool:
        """A turn to play, True when the game is over, False while neither."""
        return self.turn() or self.game_over()

    def thinking(self) -> float:
        return max(self.think / 4, self.rng.gauss(self.think, self.think / 4))

    async def press(self, user: User, hand: Message, data: str) -> tuple[CallbackAnswer, float]:
        at = self.fake.now()
        query_id = self.fake.user_presses(user, hand, data)
        self.tally.presses.append((query_id, at))
        return await self._answer(query_id), at

    async def play(self, stop: asyncio.Event) -> None:
        """Moves until `stop`: wait for a turn, think, press a legal button."""
        self.last_turn_at = self.fake.now()
        if await paused(stop, self.rng.uniform(0, self.think)):
            return
        while not stop.is_set():
            try:
                step = await self.watch.until(self.next_step, TURN_WAIT)
            except TimeoutError:
                self.tally.stalls += 1
                continue
            if step is True:
                await self.start_game()
                self.tally.new_games += 1
                continue
            assert isinstance(step, tuple)
            user, seen = step
            now = self.fake.now()
            self.last_turn_at = now
            in_app = isinstance(seen, AppPlayer)
            told = seen.told_at(self.after) if isinstance(seen, AppPlayer) else now
            if self.moved_at is not None:  # told by the stream, or seen in the chat now
                self.tally.turn_gaps.append((told, told - self.moved_at, in_app))
            if await paused(stop, self.thinking()):
                return
            if isinstance(seen, AppPlayer):
                await self.move_in_app(seen)
            else:
                await self.move(user, seen)

    async def move(self, user: User, hand: Message) -> None:
        """Press a random legal button of `hand` (and a random end if asked)."""
        version, choices = version_of(hand), legal_buttons(hand)
        if not choices:
            self.tally.rejected += 1
            self.after = version
            return
        try:
            answer, at = await self.press(user, hand, self.rng.choice(choices))
            if answer.text == PICK_END and not answer.show_alert:
                ends = await self.watch.until(partial(end_buttons, hand), STEP_TIMEOUT)
                answer, at = await self.press(user, hand, self.rng.choice(ends))
        except TimeoutError:
            self.tally.unanswered += 1
            self.after = version
            return
        self.after = version
        if answer.show_alert:
            self.tally.rejected += 1
            return
        self.moved_at = at
        self.tally.moves.append(at)

    async def move_in_app(self, player: AppPlayer) -> None:
        """A random legal move in the app (a random end if it asks)."""
        assert self.web is not None
        version = player.version
        try:
            acted = await asyncio.wait_for(player.act(self.web, self.rng), STEP_TIMEOUT)
        except (TimeoutError, aiohttp.ClientError):
            self.tally.unanswered += 1
            self.after = version
            return
        self.after = version
        if not acted.moved:
            self.tally.rejected += 1
            return
        self.moved_at = acted.at
        self.tally.moves.append(acted.at)
        self.tally.app_moves.append((acted.at, acted.answered_s))

    async def finish(self) -> None:
        """Moves without thinking until the game is over (a review group's set-up)."""
        while True:
            step = await self.watch.until(self.next_step, STEP_TIMEOUT)
            if step is True:
                return
            assert isinstance(step, tuple)
            user, hand = step
            assert isinstance(hand, Message)  # a review group plays in the chat
            await self.move(user, hand)


async def paused(stop: asyncio.Event, seconds: float) -> bool:
    """Sleep `seconds`; True when `stop` came first."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            await stop.wait()
    return stop.is_set()


async def set_up(tables: Sequence[Table]) -> None:
    gate = asyncio.Semaphore(SETUP_PARALLEL)
    done = 0
    started = time.perf_counter()

    async def one(table: Table) -> None:
        nonlocal done
        async with gate:
            await table.start_game()
        done += 1
        if done % 50 == 0 or done == len(tables):
            say(f"set-up: {done}/{len(tables)} games dealt ({time.perf_counter() - started:.1f} s)")

    await asyncio.gather(*(one(table) for table in tables))


# -- the reviews ----------------------------------------------------------------------------


def review_hand(chat: Chat) -> Message | None:
    """The bot's newest message in a private chat with a «🔍 Разбор» button: the closed
    hand of a finished game."""
    for message in reversed(chat.messages.values()):
        if not message.deleted and any(
            data.startswith(REVIEW_DATA) for _, data in callback_data(message)
        ):
            return message
    return None


def review_summary(chat: Chat, newer_than: int) -> Message | None:
    """The bot's review summary in a private chat, if newer than message `newer_than`."""
    for message in reversed(chat.messages.values()):
        if message.message_id <= newer_than:
            return None
        if message.from_bot and (message.content or "").startswith(REVIEW_SUMMARY):
            return message
    return None


@dataclass
class Reviewer:
    """The first person of a review group: their finished game's closed hand, and when
    they pressed its «🔍 Разбор», when the press was answered and when the summary came."""

    table: Table
    user: User
    hand: Message
    pressed_at: float | None = None
    query_id: str = ""
    refused: str = ""
    """The press's alert, if it was refused."""
    summary: Message | None = None
    summary_at: float | None = None

    async def ask(self, fake: LoadFake) -> None:
        """Press «🔍 Разбор» and wait for the summary."""
        chat = fake.private(self.user)
        newest = chat.next_message_id - 1
        data = next(d for _, d in callback_data(self.hand) if d.startswith(REVIEW_DATA))
        self.pressed_at = fake.now()
        self.query_id = fake.user_presses(self.user, self.hand, data)
        answer = await self.table._answer(self.query_id)
        if answer.show_alert:
            self.refused = answer.text or "?"
            say(f"«🔍 Разбор» refused in group {self.table.index}: {self.refused}")
            return
        watch = self.table.watch
        self.summary = await watch.until(partial(review_summary, chat, newest), REVIEW_WAIT)
        self.summary_at = fake.now()

    def photos(self, fake: LoadFake) -> int:
        """The photos (slips) the bot sent after the summary."""
        if self.summary is None:
            return 0
        return sum(
            1
            for m in fake.private(self.user).messages.values()
            if m.message_id > self.summary.message_id and m.from_bot and m.photo is not None
        )


async def finished_games(fake: LoadFake, args: argparse.Namespace) -> list[Reviewer]:
    """The `--reviews` people who will ask for a review, with their closed hands: groups
    of `--review-players` (as few as hold them) each play a game to `--review-target` to
    its end, pressing with no thinking."""
    if not args.reviews:
        return []
    started = time.perf_counter()
    tally = Tally()  # the review groups' moves are not the load's
    options = argparse.Namespace(
        **{**vars(args), "players": args.review_players, "target": args.review_target, "think": 0}
    )
    count = -(-args.reviews // args.review_players)
    tables = [Table(fake, tally, args.groups + i, options) for i in range(count)]
    people = [(table, user) for table in tables for user in table.players][: args.reviews]

    async def played(table: Table) -> None:
        await table.start_game()
        await table.finish()

    async def closed(table: Table, user: User) -> Reviewer:
        chat = fake.private(user)
        hand = await table.watch.until(partial(review_hand, chat), STEP_TIMEOUT)
        return Reviewer(table, user, hand)

    await asyncio.gather(*(played(table) for table in tables))
    reviewers = await asyncio.gather(*(closed(table, user) for table, user in people))
    say(
        f"set-up: {len(tables)} review games played to their end, {len(tally.moves)} moves, "
        f"{len(reviewers)} closed hands with «🔍 Разбор» ({time.perf_counter() - started:.1f} s)"
    )
    return list(reviewers)


@dataclass
class Child:
    """One of the bot's child processes as sampled: its nice, its CPU, and its CPU by the
    last sample that saw it at nice 0 (the reviewer's start-up, before it lowers itself)."""

    nice: int = 0
    cpu_s: float = 0.0
    cpu_s_at_nice_0: float = 0.0


async def sample_children(bot: Bot, children: dict[int, Child]) -> None:
    """Look at the bot's child processes every `REVIEW_SAMPLE_SECONDS`."""
    while True:
        for pid, nice, cpu in bot.children():
            child = children.setdefault(pid, Child())
            child.nice, child.cpu_s = nice, cpu
            if nice == 0:
                child.cpu_s_at_nice_0 = cpu
        await asyncio.sleep(REVIEW_SAMPLE_SECONDS)


async def loop_lag(lags: list[tuple[float, float]], clock: Callable[[], float]) -> None:
    """How late the bench's own event loop (the fake and the players) wakes up."""
    loop = asyncio.get_running_loop()
    while True:
        before = loop.time()
        await asyncio.sleep(LAG_TICK)
        lags.append((clock(), loop.time() - before - LAG_TICK))


# -- the run --------------------------------------------------------------------------------


@dataclass
class Probe:
    """CPU counters and call counts at one instant."""

    at: float
    calls: int
    bot_cpu: float
    bench_cpu: float
    machine: tuple[float, float]
    database_cpu: float
    children_cpu: float
    """The bot's child processes (the reviewer's)."""

    @classmethod
    def take(cls, fake: FakeTelegram, bot: Bot) -> Probe:
        database = postgres_cpu() if bot.database_url else 0.0
        return cls(
            fake.now(),
            len(fake.calls),
            bot.cpu_seconds(),
            time.process_time(),
            machine_cpu(),
            database,
            sum(cpu for *_, cpu in bot.children()),
        )


def postgres_cpu() -> float:
    """User + system CPU time of every PostgreSQL server process on this machine (the
    server of `--database` runs here, with nothing else of PostgreSQL's)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            text = stat.read_text()
            name, _, rest = text.partition(" (")[2].rpartition(")")
            if name == "postgres":
                fields = rest.split()
                total += int(fields[11]) + int(fields[12])
    return total / CLOCK_TICKS


def latencies(fake: LoadFake, tally: Tally) -> tuple[list[float], list[float], list[float], int]:
    """Seconds per press in the window: delivery → first answer, press → delivery, press →
    answer; and how many presses were never answered."""
    served, queued, spinner = [], [], []
    missing = 0
    for query_id, at in tally.presses:
        if not tally.inside(at):
            continue
        delivered, answered = fake.delivered.get(query_id), fake.answered.get(query_id)
        if delivered is None or answered is None:
            missing += 1
            continue
        served.append(answered - delivered)
        queued.append(delivered - at)
        spinner.append(answered - at)
    return served, queued, spinner, missing


def served_between(fake: LoadFake, tally: Tally, start: float, end: float) -> list[float]:
    """Delivery → first answer of each press made between `start` and `end`."""
    return [
        fake.answered[q] - fake.delivered[q]
        for q, at in tally.presses
        if start <= at < end and q in fake.answered and q in fake.delivered
    ]


def progress(fake: LoadFake, bot: Bot, tally: Tally, first: Probe, last: Probe) -> Probe:
    now = Probe.take(fake, bot)
    span = now.at - last.at
    moves = sum(1 for at in tally.moves if last.at <= at < now.at)
    served = [
        fake.answered[q] - fake.delivered[q]
        for q, at in tally.presses
        if last.at <= at < now.at and q in fake.answered and q in fake.delivered
    ]
    floods = sum(1 for e in fake.flood_events if last.at <= e.at < now.at)
    say(
        f"{now.at - first.at:5.0f} s: {moves / span:6.1f} moves/s, "
        f"latency p50 {ms(percentile(served, 0.5))} ms p95 {ms(percentile(served, 0.95))} ms, "
        f"429 ×{floods}, bot CPU {(now.bot_cpu - last.bot_cpu) / span:.0%}, "
        f"bench CPU {(now.bench_cpu - last.bench_cpu) / span:.0%}, "
        f"reviewer CPU {(now.children_cpu - last.children_cpu) / span:.0%}, "
        f"pending updates {len(fake.pending_updates)}"
    )
    return now


async def run(args: argparse.Namespace) -> dict[str, Any]:
    defaults = FloodLimits()
    limits = FloodLimits(
        group_per_minute=args.group_per_minute or defaults.group_per_minute,
        private_per_second=args.private_per_second or defaults.private_per_second,
        global_per_second=args.global_per_second or defaults.global_per_second,
    )
    with tempfile.TemporaryDirectory(prefix="kozel-load-") as folder:
        async with LoadFake(limits, args.decode_photos) as fake:
            profile = str(Path(args.profile).resolve()) if args.profile else None
            async with fresh_database(args.database) as url:
                bot: Bot
                runs = [
                    BotRun(
                        fake,
                        Path(folder) / str(number),
                        args.log_level,
                        profile if number == 0 else None,
                        args.bot_log if number == 0 else None,
                        pacing=not args.no_flood,
                        database_url=url,
                        webhook_port=free_port() if args.workers else None,
                        app_port=free_port() if args.app else None,
                    )
                    for number in range(args.workers or 1)
                ]
                for run in runs:
                    run.folder.mkdir()
                bot = Fleet(fake, runs) if args.workers else runs[0]
                lags: list[tuple[float, float]] = []
                lag_task = asyncio.ensure_future(loop_lag(lags, fake.now))
                try:
                    await bot.start()
                    measured = await measure(args, fake, bot)
                finally:
                    lag_task.cancel()
                    await bot.stop()
                return report(args, limits, fake, bot, measured, lags)


@contextlib.asynccontextmanager
async def fresh_database(server: str | None) -> AsyncIterator[str | None]:
    """A new database on the PostgreSQL server of `server` (a URL), dropped afterwards;
    None without one (the bot's SQLite file in the run's folder)."""
    if server is None:
        yield None
        return
    name = f"kozel_load_{os.getpid()}"
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield urlunsplit(urlsplit(server)._replace(path=f"/{name}"))
        finally:
            await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
    finally:
        await admin.close()


@dataclass
class Measured:
    tally: Tally
    first: Probe
    end: Probe
    stalled: int
    reviewers: list[Reviewer]
    children: dict[int, Child]


async def measure(args: argparse.Namespace, fake: LoadFake, bot: Bot) -> Measured:
    """Set the groups up, let them play (flood limits on) and take the window's probes;
    the `--app` share of the people play from the app, through one HTTP client."""
    async with contextlib.AsyncExitStack() as stack:
        app = None
        if args.app:
            web = await stack.enter_async_context(app_web())
            app = AppSide(app_people(args), web, bot.app_bases)
        tally = Tally()
        tables = [Table(fake, tally, i, args, app) for i in range(args.groups)]
        for table in tables:
            stack.callback(table.close)
        return await played(args, fake, bot, tally, tables)


async def played(
    args: argparse.Namespace, fake: LoadFake, bot: Bot, tally: Tally, tables: list[Table]
) -> Measured:
    """The set-up, the warm-up and the measured window of `measure`."""
    await set_up(tables)
    reviewers = await finished_games(fake, args)
    # what the set-up made (every group's chats and messages) stays: kept out of the
    # collector's full passes, which stall the fake and would count as the bot's latency
    gc.collect()
    gc.freeze()
    stop = asyncio.Event()
    fake.flood = not args.no_flood
    players = [asyncio.ensure_future(table.play(stop)) for table in tables]
    if args.warmup > 0:
        say(f"warm-up: {args.warmup:.0f} s of play, not measured")
        await asyncio.sleep(args.warmup)
    first = last = Probe.take(fake, bot)
    tally.window = (first.at, first.at + args.seconds)
    children: dict[int, Child] = {}
    sampler = asyncio.ensure_future(sample_children(bot, children))
    asking = [asyncio.ensure_future(reviewer.ask(fake)) for reviewer in reviewers]
    say(
        f"measuring {args.seconds:.0f} s with {args.groups} groups"
        + (f", {len(reviewers)} reviews asked for" if reviewers else "")
    )
    while (left := tally.window[1] - fake.now()) > 0:
        await asyncio.sleep(min(PROGRESS_SECONDS, left))
        last = progress(fake, bot, tally, first, last)
    end = Probe.take(fake, bot)
    sampler.cancel()
    stop.set()
    deadline = time.monotonic() + SETTLE_SECONDS
    while time.monotonic() < deadline and any(
        q not in fake.answered for q, at in tally.presses if tally.inside(at)
    ):
        await asyncio.sleep(0.1)
    for task in (*players, *asking):
        task.cancel()
    for failed in await asyncio.gather(*players, *asking, return_exceptions=True):
        if isinstance(failed, Exception):
            say(f"a player failed: {failed!r}")
    stalled = sum(1 for table in tables if end.at - table.last_turn_at > TURN_WAIT)
    return Measured(tally, first, end, stalled, reviewers, children)


def report(
    args: argparse.Namespace,
    limits: FloodLimits,
    fake: LoadFake,
    bot: Bot,
    measured: Measured,
    lags: list[tuple[float, float]],
) -> dict[str, Any]:
    tally, first, end = measured.tally, measured.first, measured.end
    elapsed = end.at - first.at
    calls = fake.calls[first.calls : end.calls]
    by_method = Counter(c.method for c in calls if c.method.lower() != "getupdates")
    answers = sum(n for method, n in by_method.items() if method.lower() == "answercallbackquery")
    total = sum(by_method.values())
    writes = sum(n for method, n in by_method.items() if method.lower() in COUNTED)
    where = Counter(
        f"{'group' if int(c.params.get('chat_id') or 0) < 0 else 'private'} {c.method}"
        for c in calls
        if c.method.lower() in COUNTED
    )
    statuses = Counter(str(c.status) for c in calls if c.status not in (None, 200))
    refused = Counter(
        f"{c.method} {c.status}: {(c.description or '')[:60]}"
        for c in calls
        if c.status not in (None, 200, 429)
    )
    floods = [e for e in fake.flood_events if tally.inside(e.at)]
    taken = [(at, chat_id) for at, chat_id in fake.taken if tally.inside(at)]
    by_chat: dict[int, list[float]] = {}
    for at, chat_id in taken:
        by_chat.setdefault(chat_id, []).append(at)
    kinds = Counter(
        "global" if e.chat_id is None else fake.chats[e.chat_id].type.replace("super", "")
        for e in floods
    )
    moves = sum(1 for at in tally.moves if tally.inside(at))
    served, queued, spinner, missing = latencies(fake, tally)
    gaps = [gap for at, gap, _ in tally.turn_gaps if tally.inside(at)]
    app_gaps = [gap for at, gap, in_app in tally.turn_gaps if tally.inside(at) and in_app]
    chat_gaps = [gap for at, gap, in_app in tally.turn_gaps if tally.inside(at) and not in_app]
    acts = [answered for at, answered in tally.app_moves if tally.inside(at)]
    lag = [value for at, value in lags if tally.inside(at)]
    bot_cpu = end.bot_cpu - first.bot_cpu
    database_cpu = end.database_cpu - first.database_cpu
    bench_cpu = end.bench_cpu - first.bench_cpu
    busy = (end.machine[0] - first.machine[0]) / max(1.0, end.machine[1] - first.machine[1])
    per_move = moves or 1
    polls = sum(1 for c in calls if c.method.lower() == "getupdates")
    if bot.errors:
        say(f"the bot logged {bot.errors} errors; the first: {bot.first_error}")
    return {
        "groups": args.groups,
        "players": args.players,
        "seconds": round(elapsed, 1),
        "think": args.think,
        "seed": args.seed,
        "flood": not args.no_flood,
        "limits": {
            "group_per_minute": limits.group_per_minute,
            "private_per_second": limits.private_per_second,
            "global_per_second": limits.global_per_second,
        },
        "moves": moves,
        "moves_per_s": round(moves / elapsed, 2),
        "latency_ms_p50": ms(percentile(served, 0.5)),
        "latency_ms_p95": ms(percentile(served, 0.95)),
        "latency_ms_p99": ms(percentile(served, 0.99)),
        "latency_ms_max": ms(max(served, default=float("nan"))),
        "presses": len(served) + missing,
        "unanswered": missing,
        "queued_ms_p95": ms(percentile(queued, 0.95)),
        "press_to_answer_ms_p95": ms(percentile(spinner, 0.95)),
        **middle_and_tail("next_turn_ms", gaps),
        "app_share": args.app,
        "app_people": len(app_people(args)),
        "app_moves": len(acts),
        **middle_and_tail("app_act_ms", acts),
        **middle_and_tail("turn_told_s", gaps, secs),
        **middle_and_tail("turn_told_app_s", app_gaps, secs),
        **middle_and_tail("turn_told_chat_s", chat_gaps, secs),
        "api_calls_per_move": round((total - answers) / per_move, 2),
        "api_calls_per_move_with_answers": round(total / per_move, 2),
        "sends_edits_per_move": round(writes / per_move, 2),
        "calls_by_method": dict(by_method.most_common()),
        "sends_edits_by_chat": dict(where.most_common()),
        "get_updates": polls,
        "http_429": statuses.get("429", 0),
        "http_429_by_chat": dict(kinds),
        "http_429_early_retries": sum(1 for e in floods if e.early),
        "first_429_s": round(floods[0].at - first.at, 1) if floods else None,
        "retry_after_s_max": max((e.retry_after for e in floods), default=None),
        "global_peak_per_s": most_within([at for at, _ in taken], 1.0),
        "group_peak_per_min": max(
            (most_within(times, 60.0) for chat_id, times in by_chat.items() if chat_id < 0),
            default=0,
        ),
        "http_errors": dict(statuses),
        "other_errors": dict(refused.most_common()),
        "cpu_s_per_move": round(bot_cpu / per_move, 5),
        "database": "postgres" if args.database else "sqlite",
        "workers": args.workers or 1,
        "webhook": bool(args.workers),
        "database_cpu_s_per_move": round(database_cpu / per_move, 5),
        "bot_cpu_s": round(bot_cpu, 2),
        "bench_cpu_s": round(bench_cpu, 2),
        "bench_cpu_s_per_move": round(bench_cpu / per_move, 5),
        "machine_cpu_busy": round(busy, 3),
        "other_cpu_s": round(
            busy * (os.cpu_count() or 1) * elapsed - bot_cpu - bench_cpu - database_cpu, 2
        ),
        "bench_loop_lag_ms_p95": ms(percentile(lag, 0.95)),
        "bench_loop_lag_ms_max": ms(max(lag, default=float("nan"))),
        "rejected_presses": tally.rejected,
        "stalled_groups": measured.stalled,
        "new_games": tally.new_games,
        "bot_errors": bot.errors,
        "cores": os.cpu_count(),
        **review_figures(fake, bot, measured),
    }


def review_figures(fake: LoadFake, bot: Bot, measured: Measured) -> dict[str, Any]:
    """The reviews asked for at the window's start: how many came in the window, how long
    each took (press → summary), their CPU by the bot's log and by its child processes,
    and the presses' latency while they ran («reviewing»: from the window's start to the
    last summary, or to the window's end if one did not come) and after."""
    tally, first, end = measured.tally, measured.first, measured.end
    reviewers = measured.reviewers
    done = [
        r.summary_at - r.pressed_at
        for r in reviewers
        if r.summary_at is not None and r.pressed_at is not None and tally.inside(r.summary_at)
    ]
    logged = [line for line in bot.reviewed if tally.inside(line[0])]
    answers = [
        fake.answered[r.query_id] - fake.delivered[r.query_id]
        for r in reviewers
        if r.query_id in fake.answered and r.query_id in fake.delivered
    ]
    if not reviewers:
        until = first.at
    elif len(done) < len(reviewers):
        until = end.at
    else:
        until = max(r.summary_at or first.at for r in reviewers)
    reviewing = served_between(fake, tally, first.at, until)
    after = served_between(fake, tally, until, end.at)
    gaps_reviewing = [gap for at, gap, _ in tally.turn_gaps if first.at <= at < until]
    gaps_after = [gap for at, gap, _ in tally.turn_gaps if until <= at < end.at]
    taken_reviewing = sum(1 for at, _ in fake.taken if first.at <= at < until)
    taken_after = sum(1 for at, _ in fake.taken if until <= at < end.at)
    return {
        "reviews": len(reviewers),
        "reviews_done": len(done),
        "reviews_refused": sum(1 for r in reviewers if r.refused),
        "review_wait_s": sorted(round(wait, 1) for wait in done),
        "review_wait_s_p50": round(percentile(done, 0.5), 1) if done else None,
        "review_wait_s_max": round(max(done), 1) if done else None,
        "review_press_ms_max": ms(max(answers, default=float("nan"))),
        "review_cpu_s": round(sum(cpu for *_, cpu in logged), 1),
        "review_cpu_s_each": [cpu for *_, cpu in logged],
        "review_decisions_looked": sum(looked for _, looked, _, _ in logged),
        "review_decisions": sum(decisions for *_, decisions, _ in logged),
        "review_photos": sum(r.photos(fake) for r in reviewers),
        "reviewer_process_cpu_s": round(end.children_cpu - first.children_cpu, 1),
        "reviewer_processes": [
            {
                "nice": c.nice,
                "cpu_s": round(c.cpu_s, 2),
                "cpu_s_at_nice_0": round(c.cpu_s_at_nice_0, 2),
            }
            for c in measured.children.values()
        ],
        "reviewing_s": round(until - first.at, 1),
        **middle_and_tail("latency_ms", reviewing, after="_reviewing"),
        **middle_and_tail("latency_ms", after, after="_after_reviews"),
        **middle_and_tail("next_turn_ms", gaps_reviewing, after="_reviewing"),
        **middle_and_tail("next_turn_ms", gaps_after, after="_after_reviews"),
        "sends_edits_per_s_reviewing": round(taken_reviewing / max(until - first.at, 1e-9), 1),
        "sends_edits_per_s_after_reviews": round(taken_after / max(end.at - until, 1e-9), 1),
    }


def options() -> argparse.ArgumentParser:
    """The command line's options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=20.0, help="the measured window")
    parser.add_argument("--think", type=float, default=2.0, help="mean think time, seconds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=PLAYERS, help="people per group (2–10)")
    parser.add_argument("--target", type=int, default=10_000, help="the games' target score")
    parser.add_argument("--warmup", type=float, default=0.0, help="play before measuring")
    parser.add_argument(
        "--app",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="the share of the people (0–1, chosen from --seed) who play from the table app",
    )
    parser.add_argument(
        "--reviews",
        type=int,
        default=0,
        help="N people of more groups (--review-players each) play a game to its end in "
        "the set-up, and press «🔍 Разбор» at the window's start (give it time for them)",
    )
    parser.add_argument("--review-players", type=int, default=4, help="people per review group")
    parser.add_argument("--review-target", type=int, default=101, help="review games' target")
    parser.add_argument(
        "--capacity",
        type=float,
        metavar="MINUTES",
        help="search the most groups told their turn within 2 s (p95) with no 429: runs "
        "from --groups, doubled then bisected, each as the options say, for at most MINUTES",
    )
    parser.add_argument(
        "--no-flood",
        action="store_true",
        help="no flood limits: the fake's off, and the bot's pacing (a bot with raised limits)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=0,
        help="N webhook workers behind the fake's balancer (more than 1 needs --database); "
        "default: one polling process",
    )
    parser.add_argument(
        "--database",
        metavar="URL",
        help="a PostgreSQL server (postgresql://USER@HOST:PORT/DB): the run gets a new "
        "database there, dropped afterwards (default: a SQLite file)",
    )
    parser.add_argument("--group-per-minute", type=int, help="override FloodLimits")
    parser.add_argument("--private-per-second", type=float, help="override FloodLimits")
    parser.add_argument("--global-per-second", type=int, help="override FloodLimits")
    parser.add_argument(
        "--decode-photos", action="store_true", help="the fake decodes every photo fully"
    )
    parser.add_argument("--log-level", default="INFO", help="the bot's LOG_LEVEL")
    parser.add_argument("--bot-log", help="keep every line the bot logs in this file")
    parser.add_argument("--profile", help="run the bot under cProfile, stats to this file")
    return parser


def main() -> None:
    parser = options()
    args = parser.parse_args()
    if args.workers > 1 and not args.database:
        parser.error("--workers above 1 needs --database: SQLite is one process's")
    if not 0 <= args.app <= 1:
        parser.error("--app is a share: 0 to 1")
    if args.capacity is not None:
        result = search(args, lambda options: asyncio.run(run(options)))
    else:
        result = asyncio.run(run(args))
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
