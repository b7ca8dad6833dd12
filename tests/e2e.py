"""End-to-end harness: the real bot process (`python -m bot`) against the fake Bot API,
and players who act only through what their chats show them.

Besides driving the chats, it reads the bot's database (its SQLite file, read-only, or the
PostgreSQL database a `BotProcess` was given) to replay a game's move log with the engine,
so what the bot shows can be checked against the engine's results (RULES §2.6–§2.7
recomputed here, not taken from the bot).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import random
import re
import signal
import sqlite3
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import asyncpg
from openskill.models import PlackettLuce

from bot.core.database.postgres import numbered
from bot.game.engine import apply, legal_moves
from bot.game.events import RoundEnded
from bot.game.moves import Move, Play
from bot.game.rules import RuleSet, Scoring
from bot.game.serial import replay, state_from_json, step
from bot.game.state import GameState, Phase
from bot.playground import Chat, FakeTelegram, Message, User
from bot.telegram.buttons import MoveButton
from bot.telegram.pacing import REPLY_PATIENCE
from bot.ui.games import game_won
from bot.ui.i18n import texts_for

ROOT = Path(__file__).resolve().parent.parent
LATEST = max(int(path.name[:3]) for path in (ROOT / "migrations").glob("*.sql"))
"""The schema version a database has once today's bot has opened it."""
DB_NAME = "kozel.sqlite3"
LOBBY = "Собираем стол"
YOUR_TURN = "Ваш ход"
HAND = "Ваши кости"
GAME_OVER = "Игра окончена"
PLAYABLE = "✅ "
EXTRAS = ("🎒 Взять из базара", "Пас")
END_BUTTON = re.compile(r"^(?:⬅ (?P<left>-?\d+)|(?P<right>-?\d+) ➡)$")
"""A line's end button, with the number that end shows: «⬅ 3», «5 ➡»."""
PICK_END = "Куда поставить?"
RU = texts_for("ru")
RESTING = RU("hand-resting")
QUEUED = RU("hand-queued")
NAMES = ["Маша", "Серёжа", "Оля", "Алекс", "Дима"]  # the people of the e2e groups
SHORT = "target=51"  # whole games, but shorter ones
JOIN = RU("join")
START = RU("start")
WATCHED = "aiogram.event,bot.telegram.courier"
"""The loggers whose DEBUG lines the harness reads (`LOG_DEBUG`): aiogram's line for each
update handled, the outbox's when it starts sending and when all is sent."""


@dataclass
class BotProcess:
    """`python -m bot` on a database in `folder`, talking to `fake`.

    Its stderr is read all the time (a full pipe would stall the bot) into `logs`.
    """

    fake: FakeTelegram
    folder: Path
    process: asyncio.subprocess.Process | None = None
    logs: list[bytes] = field(default_factory=list)
    pacing: bool = False  # the bot's own flood pacing (slow for whole games; its tests set it)
    source: Path = ROOT  # where its code comes from (an older version's, for upgrades)
    webhook: dict[str, str] | None = None  # WEBHOOK_* settings: a webhook, not polling
    database_url: str | None = None  # PostgreSQL instead of the file in `folder`
    watched: bool = True  # logs the `WATCHED` lines (`handled` and `idle` need them)
    _reader: asyncio.Task[None] | None = None
    _run_start: int = 0
    _first_update: int | None = None  # updates before this one were another process's

    @property
    def db_path(self) -> Path:
        return self.folder / DB_NAME

    @property
    def log(self) -> str:
        """Everything every run of the process wrote to stderr."""
        return b"".join(self.logs).decode(errors="replace")

    async def start(self) -> None:
        env = bot_env(self.fake, self.db_path, pacing=self.pacing, source=self.source)
        if not self.watched:
            del env["LOG_DEBUG"]  # as a person runs it
        if self.database_url is not None:
            env["DATABASE_URL"] = self.database_url
            on_postgres(self.folder, self.database_url)
        listening = "setWebhook" if self.webhook else "getUpdates"
        before = len(self.fake.calls_of(listening))
        self._run_start = len(self.logs)
        if self._first_update is None:
            self._first_update = self.fake._next_update_id
        self.process = await spawn_bot(self.folder, env | (self.webhook or {}))
        self._reader = asyncio.ensure_future(self._read(self.process))
        await self.fake.wait_until(lambda: len(self.fake.calls_of(listening)) > before, 30)

    async def _read(self, process: asyncio.subprocess.Process) -> None:
        assert process.stderr is not None
        while chunk := await process.stderr.read(65536):
            self.logs.append(chunk)

    async def stop(self, sig: int = signal.SIGTERM) -> str:
        """Stop the process (SIGKILL to crash it); the log of this run."""
        assert self.process is not None
        if self.process.returncode is None:
            self.process.send_signal(sig)
        await self.process.wait()
        if self._reader is not None:
            await self._reader
        self.process = None
        return b"".join(self.logs[self._run_start :]).decode(errors="replace")

    async def handled(self, update_id: int, timeout: float = 20) -> None:
        """Wait until the bot has finished with an update (aiogram's DEBUG line: `WATCHED`)."""
        mark = f"Update id={update_id} is "
        await self.fake.wait_until(lambda: mark in self.log, timeout)

    async def idle(self, timeout: float = 20) -> None:
        """Wait until the bot has finished with every update queued so far (the messages
        about a press are sent after its answer, so an answer alone does not say that)."""
        queued = {int(u["update_id"]) for u in self.fake.pending_updates}
        queued |= {delivery.update_id for delivery in self.fake.webhook_deliveries}
        for call in self.fake.calls_of("getUpdates"):
            if isinstance(call.result, list):
                queued |= {int(u["update_id"]) for u in call.result}
        first = self._first_update or 0
        marks = [f"Update id={update_id} is " for update_id in queued if update_id >= first]
        await self.fake.wait_until(lambda: all(mark in self.log for mark in marks), timeout)
        await self.fake.wait_until(self.all_sent, timeout)

    def all_sent(self) -> bool:
        """The outbox of the running process has nothing left to send (it logs when it
        starts and when it is done)."""
        run = b"".join(self.logs[self._run_start :])
        return run.rfind(b"outbox: sending") <= run.rfind(b"outbox: all sent")


