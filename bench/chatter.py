"""Chatter: how late a group's table shows a move while the group keeps sending commands.

    python bench/chatter.py [--groups 5] [--seconds 60] [--every 2.0] [--think 2.0] [--players 4]

The real bot process against the fake Bot API, G groups of 4 people set up and playing as
in bench/load.py (flood limits on once the games are dealt). While they play, someone in
each group sends a command — /score, /rating, /stats, /rules, /help or /newgame, at random
— every `--every` seconds (N(every, every/4), at least every/4), far more than the 20
messages a minute the group's replies could take.

For every move pressed in the measured window: the table's delay, from the press to the
arrival of the first table picture in the group that shows the move (or a later state).
Which state a picture shows is found afterwards: each game is replayed from its stored
move log and every state drawn as the bot draws it, so a picture's bytes name its move.

For every command sent in the window, how it was answered (bot/telegram/asking.py) and
how long after it was sent: `in_group` (a reply to it), `privately` (a message to the
sender headed «💬 /command в «group»»), `shared` (the group's reply to the same command —
from the same person for /stats — arriving within 30 s of it; for /newgame while a game
runs, the «a game is already here» pointer), or `unanswered`.

Prints progress to stderr and, as its last line, JSON {"groups", "moves",
"table_delay_ms_p50", "table_delay_ms_p95", "table_delay_ms_max", "moves_not_shown",
"commands", "unanswered", "answered_in_group", "answered_privately", "answered_shared",
"answer_ms_p50", "answer_ms_p95", "answer_ms_max", "replies", "http_429",
"latency_ms_p95", …}: replies are the bot's messages in the groups other than the
game's (its lobby, table and results).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import random
import sqlite3
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

# this file is called like a package of the repository: look packages up from its root
ROOT = Path(__file__).resolve().parents[1]
sys.path[0] = str(ROOT)

from bench.load import (  # noqa: E402
    SETTLE_SECONDS,
    BotRun,
    LoadFake,
    Table,
    Tally,
    latencies,
    ms,
    paused,
    percentile,
    say,
    set_up,
)
from bot.game.engine import new_game  # noqa: E402
from bot.game.rules import RuleSet  # noqa: E402
from bot.game.serial import step  # noqa: E402
from bot.playground import (  # noqa: E402
    CallbackAnswer,
    Chat,
    FloodLimits,
    Message,
    User,
)
from bot.telegram.buttons import MoveButton  # noqa: E402
from bot.ui.i18n import texts_for  # noqa: E402
from bot.ui.scenes import table_scene  # noqa: E402
from render import render_table  # noqa: E402
from tests.e2e.stored import DB_NAME  # noqa: E402

COMMANDS = ("/score", "/rating", "/stats", "/rules", "/help", "/newgame")
GAME_MESSAGES = ("Собираем стол", "Раунд ")  # the lobby, round results (tables are photos)
PROGRESS_SECONDS = 10.0
ANSWERS_SETTLE = 20.0  # after the window: the reply's patience (10 s) and a private send
SHARED_WITHIN = 30.0  # an answer in the group this close to a command answers it too
PERSONAL = ("/stats",)  # commands whose answer is about the person who asked
ALREADY_HERE = texts_for("ru")("already-running")


class Answered(StrEnum):
    IN_GROUP = "in_group"
    PRIVATELY = "privately"
    SHARED = "shared"
    UNANSWERED = "unanswered"


@dataclass(frozen=True, slots=True)
class Sent:
    """A message that arrived: when, in which chat, what it replies to, what it says."""

    at: float
    chat: int
    reply_to: int | None
    content: str


@dataclass(frozen=True, slots=True)
class Asked:
    """A command a person sent in a group."""

    at: float
    chat: Chat
    user: User
    message_id: int
    command: str


def digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=8).hexdigest()


class ChatterFake(LoadFake):
    """The load test's fake that also keeps when each picture and each text the bot sent
    to a group arrived (a picture as a digest of its bytes)."""

    def __init__(self, limits: FloodLimits) -> None:
        super().__init__(limits, decode_photos=False)
        self.pictures: dict[int, list[tuple[float, str]]] = defaultdict(list)
        self.texts: dict[int, list[tuple[float, str]]] = defaultdict(list)
        self.sent: list[Sent] = []  # every message of the bot, in any chat

    def _new_message(self, chat: Chat, sender: User | None, **fields: Any) -> Message:
        message = super()._new_message(chat, sender, **fields)
        if message.from_bot and message.photo is None and chat.id < 0:
            self.texts[chat.id].append((self.now(), message.content or ""))
        if message.from_bot:
            replied = None if message.reply_to is None else message.reply_to.message_id
            self.sent.append(Sent(self.now(), chat.id, replied, message.content or ""))
        self._picture(message)
        return message

    def _apply_edit(self, message: Message, **changes: Any) -> dict[str, Any]:
        result = super()._apply_edit(message, **changes)
        self._picture(message)
        return result

    def _picture(self, message: Message) -> None:
        if message.from_bot and message.photo is not None and message.chat.id < 0:
            self.pictures[message.chat.id].append((self.now(), digest(message.photo.data)))


class ChattyTable(Table):
    """A group that plays (bench/load.py) and remembers the move number of each press."""

    def __init__(self, fake: LoadFake, index: int, args: argparse.Namespace) -> None:
        super().__init__(fake, Tally(), index, args)
        self.versions: dict[float, int] = {}
        """Press time → the move number of the hand pressed."""
        self.asked: list[Asked] = []

    async def press(self, user: User, hand: Message, data: str) -> tuple[CallbackAnswer, float]:
        answer, at = await super().press(user, hand, data)
        self.versions[at] = MoveButton.unpack(data).version
        return answer, at

    async def chatter(self, stop: asyncio.Event, every: float) -> None:
        """Someone sends a random command every `every` seconds until `stop`."""
        rng = random.Random(self.rng.random())
        while not await paused(stop, max(every / 4, rng.gauss(every, every / 4))):
            user, command = rng.choice(self.players), rng.choice(COMMANDS)
            message = self.fake.user_sends(user, self.chat, command)
            self.asked.append(Asked(self.fake.now(), self.chat, user, message.message_id, command))


def drawn_states(database: Path, chat_id: int) -> dict[str, int]:
    """Digest of the picture of each state of the chat's games → the earliest move number
    drawn so (the state after that many entries of the move log)."""
    t = texts_for("ru")
    drawn: dict[str, int] = {}
    with sqlite3.connect(database) as db:
        games = "SELECT id, rules, seed FROM games WHERE chat_id = ? AND state IS NOT NULL"
        for game_id, rules, seed in db.execute(games, (chat_id,)).fetchall():
            players = "SELECT user_id, name FROM players WHERE game_id = ? ORDER BY seat"
            seats = db.execute(players, (game_id,)).fetchall()
            names = [name for _, name in seats]
            moves = "SELECT entry FROM moves WHERE game_id = ? ORDER BY seq"
            log = [json.loads(entry) for (entry,) in db.execute(moves, (game_id,))]
            ruleset = RuleSet.from_options(json.loads(rules))
            state = new_game(ruleset, [str(user_id) for user_id, _ in seats], seed)[0]
            drawn.setdefault(digest(render_table(table_scene(t, state, names))), 0)
            for number, entry in enumerate(log, 1):
                state = step(state, entry)
                drawn.setdefault(digest(render_table(table_scene(t, state, names))), number)
    return drawn


def table_delays(fake: ChatterFake, table: ChattyTable, database: Path) -> list[float | None]:
    """Seconds from each move pressed in the window to the first picture showing it (None:
    never shown)."""
    drawn = drawn_states(database, table.chat.id)
    shown = [(at, drawn.get(picture, -1)) for at, picture in fake.pictures[table.chat.id]]
    delays: list[float | None] = []
    for pressed in table.tally.moves:
        if not table.tally.inside(pressed):
            continue
        number = table.versions[pressed] + 1  # the log entry the press made
        first = next((at for at, seen in shown if at >= pressed and seen >= number), None)
        delays.append(None if first is None else first - pressed)
    return delays


def answers(fake: ChatterFake, asked: list[Asked]) -> list[tuple[Answered, float | None]]:
    """How each command was answered, and the seconds from it to its answer."""
    replied = {
        (sent.chat, sent.reply_to): sent.at for sent in fake.sent if sent.reply_to is not None
    }
    private = [sent for sent in fake.sent if sent.chat > 0 and sent.content.startswith("💬 ")]
    taken: set[int] = set()
    found: list[tuple[Answered, float | None]] = []
    for ask in asked:
        at = replied.get((ask.chat.id, ask.message_id))
        if at is not None:
            found.append((Answered.IN_GROUP, at - ask.at))
            continue
        heading = f"💬 {ask.command} в «{ask.chat.title}»"
        mine = (
            i
            for i, sent in enumerate(private)
            if i not in taken
            and sent.chat == ask.user.id
            and sent.at >= ask.at
            and sent.content.startswith(heading)
        )
        if (index := next(mine, None)) is not None:
            taken.add(index)
            found.append((Answered.PRIVATELY, private[index].at - ask.at))
            continue
        shared = [at - ask.at for at in shared_answers(fake, asked, ask, replied)]
        near = [delay for delay in shared if -SHARED_WITHIN <= delay <= SHARED_WITHIN]
        found.append(
            (Answered.SHARED, max(0.0, min(near, key=abs))) if near else (Answered.UNANSWERED, None)
        )
    return found


def shared_answers(
    fake: ChatterFake, asked: list[Asked], ask: Asked, replied: dict[tuple[int, int], float]
) -> list[float]:
    """When answers to the same command (or, for /newgame, «a game is already here»)
    arrived in its group."""
    if ask.command == "/newgame":
        return [s.at for s in fake.sent if s.chat == ask.chat.id and s.content == ALREADY_HERE]
    return [
        replied[other.chat.id, other.message_id]
        for other in asked
        if other.chat.id == ask.chat.id
        and other.command == ask.command
        and (other.user is ask.user or ask.command not in PERSONAL)
        and (other.chat.id, other.message_id) in replied
    ]


def replies(fake: ChatterFake, tables: list[ChattyTable], window: tuple[float, float]) -> int:
    """The bot's texts to the groups in the window, other than the game's own."""
    return sum(
        1
        for table in tables
        for at, text in fake.texts[table.chat.id]
        if window[0] <= at < window[1] and not any(game in text for game in GAME_MESSAGES)
    )


async def run(args: argparse.Namespace) -> dict[str, Any]:
    limits = FloodLimits()
    with tempfile.TemporaryDirectory(prefix="kozel-chatter-") as folder:
        async with ChatterFake(limits) as fake:
            bot = BotRun(fake, Path(folder), args.log_level)
            try:
                await bot.start()
                tables = [ChattyTable(fake, i, args) for i in range(args.groups)]
                await set_up(tables)
                fake.flood = True
                stop = asyncio.Event()
                tasks = [asyncio.ensure_future(t.play(stop)) for t in tables]
                tasks += [asyncio.ensure_future(t.chatter(stop, args.every)) for t in tables]
                start = fake.now()
                window = (start, start + args.seconds)
                for table in tables:
                    table.tally.window = window
                say(f"measuring {args.seconds:.0f} s with {args.groups} chatty groups")
                while (left := window[1] - fake.now()) > 0:
                    await asyncio.sleep(min(PROGRESS_SECONDS, left))
                    floods = len(fake.flood_events)
                    say(f"{fake.now() - start:5.0f} s: 429 ×{floods}")
                stop.set()
                await asyncio.sleep(max(SETTLE_SECONDS, ANSWERS_SETTLE))  # the last answers
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
            finally:
                await bot.stop()
            delays = [d for t in tables for d in table_delays(fake, t, bot.folder / DB_NAME)]
            return report(args, fake, bot, tables, delays, window)


def report(
    args: argparse.Namespace,
    fake: ChatterFake,
    bot: BotRun,
    tables: list[ChattyTable],
    delays: list[float | None],
    window: tuple[float, float],
) -> dict[str, Any]:
    shown = [d for d in delays if d is not None]
    asked = [ask for table in tables for ask in table.asked if window[0] <= ask.at < window[1]]
    found = answers(fake, asked)
    waited = [delay for _, delay in found if delay is not None]
    kinds = {kind: sum(1 for k, _ in found if k is kind) for kind in Answered}
    tally = Tally(window=window)
    for table in tables:
        tally.presses += table.tally.presses
    served, _, spinner, _ = latencies(fake, tally)
    floods = [e for e in fake.flood_events if window[0] <= e.at < window[1]]
    return {
        "groups": args.groups,
        "seconds": args.seconds,
        "every": args.every,
        "think": args.think,
        "seed": args.seed,
        "moves": len(delays),
        "table_delay_ms_p50": ms(percentile(shown, 0.5)),
        "table_delay_ms_p95": ms(percentile(shown, 0.95)),
        "table_delay_ms_max": ms(max(shown, default=float("nan"))),
        "moves_not_shown": len(delays) - len(shown),
        "commands": len(asked),
        "unanswered": kinds[Answered.UNANSWERED],
        "answered_in_group": kinds[Answered.IN_GROUP],
        "answered_privately": kinds[Answered.PRIVATELY],
        "answered_shared": kinds[Answered.SHARED],
        "answer_ms_p50": ms(percentile(waited, 0.5)),
        "answer_ms_p95": ms(percentile(waited, 0.95)),
        "answer_ms_max": ms(max(waited, default=float("nan"))),
        "replies": replies(fake, tables, window),
        "http_429": len(floods),
        "latency_ms_p95": ms(percentile(served, 0.95)),
        "press_to_answer_ms_p95": ms(percentile(spinner, 0.95)),
        "bot_errors": bot.errors,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=60.0, help="the measured window")
    parser.add_argument("--every", type=float, default=2.0, help="a command this often")
    parser.add_argument("--think", type=float, default=2.0, help="mean think time, seconds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4, help="people at each table")
    parser.add_argument("--target", type=int, default=10_000, help="the games' target score")
    parser.add_argument("--log-level", default="INFO", help="the bot's LOG_LEVEL")
    args = parser.parse_args()
    result = asyncio.run(run(args))
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
