"""End-to-end harness: the real bot process (`python -m bot`) against the fake Bot API,
and players who act only through what their chats show them."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path

from bot.keyboards import MoveButton
from tests.fakebot import TOKEN, FakeTelegram
from tests.fakebot.models import Chat, Message, User

ROOT = Path(__file__).resolve().parent.parent
LOBBY = "Собираем стол"
YOUR_TURN = "Ваш ход"
GAME_OVER = "Игра окончена"
PLAYABLE = "✅ "
EXTRAS = ("🎒 Взять из базара", "Пас")
ENDS = ("⬅ Налево", "Направо ➡")


@dataclass
class BotProcess:
    """`python -m bot` on a database in `folder`, talking to `fake`."""

    fake: FakeTelegram
    folder: Path
    process: asyncio.subprocess.Process | None = None
    logs: list[bytes] = field(default_factory=list)

    async def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if k not in {"BOT_TOKEN", "TELEGRAM_API_BASE"}}
        env |= {
            "PYTHONPATH": str(ROOT),
            "BOT_TOKEN": TOKEN,
            "TELEGRAM_API_BASE": self.fake.base,
            "DATABASE_PATH": str(self.folder / "kozel.sqlite3"),
        }
        polls = len(self.fake.calls_of("getUpdates"))
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=self.folder,
            env=env,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        await self.fake.wait_until(lambda: len(self.fake.calls_of("getUpdates")) > polls, 30)

    async def stop(self, sig: int = signal.SIGTERM) -> str:
        """Stop the process (SIGKILL to crash it); its log."""
        assert self.process is not None
        if self.process.returncode is None:
            self.process.send_signal(sig)
        _, stderr = await self.process.communicate()
        self.process = None
        return stderr.decode()


def bot_messages(fake: FakeTelegram, chat: Chat | User) -> list[Message]:
    return [m for m in fake.messages(chat) if m.from_bot and m.service is None]


def find(fake: FakeTelegram, chat: Chat | User, text: str) -> Message | None:
    """The bot's newest message in `chat` containing `text`."""
    return next((m for m in reversed(bot_messages(fake, chat)) if text in (m.content or "")), None)


async def wait_text(
    fake: FakeTelegram, chat: Chat | User, text: str, timeout: float = 20
) -> Message:
    found: Message = await fake.wait_until(lambda: find(fake, chat, text), timeout)
    return found


async def press(fake: FakeTelegram, user: User, message: Message, button: str) -> str:
    """Press a callback button and wait for the bot's answer; the answer's text."""
    query = fake.user_presses(user, message, button)
    answer = await fake.wait_until(lambda: fake.answer_for(query), 20)
    return str(answer.text or "")


async def open_lobby(fake: FakeTelegram, group: Chat, creator: User, options: str = "") -> Message:
    fake.user_sends(creator, group, f"/newgame {options}".strip())
    return await wait_text(fake, group, LOBBY)


async def join(fake: FakeTelegram, group: Chat, user: User) -> None:
    """Press «Сесть за стол», follow the deep link, see your name in the lobby."""
    lobby = await wait_text(fake, group, LOBBY)
    url = fake.user_presses(user, lobby, "🎲 Сесть за стол")
    fake.follow_link(user, url)
    await fake.wait_until(
        lambda: (
            user.name in (lobby.content or "").split("Игроки:")[1].split("\n")[0]
            and "Откройте" not in (lobby.content or "")
        ),
        20,
    )


def version_of(message: Message) -> int:
    for row in message.reply_markup or []:
        for button in row:
            data = button.get("callback_data")
            if data and data.startswith("m:"):
                return MoveButton.unpack(data).version
    return -1


def turn_message(
    fake: FakeTelegram, players: list[User], after: int
) -> tuple[User, Message] | None:
    """The player whose hand says it is their turn, with buttons newer than `after`."""
    for user in players:
        hand = find(fake, user, YOUR_TURN)
        if hand is not None and hand is bot_messages(fake, user)[-1] and version_of(hand) > after:
            return user, hand
    return None


async def play_move(
    fake: FakeTelegram, players: list[User], rng: random.Random, after: int
) -> tuple[User, Message, int]:
    """The player to move presses a legal button (and picks an end if asked)."""
    user, hand = await fake.wait_until(lambda: turn_message(fake, players, after), 30)
    version = version_of(hand)
    choices = [b for row in hand.buttons for b in row if b.startswith(PLAYABLE) or b in EXTRAS]
    answer = await press(fake, user, hand, rng.choice(choices))
    if answer == "Куда поставить?":
        await fake.wait_until(lambda: any(ENDS[0] in row for row in hand.buttons), 20)
        await press(fake, user, hand, rng.choice(ENDS))
    return user, hand, version


async def play_until(
    fake: FakeTelegram,
    group: Chat,
    players: list[User],
    rng: random.Random,
    text: str = GAME_OVER,
    max_moves: int = 2000,
) -> int:
    """Moves until the group shows `text`; how many were made."""
    after = -1
    for moves in range(max_moves):
        if find(fake, group, text):
            return moves
        done = asyncio.ensure_future(fake.wait_until(lambda: find(fake, group, text), 30))
        move = asyncio.ensure_future(play_move(fake, players, rng, after))
        await asyncio.wait({done, move}, return_when=asyncio.FIRST_COMPLETED)
        if move.done():
            done.cancel()
            _, _, after = move.result()
        else:
            move.cancel()
            return moves
    raise AssertionError(f"no «{text}» after {max_moves} moves")