async def spawn_bot(folder: Path, env: dict[str, str], *python: str) -> asyncio.subprocess.Process:
    """`python [python options] -m bot` in `folder`; its stderr is a pipe the caller must
    keep reading (a full pipe stalls the bot)."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        *python,
        "-m",
        "bot",
        cwd=folder,
        env=env,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )


def bot_env(
    fake: FakeTelegram,
    db_path: Path,
    log_level: str = "INFO",
    pacing: bool = False,
    source: Path = ROOT,
) -> dict[str, str]:
    """The environment of a `python -m bot` (its code from `source`) talking to `fake` with
    its token; a reply finds its place in a busy chat as patiently as the fake waits. At
    `INFO` or `DEBUG` it also logs the `WATCHED` lines the harness reads."""
    env = {k: v for k, v in os.environ.items() if k not in {"BOT_TOKEN", "TELEGRAM_API_BASE"}}
    return env | {
        "PYTHONPATH": str(source),
        "BOT_TOKEN": fake.token,
        "TELEGRAM_API_BASE": fake.base,
        "DATABASE_PATH": str(db_path),
        "LOG_LEVEL": log_level,
        "LOG_DEBUG": WATCHED if log_level.upper() in {"DEBUG", "INFO"} else "",
        "PACING": str(pacing).lower(),
        "REPLY_PATIENCE_SECONDS": str(REPLY_PATIENCE * fake.patience),
    }


def stretched(seconds: float) -> int:
    """A short clock of the bot's (`turn_timeout=…`) that gives a loaded machine the time a
    quiet one needs, in whole seconds: as patient as every wait on the fake."""
    return math.ceil(seconds * FakeTelegram.patience)


@asynccontextmanager
async def running_bot(
    fake: FakeTelegram,
    folder: Path,
    pacing: bool = False,
    webhook: dict[str, str] | None = None,
    database_url: str | None = None,
) -> AsyncIterator[BotProcess]:
    """A started bot; when the block ends without an error, check the common promises:
    every press was answered, the fake saw no bug of its own, no Traceback in the log."""
    bot = BotProcess(fake, folder, pacing=pacing, webhook=webhook, database_url=database_url)
    await bot.start()
    try:
        yield bot
        if bot.process is not None:
            await bot.idle()  # a stop cuts short what the bot is still sending
    except BaseException:
        print(bot.log[-20_000:])  # shown by pytest for the failed test
        raise
    finally:
        if bot.process is not None:
            await bot.stop()
    kept_promises(fake, bot)
    no_forms(fake)


def kept_promises(fake: FakeTelegram, bot: BotProcess) -> None:
    """Every press was answered, the fake saw no bug of its own, no Traceback in the log."""
    assert not fake.unanswered_queries(), fake.unanswered_queries()
    assert not fake.internal_errors, fake.internal_errors[-1]
    assert "Traceback" not in bot.log, bot.log


FORMS = ("(а)", "(ней)", "(ла)", "(ло)")
"""The marks of a form's «вышел(а)»: the bot's Russian says things without them."""


def no_forms(fake: FakeTelegram) -> None:
    """No message, caption or answer of the bot reads like a form to fill in."""
    said = [m.content or "" for chat in fake.chats.values() for m in bot_messages(fake, chat)]
    said += [q.answer.text or "" for q in fake.callback_queries.values() if q.answer is not None]
    formal = [text for text in said if any(form in text for form in FORMS)]
    assert not formal, formal


# -- what the chats show ------------------------------------------------------------------


def bot_messages(fake: FakeTelegram, chat: Chat | User) -> list[Message]:
    return [m for m in fake.messages(chat) if m.from_bot and m.service is None]


def table_captions(fake: FakeTelegram, group: Chat) -> list[str]:
    """Every caption the group's table pictures ever had (edits included)."""
    tables = [m for m in bot_messages(fake, group) if m.photo]
    return [r.caption or "" for m in tables for r in m.history] + [m.content or "" for m in tables]


