"""How a group command is answered beside the game's messages (bot/telegram/asking.py),
without a server: a steering answer is never skipped; an information answer is a reply in
a quiet group, goes to the asker's private chat, in their language, while a game runs and
the group has no place to spare, else waits for the group (with no game running, or when
the bot may not write to them); the same answer asked again while the group is busy is
not sent twice."""

from __future__ import annotations

import asyncio
import datetime
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from aiogram.dispatcher.event.handler import HandlerObject
from aiogram.exceptions import TelegramForbiddenError
from aiogram.methods import Response, SendMessage
from aiogram.types import Chat, InlineKeyboardButton, InlineKeyboardMarkup, Message, User

from bot.core.rows import GameStatus
from bot.telegram.asking import Askers, CommandKind
from bot.telegram.gates import Pace
from bot.telegram.lanes import Lanes
from bot.telegram.pacing import Limits, Pacing
from bot.ui.i18n import texts_for

GROUP, PATIENCE = -100, 0.3
OLYA, PETYA = 5, 6


class Telegram:
    """A fake session end: the texts that arrived in each chat; users who never opened
    their private chat get a 403."""

    def __init__(self, closed: set[int] = frozenset()) -> None:  # type: ignore[assignment]
        self.closed = closed
        self.arrived: list[tuple[int, str, Any]] = []

    async def __call__(self, bot: Any, method: Any) -> Response[Any]:
        if method.chat_id in self.closed:
            raise TelegramForbiddenError(method=method, message="bot can't initiate conversation")
        self.arrived.append((method.chat_id, method.text, method.reply_markup))
        return Response[Any](ok=True, result=True)

    def texts(self, chat: int) -> list[str]:
        return [text for where, text, _ in self.arrived if where == chat]


@dataclass
class Stored:
    """What `Askers` reads (as `service` and `chats`): whether a game runs in the group,
    and the private chats' languages (everyone has opened theirs)."""

    running: bool = False
    languages: dict[int, str] = field(default_factory=dict)

    async def open_game(self, chat: int, thread: int) -> Any:
        return SimpleNamespace(status=GameStatus.ACTIVE) if self.running else None

    async def has_started(self, user: int) -> bool:
        return True

    async def language(self, user: int) -> tuple[str | None, str | None]:
        return self.languages.get(user), None


def command(user: int, text: str) -> Message:
    return Message(
        message_id=user,
        date=datetime.datetime.now(datetime.UTC),
        chat=Chat(id=GROUP, type="supergroup", title="Двор"),
        from_user=User(id=user, is_bot=False, first_name="Оля"),
        text=text,
    )


async def ask(
    pacing: Pacing,
    telegram: Telegram,
    user: int,
    text: str,
    answer: str,
    kind: CommandKind,
    stored: Stored | None = None,
) -> str:
    """The command `text` by `user`, handled by a handler flagged `kind` that answers
    `answer` (with a button) in the group; the language of the texts it was given."""

    async def handler(event: Any, data: dict[str, Any]) -> str:
        button = InlineKeyboardButton(text="›", callback_data="page")
        markup = InlineKeyboardMarkup(inline_keyboard=[[button]])
        method = SendMessage(chat_id=GROUP, text=answer, reply_markup=markup)
        await pacing(telegram, None, method)  # type: ignore[arg-type]
        return str(data["t"].language)

    flagged = HandlerObject(callback=handler, flags={"asked": kind})
    stored = stored or Stored()
    data = {"t": texts_for("ru"), "handler": flagged, "service": stored, "chats": stored}
    askers = Askers(pacing.crowded)
    return str(await asyncio.create_task(askers(handler, command(user, text), data)))


def busy(pacing: Pacing, telegram: Telegram, tables: int) -> Lanes:
    """The game's lane in the group with `tables` pictures to send."""
    lanes = Lanes(pacing)

    async def table(text: str) -> None:
        await pacing(telegram, None, SendMessage(chat_id=GROUP, text=text))  # type: ignore[arg-type]

    for n in range(tables):
        lanes.post(GROUP, table, f"table {n}")
    return lanes


def limits() -> Limits:
    return Limits(group=Pace(1, 0.25), reply_patience=PATIENCE)


async def test_information_in_a_quiet_group_is_a_reply_there() -> None:
    pacing, telegram = Pacing(limits()), Telegram()
    await ask(pacing, telegram, OLYA, "/score", "Счёт: 12", CommandKind.INFO)
    assert telegram.texts(GROUP) == ["Счёт: 12"]
    assert telegram.texts(OLYA) == []


