"""aiogram reads every answer of the Bot API as `Response[method.__returning__]`, a pydantic
generic model that pydantic caches only weakly: once the collector frees it, the next
request builds it again (about 3 ms each, hundreds of times a minute under load). This
middleware keeps each one the bot has needed, so every later request finds it built."""

from __future__ import annotations

from typing import Any

from aiogram import Bot
from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.methods import Response, TelegramMethod
from aiogram.methods.base import TelegramType


class KeptResponses(BaseRequestMiddleware):
    """Holds the response model of every kind of request made so far."""

    def __init__(self) -> None:
        self._kept: dict[type[Any], type[Any]] = {}

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        kind = type(method)
        if kind not in self._kept:
            self._kept[kind] = Response[method.__returning__]  # type: ignore[name-defined]
        return await make_request(bot, method)