def find(
    fake: FakeTelegram, chat: Chat | User, text: str, topic: int | None = None
) -> Message | None:
    """The bot's newest message in `chat` (in forum topic `topic`, if given) with `text`."""
    return next(
        (
            m
            for m in reversed(bot_messages(fake, chat))
            if text in (m.content or "") and (topic is None or m.thread_id == topic)
        ),
        None,
    )


async def wait_text(
    fake: FakeTelegram, chat: Chat | User, text: str, timeout: float = 20, topic: int | None = None
) -> Message:
    found: Message = await fake.wait_until(lambda: find(fake, chat, text, topic), timeout)
    return found


def last_update_id(fake: FakeTelegram) -> int:
    """The id of the update just queued (call right after `user_sends`/`user_presses`)."""
    return int(fake.pending_updates[-1]["update_id"])


async def say(
    fake: FakeTelegram,
    bot: BotProcess,
    user: User,
    chat: Chat | User,
    text: str,
    *,
    topic: int | None = None,
    reply_to: Message | None = None,
) -> Message:
    """`user` writes `text`; returns once the bot has finished handling it."""
    sent = fake.user_sends(user, chat, text, topic=topic, reply_to=reply_to)
    assert sent.delivered, f"the bot does not get {text!r} in {chat!r}"
    await bot.handled(last_update_id(fake))
    return sent


async def ask(
    fake: FakeTelegram,
    bot: BotProcess,
    user: User,
    chat: Chat | User,
    text: str,
    reply_to: Message | None = None,
) -> Message:
    """`user` sends `text`; the bot's one answer."""
    asked = await say(fake, bot, user, chat, text, reply_to=reply_to)
    (answer,) = replies_to(fake, chat, asked)
    return answer


def replies_to(fake: FakeTelegram, chat: Chat | User, message: Message) -> list[Message]:
    """The bot's messages in `chat` (in the topic of `message`) sent after `message`."""
    return [
        m
        for m in bot_messages(fake, chat)
        if m.message_id > message.message_id and m.thread_id == message.thread_id
    ]


async def press(fake: FakeTelegram, user: User, message: Message, button: str) -> str:
    """Press a callback button and wait for the bot's answer; the answer's text."""
    query = fake.user_presses(user, message, button)
    answer = await fake.wait_until(lambda: fake.answer_for(query), 20)
    return str(answer.text or "")


async def press_refused(fake: FakeTelegram, user: User, message: Message, button: str) -> str:
    """Press a button the bot must refuse; the refusal's text (an alert or a toast alike)."""
    refusal = await press(fake, user, message, button)
    assert refusal, f"{button!r} was answered without a word"
    return refusal


async def press_shown(
    fake: FakeTelegram, user: User, message: Message, button: str, data: str | None = None
) -> tuple[str, bool]:
    """Press a button (or forge a press of `data` from `message`); the answer's text and
    whether it is an alert (a window the person closes) rather than a toast."""
    if data is None:
        query = fake.user_presses(user, message, button)
    else:
        query = forge_press(fake, user, message, data)
    answer = await fake.wait_until(lambda: fake.answer_for(query), 20)
    return str(answer.text or ""), bool(answer.show_alert)


def forge_press(fake: FakeTelegram, user: User, message: Message, data: str) -> str:
    """A modified client: `user` sends callback `data` from `message`, a message in a chat
    they can see. The fake only presses buttons a message has, so a button with `data` is
    put on the stored message for the press and taken off again; the query id."""
    saved = message.reply_markup
    label = "\u2063forged"
    message.reply_markup = [*(saved or []), [{"text": label, "callback_data": data}]]
    try:
        return fake.user_presses(user, message, label)
    finally:
        message.reply_markup = saved


async def forged_refused(fake: FakeTelegram, user: User, message: Message, data: str) -> str:
    """A forged press of `data` (`forge_press`) the bot must refuse; the refusal's text."""
    query = forge_press(fake, user, message, data)
    answer = await fake.wait_until(lambda: fake.answer_for(query), 20)
    assert answer.text, f"{data!r} was answered without a word: {answer}"
    return str(answer.text)


# -- the lobby ----------------------------------------------------------------------------


async def open_lobby(
    fake: FakeTelegram, group: Chat, creator: User, options: str = "", topic: int | None = None
) -> Message:
    before = find(fake, group, LOBBY, topic)
    fake.user_sends(creator, group, f"/newgame {options}".strip(), topic=topic)
    lobby: Message = await fake.wait_until(
        lambda: (m := find(fake, group, LOBBY, topic)) is not before and m, 20
    )
    return lobby


def seated(lobby: Message) -> list[str]:
    """The names on the lobby's «Игроки:» line."""
    line = (lobby.content or "").split("Игроки:")[1].split("\n")[0].strip()
    return [] if line == "пока никого" else line.split(", ")