async def test_information_while_the_game_plays_goes_to_the_private_chat_at_once() -> None:
    """The game's lane has six tables to send (1.5 s of the group's places): the answer
    goes to Оля's private chat, headed with why and without buttons, before they are out;
    Петя, who reads English, gets his written in English."""
    pacing, telegram = Pacing(Limits(group=Pace(1, 0.25), reply_patience=5.0)), Telegram()
    stored = Stored(running=True, languages={PETYA: "en"})
    lanes = busy(pacing, telegram, 6)
    await asyncio.sleep(0.01)
    olya = await ask(
        pacing, telegram, OLYA, "/score@kozel_bot", "Счёт: 12", CommandKind.INFO, stored
    )
    petya = await ask(pacing, telegram, PETYA, "/rules", "Rules", CommandKind.INFO, stored)
    assert (olya, petya) == ("ru", "en")
    why = texts_for("ru")("answered-privately", command="/score", chat="Двор")
    assert "идёт игра" in why
    assert telegram.texts(OLYA) == [f"{why}\n\nСчёт: 12"]
    assert telegram.texts(PETYA) == [
        texts_for("en")("answered-privately", command="/rules", chat="Двор") + "\n\nRules"
    ]
    assert len(telegram.texts(GROUP)) < 6
    assert [markup for chat, _, markup in telegram.arrived if chat == OLYA] == [None]
    await lanes.close()
    assert "Счёт: 12" not in telegram.texts(GROUP)


async def test_information_while_a_game_just_over_is_sent_waits_for_the_group() -> None:
    """The game's lane is sending the results (no game runs any more): the group has no
    place to spare, but the answer waits for its place there, in the group's language."""
    pacing, telegram = Pacing(Limits(group=Pace(1, 0.25), reply_patience=0.3)), Telegram()
    stored = Stored(languages={OLYA: "en"})
    lanes = busy(pacing, telegram, 6)
    await asyncio.sleep(0.01)
    assert await ask(pacing, telegram, OLYA, "/rating", "Рейтинг", CommandKind.INFO, stored) == "ru"
    await lanes.close()
    assert telegram.texts(GROUP)[-1] == "Рейтинг"
    assert telegram.texts(OLYA) == []


async def test_information_beside_a_game_with_room_to_spare_is_a_reply_there() -> None:
    """The lobby was just edited (a lane sent), but the group has places to spare: /rules
    is answered in the group, where everyone gathering sees it."""
    pacing, telegram = Pacing(Limits(group=Pace(3, 5.0), reply_patience=5.0)), Telegram()
    lanes = busy(pacing, telegram, 1)
    await lanes.close()
    await ask(pacing, telegram, OLYA, "/rules", "Правила: Козёл", CommandKind.INFO)
    assert telegram.texts(GROUP) == ["table 0", "Правила: Козёл"]
    assert telegram.texts(OLYA) == []


async def test_information_finding_no_place_in_time_waits_for_the_group() -> None:
    """No game, but the group's place is taken by another answer for longer than the
    patience: the answer waits for the group."""
    pacing, telegram = Pacing(Limits(group=Pace(1, 1.0), reply_patience=PATIENCE)), Telegram()
    await ask(pacing, telegram, PETYA, "/help", "Помощь", CommandKind.INFO)
    await ask(pacing, telegram, OLYA, "/score", "Счёт: 12", CommandKind.INFO)
    assert telegram.texts(GROUP) == ["Помощь", "Счёт: 12"]
    assert telegram.texts(OLYA) == []


async def test_information_for_a_closed_private_chat_waits_for_the_group() -> None:
    pacing, telegram = Pacing(limits()), Telegram(closed={PETYA})
    lanes = busy(pacing, telegram, 6)
    await asyncio.sleep(0.01)
    await ask(pacing, telegram, PETYA, "/rules", "Правила: Козёл", CommandKind.INFO, Stored(True))
    await lanes.close()
    assert telegram.texts(GROUP)[-1] == "Правила: Козёл"  # after the game's tables


async def test_a_steering_answer_is_never_skipped_and_goes_before_other_replies() -> None:
    pacing, telegram = Pacing(limits()), Telegram(closed={OLYA})
    lanes = busy(pacing, telegram, 6)
    await asyncio.sleep(0.01)
    info = asyncio.create_task(ask(pacing, telegram, OLYA, "/help", "Помощь", CommandKind.INFO))
    await asyncio.sleep(0.01)
    await ask(pacing, telegram, OLYA, "/endgame", "Закончить игру?", CommandKind.STEER)
    await info
    await lanes.close()
    group = telegram.texts(GROUP)
    assert group.index("Закончить игру?") < group.index("Помощь"), group


async def test_the_same_answer_in_a_busy_group_is_shared() -> None:
    """/score twice (by Оля, then by Петя, neither of whom opened the private chat) while
    the group is busy: one answer in the group answers both; a different answer is still
    sent."""
    limits = Limits(group=Pace(1, 0.25), reply_patience=5.0)
    pacing, telegram = Pacing(limits), Telegram(closed={OLYA, PETYA})
    lanes = busy(pacing, telegram, 3)
    await asyncio.sleep(0.01)
    asked = [
        asyncio.create_task(ask(pacing, telegram, user, text, answer, CommandKind.INFO))
        for user, text, answer in (
            (OLYA, "/score", "Счёт: 12"),
            (PETYA, "/score", "Счёт: 12"),
            (PETYA, "/help", "Помощь"),
        )
    ]
    await asyncio.gather(*asked)
    await lanes.close()
    assert telegram.texts(GROUP).count("Счёт: 12") == 1
    assert "Помощь" in telegram.texts(GROUP)
