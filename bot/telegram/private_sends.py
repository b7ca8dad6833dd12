"""`PrivateSends`, a session middleware inside `Pacing`, hears of every new message the bot
sends to a private chat — a reply, a group command's answer sent to the asker, a replay, a
review, the clock's warning — but a hand's own (`unheard`), and tells `told` of it (the
hands, which go below it). What is sent at leisure is told once its task is over: a
review's summary, pictures and record are one batch, followed once."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from aiogram import Bot
from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.methods import Response, TelegramMethod
from aiogram.methods.base import TelegramType

from bot.telegram.pacing import chat_of
from bot.telegram.tickets import leisurely

Told = Callable[[int, int | None], None]
"""Hears of a new message in a private chat: the chat, and the message's id if known."""

_unheard: ContextVar[bool] = ContextVar("unheard", default=False)


@contextmanager
def unheard() -> Iterator[None]:
    """The sends inside are not told (a hand's own: what the others are followed by)."""
    token = _unheard.set(True)
    try:
        yield
    finally:
        _unheard.reset(token)


def _new_message(method: TelegramMethod[Any]) -> bool:
    name = type(method).__name__
    return name.startswith(("Send", "Copy", "Forward")) and name != "SendChatAction"


class PrivateSends(BaseRequestMiddleware):
    """See the module's docstring; `told` is given once the messenger is built."""

    def __init__(self) -> None:
        self.told: Told | None = None
        self._later: dict[asyncio.Task[object], dict[int, int | None]] = {}

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        response = await make_request(bot, method)
        chat = chat_of(method)
        if chat is not None and chat > 0 and _new_message(method) and not _unheard.get():
            # (what the chain hands back is the method's result, the message, whatever the
            # annotation says)
            self._tell(chat, getattr(response, "message_id", None))
        return response

    def _tell(self, chat: int, message_id: int | None) -> None:
        task = asyncio.current_task()
        if self.told is None:
            return
        if not leisurely.get() or task is None:
            self.told(chat, message_id)
            return
        later = self._later.get(task)
        if later is None:
            later = self._later[task] = {}
            task.add_done_callback(self._over)
        later[chat] = later_message(later.get(chat, message_id), message_id)

    def _over(self, task: asyncio.Task[object]) -> None:
        told = self.told
        for chat, message_id in self._later.pop(task, {}).items():
            if told is not None:
                told(chat, message_id)


def later_message(one: int | None, other: int | None) -> int | None:
    """The later of two messages of a chat (None: not known, so the latest)."""
    return None if one is None or other is None else max(one, other)