async def join(fake: FakeTelegram, group: Chat, user: User, lobby: Message | None = None) -> None:
    """Press «Сесть за стол», follow the deep link, see your name in the lobby."""
    if lobby is None:
        lobby = await wait_text(fake, group, LOBBY)
    url = fake.user_presses(user, lobby, JOIN)
    fake.follow_link(user, url)
    await fake.wait_until(
        lambda: user.name in seated(lobby) and "Откройте" not in (lobby.content or ""), 20
    )


async def start_game(
    fake: FakeTelegram,
    group: Chat,
    players: Sequence[User],
    options: str = "",
    topic: int | None = None,
    computers: Sequence[str] = (),
) -> Message:
    """A lobby by `players[0]`, everybody seated through the deep link, the `computers`
    («любитель»…) seated by its buttons, «Начать»."""
    lobby = await open_lobby(fake, group, players[0], options, topic)
    for user in players:
        await join(fake, group, user, lobby)
    for level in computers:
        await press(fake, players[0], lobby, f"🤖 +{level}")
    await fake.wait_until(lambda: (lobby.content or "").count("🤖") >= len(computers), 20)
    assert await press(fake, players[0], lobby, START) == RU("dealing")
    await dealt(fake, group, lobby, players)
    return lobby


async def dealt(fake: FakeTelegram, group: Chat, lobby: Message, players: Sequence[User]) -> None:
    """Wait until the game of `lobby` has started: lobby closed, table shown, hands dealt
    (or, to those sitting the round out, the word that they do)."""

    def shown() -> bool:
        table = [
            m
            for m in bot_messages(fake, group)
            if m.message_id > lobby.message_id and m.photo and m.thread_id == lobby.thread_id
        ]
        hands = [
            find(fake, user, HAND) or find(fake, user, RESTING) or find(fake, user, QUEUED)
            for user in players
        ]
        return "Игра началась" in (lobby.content or "") and bool(table) and all(hands)

    await fake.wait_until(shown, 20)


# -- playing ------------------------------------------------------------------------------


def version_of(message: Message) -> int:
    for row in message.reply_markup or []:
        for button in row:
            data = button.get("callback_data")
            if data and data.startswith("m:"):
                return MoveButton.unpack(data).version
    return -1


def turn_message(
    fake: FakeTelegram, players: Sequence[User], after: int
) -> tuple[User, Message] | None:
    """The player whose hand says it is their turn, with buttons newer than `after` (a clock
    warning may follow the hand: it is the newest message with buttons that counts)."""
    for user in players:
        hand = find(fake, user, YOUR_TURN)
        keyboards = [m for m in bot_messages(fake, user) if m.reply_markup]
        if hand is not None and hand is keyboards[-1] and version_of(hand) > after:
            return user, hand
    return None


async def wait_turn(
    fake: FakeTelegram, players: Sequence[User], after: int = -1
) -> tuple[User, Message]:
    found: tuple[User, Message] = await fake.wait_until(
        lambda: turn_message(fake, players, after), 30
    )
    return found


def tiles_asking_an_end(state: GameState) -> set[int]:
    """Tiles the player to move could play at two ends with a different result."""
    plays = [m for m in legal_moves(state) if isinstance(m, Play)]
    if len(set(state.ends)) < 2:
        return set()
    return {m.tile for m in plays if sum(p.tile == m.tile for p in plays) > 1}


def is_end(label: str) -> bool:
    """Whether a button is a line's end («⬅ 3», «5 ➡»)."""
    return END_BUTTON.match(label) is not None


def end_buttons(message: Message) -> list[str]:
    """A message's end buttons, left first."""
    labels = [b for row in message.buttons for b in row if is_end(b)]
    return sorted(labels, key=lambda label: not label.startswith("⬅"))


def end_button(message: Message, end: int) -> str:
    """The label of the button of `end` (0: left, 1: right) on a hand asking which end."""
    ends = end_buttons(message)
    assert len(ends) == 2, message.buttons
    return ends[end]


def hand_asking(fake: FakeTelegram, user: User) -> Message | None:
    """The user's newest hand, if it asks which end. Not necessarily the one pressed: a
    hand sent anew meanwhile (a turn's first, a restart's, /start's) takes the question."""
    hands = [m for m in bot_messages(fake, user) if version_of(m) >= 0]
    newest = hands[-1] if hands else None
    asks = newest is not None and bool(end_buttons(newest))
    return newest if asks else None


async def wait_asking(fake: FakeTelegram, user: User) -> Message:
    """Wait for the user's hand to ask which end (after a tile's «Куда поставить?»)."""
    hand: Message = await fake.wait_until(lambda: hand_asking(fake, user), 20)
    return hand


Buttons = list[list[str]]
QUESTIONS = (PICK_END, *(RU(k) for k in ("hand-pick-face", "hand-pick-double", "hand-ready")))
LEAVE = (RU("back"), RU("hand-cancel"))
DONE = RU("hand-done")


