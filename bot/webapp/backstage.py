"""What every route of the table app shares: the core's service, the view builder, the
Telegram side, the hub and the keys — and how a request is let in (its bearer pass)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from aiohttp import web

from bot.core.presence import Presence
from bot.core.rows import GameRow
from bot.core.service import GameService
from bot.game.record import Record
from bot.ui.i18n import Texts
from bot.webapp.hub import Hub
from bot.webapp.limits import Presses
from bot.webapp.pages import Pages
from bot.webapp.passes import BadPassError, Grant, checked

log = logging.getLogger(__name__)

View = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Views:
    """What people see of a game (`bot.ui.table_app`), in two parts: `shared(t, game, now,
    code)`, alike for everyone reading it in a language (`now` runs a match clock, `code`
    is the deal code of the round it stands after), built once per read; then
    `seat(t, game, shared, seat)`, the keys that differ for a seat (None: a watcher)."""

    shared: Callable[[Texts, GameRow, float, str | None], View]
    seat: Callable[[Texts, GameRow, View, int | None], View]


class Shell(Protocol):
    """What the app needs of the Telegram side (`bot.telegram.app_side`)."""

    async def is_member(self, chat_id: int, user_id: int) -> bool:
        """Whether the person is in the chat (a watcher must be)."""

    def lobby_changed(self, game: GameRow) -> None:
        """The lobby changed in the app: its message in the group shows it."""

    def back(self, game: GameRow, user_id: int) -> None:
        """The person came back from away through the app: their hand is theirs again."""

    def send_replay(self, user_id: int, record: Record, round_no: int) -> None:
        """A finished round's replay goes to the person's private chat, as «🎞 Повтор»'s."""

    def send_review(self, user_id: int, record: Record, seat: int) -> None:
        """The seat's review (held for this worker) goes to the person's private chat, as
        «🔍 Разбор»'s."""


@dataclass(slots=True)
class Backstage:
    """The app's dependencies, given once; `clock` is the time (epoch s)."""

    service: GameService
    views: Views
    shell: Shell
    bot_token: str
    max_age: float = 86400
    clock: Callable[[], float] = time.time
    hub: Hub = field(default_factory=Hub)
    presence: Presence = field(default_factory=Presence)  # who follows a game here
    presses: Presses = field(init=False)
    closing: asyncio.Event = field(default_factory=asyncio.Event)  # the server stops
    pages: Pages = field(default_factory=Pages)  # those holding a live stream

    def __post_init__(self) -> None:
        self.presses = Presses(self.clock)

    def admitted(self, request: web.Request) -> Grant:
        """The pass the request's `Authorization: Bearer …` carries, else 401."""
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        try:
            if scheme.lower() != "bearer":
                raise BadPassError("no bearer token")
            return checked(token.strip(), self.bot_token, self.clock())
        except BadPassError as error:
            log.info("table app: %s %s refused: %s", request.method, request.path, error)
            raise web.HTTPUnauthorized(
                text='{"error": "unauthorized"}', content_type="application/json"
            ) from None


BACKSTAGE = web.AppKey("backstage", Backstage)


def refused(status: int, error: str, text: str | None = None) -> web.Response:
    """A JSON refusal: `{"error": key}`, with the reader's words when there are some."""
    body: dict[str, str] = {"error": error}
    if text is not None:
        body["text"] = text
    return web.json_response(body, status=status)


async def body_of(request: web.Request) -> dict[str, Any]:
    """The request's JSON object, or a 400."""
    try:
        data = await request.json()
    except ValueError:
        data = None
    if not isinstance(data, dict):
        raise web.HTTPBadRequest(text='{"error": "bad-request"}', content_type="application/json")
    return data
