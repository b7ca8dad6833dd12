"""How a command typed in a group is answered beside the game's own messages.

Each group command's handler carries a flag (`flags={"asked": CommandKind.…}`):

* `CommandKind.STEER` (/endgame, /kick, /extend, /leave, /settings, /nextgame) changes the game
  or the chat: its answer is part of the game's traffic — it waits for the group's place
  ahead of other answers, and is never skipped;
* `CommandKind.INFO` (/score, /rating, /stats, /rules, /help; the default): while a game runs in
  the command's topic and the group has no place to spare when it is asked, the answer is
  written in the asker's language and goes to their private chat at once, headed with the
  command, the group and why, without buttons (links kept); /stats' badges picture too,
  under its caption. Otherwise (no game running: a
  lobby, or the results of a game just over, leave the group its minute; or the bot may
  not write to them, or it is blocked there) it is a reply in the group, sent when a place
  comes there, however long that takes. The same answer asked again within
  `SHARED_WITHIN` seconds while the group is busy is not sent twice: the first one, in the
  group, answers both. /newgame while a game runs is answered so too: «a game is already
  here», with a link.

`Askers` (a dispatcher middleware) records who asked what for the pacing middleware,
which sends the answer (`bot.telegram.pacing`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Hashable
from contextvars import ContextVar
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from aiogram import BaseMiddleware
from aiogram.dispatcher.flags import get_flag
from aiogram.methods import SendMessage, SendPhoto, TelegramMethod
from aiogram.types import InlineKeyboardMarkup, Message, TelegramObject

from bot.core.chats import Chats
from bot.core.rows import GameStatus
from bot.core.service import GameService
from bot.ui.i18n import Texts, language_of, texts_for
from bot.ui.texts import CAPTION, fit

SHARED_WITHIN = 30.0  # seconds in which the same answer in a busy group answers everyone


class CommandKind(StrEnum):
    """What a group command does, so how its answer may wait (see the module)."""

    STEER = "steer"
    INFO = "info"


@dataclass(frozen=True, slots=True)
class Asker:
    """A command being handled: what it is, where, by whom, whether its answer goes to the
    private chat (`away`) and its heading there. Valid in the task that handles it
    (`asking`)."""

    kind: CommandKind
    chat: int
    user: int | None  # None: sent on behalf of the group or a channel
    heading: str
    task: asyncio.Task[Any] | None
    away: bool = False

    def privately(self, method: TelegramMethod[Any]) -> SendMessage | SendPhoto | None:
        """The answer as a message to the asker's private chat, its buttons only if they
        are all links (None: it is no text or picture, or nobody in particular asked); a
        picture (/stats' badges) goes with its caption under the heading."""
        if isinstance(method, SendPhoto) and self.user is not None:
            caption = fit(f"{self.heading}\n\n{method.caption or ''}", CAPTION)
            return SendPhoto(chat_id=self.user, photo=method.photo, caption=caption)
        if not isinstance(method, SendMessage) or self.user is None:
            return None
        markup = method.reply_markup
        links = isinstance(markup, InlineKeyboardMarkup) and all(
            button.url for row in markup.inline_keyboard for button in row
        )
        text = f"{self.heading}\n\n{method.text}"
        return SendMessage(chat_id=self.user, text=text, reply_markup=markup if links else None)


_asker: ContextVar[Asker | None] = ContextVar("asker", default=None)


def asking(chat: int | None) -> Asker | None:
    """The command this request answers: one handled by this very task in `chat` (a task
    started meanwhile inherits the context, but it is not the answer)."""
    who = _asker.get()
    if who is None or who.chat != chat or who.task is not asyncio.current_task():
        return None
    return who


def shared_key(method: TelegramMethod[Any]) -> Hashable:
    """What makes two replies the same: the same text in the same chat and topic (whatever
    message each replies to); any other send, all of it."""
    if not isinstance(method, SendMessage):
        return (getattr(method, "chat_id", None), repr(method))
    return (method.chat_id, method.message_thread_id, method.text)


def edited(method: TelegramMethod[Any]) -> Hashable | None:
    """The message an edit changes, and how (None: no edit): no reply to share, but the
    newest edit of its message (`Pacing`)."""
    name = type(method).__name__
    if not name.startswith("Edit"):
        return None
    where = ("chat_id", "message_id", "inline_message_id")
    return (name, *(getattr(method, field, None) for field in where))


class Askers(BaseMiddleware):
    """Records each group command's `Asker` for the answers it sends (other messages —
    service messages, replies — are not commands: their answers go as before); an answer
    going to the private chat is written in the asker's texts (the handler's `t`). The
    record is not reset after the handler: a refusal (`GameError`) is answered later in the
    same task by the dispatcher's error handler, and is an answer to the same command.
    `crowded(chat)`: whether the group has no place to spare now."""

    def __init__(self, crowded: Callable[[int], bool]) -> None:
        self.crowded = crowded

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if not isinstance(event, Message) or event.chat.type == "private":
            return await handler(event, data)
        words = (event.text or "").split(maxsplit=1)
        if words and words[0].startswith("/"):
            kind = get_flag(data, "asked", default=CommandKind.INFO)
            away = await self._away(event, data) if kind is CommandKind.INFO else None
            if away is not None:
                data["t"] = away
            t: Texts = data["t"]
            command, where = words[0].split("@")[0], event.chat.title or ""
            _asker.set(
                Asker(
                    kind=kind,
                    chat=event.chat.id,
                    user=event.from_user.id if event.from_user else None,
                    heading=t("answered-privately", command=command, chat=where),
                    task=asyncio.current_task(),
                    away=away is not None,
                )
            )
        return await handler(event, data)

    async def _away(self, event: Message, data: dict[str, Any]) -> Texts | None:
        """The asker's texts when the answer is to go to their private chat: a game runs
        in the command's topic, the group has no place to spare and the bot may write to
        them (None: it is a reply in the group)."""
        user = event.from_user
        if user is None or not self.crowded(event.chat.id):
            return None
        service: GameService = data["service"]
        chats: Chats = data["chats"]
        thread = event.message_thread_id or 0 if event.is_topic_message else 0  # its topic
        game = await service.open_game(event.chat.id, thread)
        if game is None or game.status is not GameStatus.ACTIVE:
            return None
        if not await chats.has_started(user.id):
            return None
        chosen, _ = await chats.language(user.id)
        return texts_for(language_of(chosen, user.language_code))


class Shared:
    """The replies sent to groups lately, or on their way: whether each reached its group
    (`Pacing` sends a reply the same as one of these only while the group has room)."""

    def __init__(self) -> None:
        self._answers: dict[Hashable, tuple[float, asyncio.Future[bool]]] = {}

    def earlier(self, key: Hashable) -> asyncio.Future[bool] | None:
        """The same answer on its way, or in the group in the last `SHARED_WITHIN` s."""
        at, reached = self._answers.get(key, (0.0, None))
        if reached is None or (reached.done() and time.monotonic() - at > SHARED_WITHIN):
            return None
        return reached

    def start(self, key: Hashable) -> asyncio.Future[bool]:
        now = time.monotonic()
        if len(self._answers) > 64:
            self._answers = {
                k: (at, f)
                for k, (at, f) in self._answers.items()
                if not f.done() or now - at <= SHARED_WITHIN
            }
        reached = asyncio.get_running_loop().create_future()
        self._answers[key] = (now, reached)
        return reached

    def finish(self, key: Hashable, reached: asyncio.Future[bool], in_group: bool) -> None:
        """The answer has gone (to the group or not): from now on it counts for a while."""
        reached.set_result(in_group)
        if self._answers.get(key, (0.0, None))[1] is reached:
            self._answers[key] = (time.monotonic(), reached)