def asking(fake: FakeTelegram, user: User, version: int, pressed: Buttons) -> Message | None:
    """The user's hand of this turn once it shows a question other than the buttons just
    pressed (the hand is edited in place)."""
    hands = [m for m in bot_messages(fake, user) if version_of(m) == version]
    if not hands or hands[-1].buttons == pressed:
        return None
    labels = [b for row in hands[-1].buttons for b in row]
    return hands[-1] if any(b in LEAVE for b in labels) else None


async def play_move(
    fake: FakeTelegram, players: Sequence[User], rng: random.Random, after: int
) -> int:
    """The player to move presses a legal tile (or draw / pass) and answers whatever the
    hand asks — which arm, open or closed, another double or «готово» — at random; the
    version of the buttons pressed."""
    user, hand = await wait_turn(fake, players, after)
    version, pressed = version_of(hand), hand.buttons
    choices = [b for row in pressed for b in row if b.startswith(PLAYABLE) or b in EXTRAS]
    answer = await press(fake, user, hand, rng.choice(choices))
    while answer in QUESTIONS:
        question: Message = await fake.wait_until(partial(asking, fake, user, version, pressed), 20)
        pressed = question.buttons
        options = [b for row in pressed for b in row if b not in LEAVE]
        if DONE in options and (len(options) == 1 or rng.random() < 0.7):
            label = DONE
        else:
            label = rng.choice([b for b in options if b != DONE])
        answer = await press(fake, user, question, label)
    return version


async def play_moves(
    fake: FakeTelegram, players: Sequence[User], rng: random.Random, count: int, after: int = -1
) -> int:
    """`count` random legal moves; the version of the last one's buttons."""
    for _ in range(count):
        after = await play_move(fake, players, rng, after)
    return after


@dataclass
class RestartAt:
    """A `between` hook for `play_until`: restarts the bot once, when the group shows
    `text`; `done` tells whether it has."""

    fake: FakeTelegram
    group: Chat
    bot: BotProcess
    text: str
    done: bool = False

    async def __call__(self) -> bool:
        if self.done or not find(self.fake, self.group, self.text):
            return False
        await self.bot.stop()
        await self.bot.start()
        self.done = True
        return True


async def play_until(
    fake: FakeTelegram,
    group: Chat,
    players: Sequence[User],
    rng: random.Random,
    text: str = GAME_OVER,
    max_moves: int = 2000,
    topic: int | None = None,
    after: int = -1,
    between: Callable[[], Awaitable[bool]] | None = None,
    wait: float = 30,
) -> int:
    """Moves until the group (topic) shows a new message with `text`; how many were made.

    A move is never cut short: before each one, wait `wait` seconds at most for either the
    text or a turn (`play_move`). `between` runs before each, and when it did something (a
    restart, a /leave) the wait starts again."""
    old = find(fake, group, text, topic)

    def shown() -> Message | None:
        message = find(fake, group, text, topic)
        return message if message is not old else None

    for moves in range(max_moves):
        ready = await fake.wait_until(
            lambda after=after: shown() or turn_message(fake, players, after),  # type: ignore[misc]
            wait,
        )
        if isinstance(ready, Message):
            return moves
        if between is not None and await between():
            continue
        after = await play_move(fake, players, rng, after)
    raise AssertionError(f"no «{text}» after {max_moves} moves")


def button_for(rules: RuleSet, move: Move) -> str:
    """The hand button that makes `move` (a tile press; the end is asked separately)."""
    assert isinstance(move, Play), move
    return PLAYABLE + rules.tiles.name(move.tile)


async def play_planned(
    fake: FakeTelegram, players: Sequence[User], rules: RuleSet, move: Move, after: int
) -> tuple[User, int]:
    """The player to move makes exactly `move` with the buttons (end asked → that end)."""
    user, hand = await wait_turn(fake, players, after)
    version = version_of(hand)
    answer = await press(fake, user, hand, button_for(rules, move))
    if answer == PICK_END:
        assert isinstance(move, Play)
        asking = await wait_asking(fake, user)
        await press(fake, user, asking, end_button(asking, move.end))
    return user, version


# -- the database, read-only --------------------------------------------------------------


POSTGRES_OF: dict[Path, str] = {}
"""The PostgreSQL database of a bot's folder, for the bots given one."""


def on_postgres(folder: Path, url: str) -> None:
    """The bot of `folder` keeps its data in the PostgreSQL database at `url`."""
    POSTGRES_OF[folder] = url


def query(folder: Path, sql: str, *params: Any) -> list[Any]:
    """Rows from the bot's database (its file opened read-only; the bot may be running)."""
    if folder in POSTGRES_OF:
        return postgres_rows(POSTGRES_OF[folder], sql, *params)
    uri = f"file:{folder / DB_NAME}?mode=ro"
    with contextlib.closing(sqlite3.connect(uri, uri=True, timeout=10)) as db:
        db.row_factory = sqlite3.Row
        return list(db.execute(sql, params))


def postgres_rows(url: str, sql: str, *params: Any) -> list[Any]:
    """Rows of one query in a PostgreSQL database, waited for like the file's (in a thread
    of its own: the caller's event loop is busy running the fake)."""

    async def fetch() -> list[Any]:
        connection = await asyncpg.connect(url)
        try:
            return list(await connection.fetch(numbered(sql), *params))
        finally:
            await connection.close()

    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, fetch()).result()


def games_in(folder: Path, chat_id: int) -> list[Any]:
    return query(folder, "SELECT * FROM games WHERE chat_id = ? ORDER BY id", chat_id)


def seats_of(folder: Path, game_id: int) -> list[int]:
    """User ids by seat."""
    rows = query(folder, "SELECT user_id FROM players WHERE game_id = ? ORDER BY seat", game_id)
    return [int(r["user_id"]) for r in rows]


def replay_game(folder: Path, game_id: int) -> GameState:
    """The game's state, replayed by the engine from its rules, seats, seed and move log."""
    (game,) = query(folder, "SELECT rules, seed FROM games WHERE id = ?", game_id)
    log = [
        json.loads(r["entry"])
        for r in query(folder, "SELECT entry FROM moves WHERE game_id = ? ORDER BY seq", game_id)
    ]
    seats = [str(u) for u in seats_of(folder, game_id)]
    return replay(RuleSet.from_options(json.loads(game["rules"])), seats, game["seed"], log)


def fresh_state(folder: Path, game_id: int) -> GameState:
    """The game's first deal, from its rules, seats and seed."""
    (game,) = query(folder, "SELECT rules, seed FROM games WHERE id = ?", game_id)
    seats = [str(u) for u in seats_of(folder, game_id)]
    return replay(RuleSet.from_options(json.loads(game["rules"])), seats, game["seed"], [])


def stored_state(folder: Path, game_id: int) -> GameState:
    """The game's state as the bot stored it."""
    (game,) = query(folder, "SELECT state FROM games WHERE id = ?", game_id)
    return state_from_json(json.loads(game["state"]))


@dataclass(frozen=True)
class Rated:
    """A player's line of a chat's rating."""

    games: int = 0
    wins: int = 0
    goats: int = 0
    points: int = 0

    def __add__(self, other: Rated) -> Rated:
        return Rated(
            self.games + other.games,
            self.wins + other.wins,
            self.goats + other.goats,
            self.points + other.points,
        )


def half_up_tenth(n: int) -> int:
    """round_half_up(n / 10) for a whole n."""
    return (n + 5) // 10


def rated(state: GameState) -> dict[int, Rated]:
    """RULES §2.6–§2.7 for a finished individual «Козёл» game, from the engine's tally:
    places by score, then remembered, then seat, goats last; rating points by the
    online-site formula, or by the distance to the first leaver when people left (they are
    the goats)."""
    assert state.outcome is not None, "the game is not over"
    rules, tally = state.rules, state.tally
    assert rules.scoring is Scoring.GOAT and not rules.teams, (
        "only individual «Козёл» is rated here"
    )
    scores, remembered = tally.scores, tally.remembered
    seats = range(rules.players)
    leaver = state.left[0] if state.left else None  # who left first: the others' measure
    goats = set(state.left) or {s for s in seats if scores[s] >= rules.target}
    order = sorted(seats, key=lambda s: (s in goats, scores[s], remembered[s], s))
    result = {}
    for place, seat in enumerate(order, start=1):
        if seat in goats:
            points = 0
        elif leaver is not None:
            points = max(1, half_up_tenth(scores[leaver] - scores[seat]))
        else:
            points = max(1, half_up_tenth(100 - scores[seat]))
        result[int(state.seats[seat])] = Rated(1, int(place == 1), int(seat in goats), points)
    return result


def expected_rating(folder: Path, chat_id: int) -> dict[int, Rated]:
    """The chat's rating recomputed from every finished game's replayed log."""
    total: dict[int, Rated] = {}
    for game in games_in(folder, chat_id):
        if game["status"] == "finished":
            for user_id, line in rated(replay_game(folder, game["id"])).items():
                total[user_id] = total.get(user_id, Rated()) + line
    return total


RATING_ROW = re.compile(r"^(\d+)\. (.+) — (\d+)(\*?) · (\d+) · (\d+) · (\d+) · (\d+)$")


def expected_skill(folder: Path, chat_id: int) -> dict[int, int]:
    """The shown skill rating of every rated player, recomputed here with openskill's
    Plackett–Luce model straight from the replayed games: round(1000 + 40·(μ − 3σ))."""
    model = PlackettLuce()
    skills: dict[int, Any] = {}
    for game in games_in(folder, chat_id):
        if game["status"] != "finished":
            continue
        state = replay_game(folder, game["id"])
        assert state.outcome is not None
        sides: dict[int, list[int]] = {}
        places: dict[int, int] = {}
        for place in state.outcome.places:
            sides.setdefault(place.side, []).append(int(state.seats[place.seat]))
            places[place.side] = place.place
        teams = [[skills.get(u) or model.rating() for u in users] for users in sides.values()]
        new = model.rate(teams, ranks=[places[side] for side in sides])
        for users, ratings in zip(sides.values(), new, strict=True):
            skills.update(zip(users, ratings, strict=True))
    return {u: round(1000 + 40 * (r.mu - 3 * r.sigma)) for u, r in skills.items()}


SCORE_PART = re.compile(r"^(.+?): (\d+)(?: \(\+(\d+)\))?$")


def skill_shown(mu: float, sigma: float) -> int:
    """The number players see: round(1000 + 40·(μ − 3σ))."""
    return round(1000 + 40 * (mu - 3 * sigma))


def shown_rating(text: str) -> list[tuple[str, int, Rated]]:
    """The rows of a /rating answer, in order: name, skill rating, the §2.7 sums; the ranks
    count 1, 2, … and a provisional mark goes with fewer than 5 games."""
    lines = text.splitlines()
    assert lines[1] == RU("rating-columns"), text
    rows: list[tuple[str, int, Rated]] = []
    for line in lines[2:]:
        if line.startswith("*"):
            continue
        match = RATING_ROW.match(line)
        assert match, f"not a rating row: {line!r}"
        rank, name, skill, mark, *numbers = match.groups()
        assert int(rank) == len(rows) + 1, text
        row = Rated(*map(int, numbers))
        assert bool(mark) == (row.games < 5), line
        rows.append((name, int(skill), row))
    return rows


def shown_scores(line: str) -> dict[str, tuple[int, int]]:
    """`Маша: 12 (+5) · Серёжа: 0` → {name: (score, remembered)} (eggs left out)."""
    scores = {}
    for part in line.split(" · "):
        if part.startswith("🥚"):
            continue
        match = SCORE_PART.match(part)
        assert match, f"not a score: {part!r}"
        scores[match[1]] = (int(match[2]), int(match[3] or 0))
    return scores


def engine_scores(state: GameState, names: dict[int, str]) -> dict[str, tuple[int, int]]:
    tally = state.tally
    return {
        names[int(user)]: (tally.scores[seat], tally.remembered[seat])
        for seat, user in enumerate(state.seats)
    }


def round_ends(folder: Path, game_id: int) -> list[RoundEnded]:
    """Every round result of the game, as the engine gives them when replaying its log."""
    state = fresh_state(folder, game_id)
    ended: list[RoundEnded] = []
    rows = query(folder, "SELECT entry FROM moves WHERE game_id = ? ORDER BY seq", game_id)
    for row in rows:
        state = step(state, json.loads(row["entry"]))
        last = state.last_round
        if last is not None and (not ended or ended[-1].round_no != last.round_no):
            ended.append(last)
    return ended


RESULT_HAND = re.compile(r"^(.+?): (.*) = (\d+)$")
RESULT_SCORE = re.compile(r"^(.+?): (\d+) → ([+-]\d+) → (\d+)(?: \(\+(\d+)\))?")


def check_round_message(text: str, ended: RoundEnded, names: Sequence[str]) -> None:
    """A round-result caption says what the engine's `RoundEnded` says: fish or who went
    out, each hand's value, and each score before → round → after (+remembered)."""
    head, *lines = text.splitlines()
    assert head.startswith(f"Раунд {ended.round_no}:"), head
    assert ("рыба" in head) == (ended.reason == "fish"), head
    if ended.reason == "fish" and not ended.eggs:
        assert f"рыбак — {names[ended.seat]}" in head, head
    elif ended.reason == "out":
        assert f"{names[ended.seat]} выходит" in head, head  # no «вышел(а)»
    split = lines.index("Счёт (было → раунд → стало):")
    hands = {m[1]: int(m[3]) for line in lines[:split] if (m := RESULT_HAND.match(line))}
    assert hands == {names[r.seat]: r.hand_value for r in ended.results}, text
    sheet = {}
    for line in lines[split + 1 :]:
        match = RESULT_SCORE.match(line)
        assert match, line
        sheet[match[1]] = (int(match[2]), int(match[3]), int(match[4]), int(match[5] or 0))
    assert sheet == {
        names[r.seat]: (r.score_before, r.round_points, r.score_after, r.remembered_after)
        for r in ended.results
    }, text


def bot_choices(state: GameState) -> list[Move]:
    """The moves buttons can make: a tile that fits two different ends once per end,
    otherwise the one the bot picks for a press (bot/handlers/play.py)."""
    legal = legal_moves(state)
    choices: list[Move] = []
    for move in legal:
        if not isinstance(move, Play):
            choices.append(move)
            continue
        plays = [m for m in legal if isinstance(m, Play) and m.tile == move.tile]
        if move is plays[0] or (len(set(state.ends)) > 1 and len(plays) > 1):
            choices.append(move)
    return choices


def plan_fish(state: GameState, budget: int = 50_000) -> list[Move]:
    """Moves (depth first) that end the current round with a fish («рыба»)."""
    nodes = 0

    def search(state: GameState) -> list[Move] | None:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            return None
        for move in bot_choices(state):
            after, _ = apply(state, move)
            if after.phase is not Phase.PLAYING:
                if after.last_round is not None and after.last_round.reason == "fish":
                    return [move]
                continue
            rest = search(after)
            if rest is not None:
                return [move, *rest]
        return None

    plan = search(state)
    assert plan is not None, "no fish within the search budget"
    return plan


END_ROW = re.compile(r"^(\d+)\. (.+) — (\d+)( 🐐 козёл)?, очки партии \+(\d+)$")


def names_by_id(fake: FakeTelegram) -> dict[int, str]:
    return {user.id: user.name for user in fake.users.values()}


def check_end_message(text: str, state: GameState, names: dict[int, str]) -> None:
    """«Игра окончена» lists places, scores, goats and game points as RULES §2.6–§2.7 say,
    after a line naming who left during a game that went on, and ends with the game and
    how it is won — and, in a game with computers, a line saying it is not rated."""
    *lines, footer = text.splitlines()[1:]
    if any(int(user) < 0 for user in state.seats):  # computers (negative ids): not rated
        assert footer == RU("game-unrated-computers"), text
        *lines, footer = lines
    assert RU("game-unrated-computers") not in lines, text
    assert footer == game_won(RU, state.rules), text
    assert state.outcome is not None
    if state.outcome.reason != "timeout" and state.left:
        leaver = names[int(state.seats[state.left[0]])]
        assert lines.pop(0) == RU("game-over-left", name=leaver), text
    expected = rated(state)
    by_place = sorted(expected, key=lambda user: -expected[user].wins)
    shown = [END_ROW.match(line) for line in lines]
    assert all(shown), text
    rows = {m[2]: (int(m[3]), bool(m[4]), int(m[5])) for m in shown if m}
    seat = {int(user): s for s, user in enumerate(state.seats)}
    assert rows == {
        names[u]: (state.tally.scores[seat[u]], bool(r.goats), r.points)
        for u, r in expected.items()
    }, text
    assert shown[0] is not None and shown[0][2] == names[by_place[0]], text


async def check_rating(
    fake: FakeTelegram, bot: BotProcess, group: Chat, asker: User, topic: int | None = None
) -> list[tuple[str, int, Rated]]:
    """/rating shows, for every player of the chat's finished games (up to 10), the skill
    rating and the sums of RULES §2.7 points, wins and goats, best rating first."""
    asked = await say(fake, bot, asker, group, "/rating", topic=topic)
    (answer,) = replies_to(fake, group, asked)
    rows = shown_rating(answer.content or "")
    names = names_by_id(fake)
    expected = expected_rating(bot.folder, group.id)
    skill = expected_skill(bot.folder, group.id)
    assert {name: (rating, r) for name, rating, r in rows} == {
        names[u]: (skill[u], r) for u, r in expected.items()
    }, answer.content
    order = sorted(
        expected,
        key=lambda u: (-skill[u], -expected[u].points, -expected[u].wins, expected[u].goats, u),
    )
    assert [name for name, _, _ in rows] == [names[u] for u in order], answer.content
    return rows


async def check_finished_game(
    fake: FakeTelegram,
    bot: BotProcess,
    group: Chat,
    asker: User,
    game_id: int,
    since: int | None = None,
) -> GameState:
    """The game's round results, its end message and /score match the engine's replay of
    its log; /rating matches every finished game of the chat. The game's messages are the
    group's (topic's) after message `since` (default: the game's lobby)."""
    (game,) = query(bot.folder, "SELECT * FROM games WHERE id = ?", game_id)
    assert game["status"] == "finished", dict(game)
    state = replay_game(bot.folder, game_id)
    assert state.outcome is not None
    timeout = state.outcome.reason == "timeout"
    names = names_by_id(fake)
    seat_names = [names[int(user)] for user in state.seats]
    first = game["lobby_message_id"] if since is None else since
    messages = [
        m
        for m in bot_messages(fake, group)
        if m.message_id > first and m.thread_id == (game["thread_id"] or None)
    ]
    results = [m for m in messages if "Счёт (было → раунд → стало)" in (m.content or "")]
    ends = round_ends(bot.folder, game_id)
    assert len(results) == len(ends) == state.round_no - timeout
    for message, ended in zip(results, ends, strict=True):
        check_round_message(message.content or "", ended, seat_names)
    (end,) = [m for m in messages if (m.content or "").startswith(GAME_OVER)]
    check_end_message(end.content or "", state, names)
    topic = game["thread_id"] or None
    asked = await say(fake, bot, asker, group, "/score", topic=topic)
    (answer,) = replies_to(fake, group, asked)
    lines = (answer.content or "").splitlines()
    assert lines[0] == f"Счёт после раунда {len(ends)}:", answer.content
    assert shown_scores(lines[1]) == engine_scores(state, names), answer.content
    assert "\n".join(lines[2:]) == (end.content or ""), answer.content
    await check_rating(fake, bot, group, asker, topic)
    return state
