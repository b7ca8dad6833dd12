"""What the table app (`bot.webapp`) needs of Telegram: whether a watcher is in the game's
chat (`getChatMember`, remembered a minute), the group's lobby and the private hand shown
again after a press in the app, and a replay or review asked in the app sent to the
private chat (as «🎞 Повтор» and «🔍 Разбор» send them)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

from aiogram import Bot

from bot.core.rows import GameRow
from bot.game.record import Record
from bot.telegram.handlers.common import may_be_member
from bot.telegram.messenger import Messenger

log = logging.getLogger(__name__)
MEMBER_SECONDS = 60.0  # how long Telegram's answer about a member is kept
KEPT = 10_000  # answers kept at most; past that the old ones go


class AppSide:
    """The Telegram side of the table app (`bot.webapp.backstage.Shell`)."""

    def __init__(
        self, bot: Bot, messenger: Messenger, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.bot = bot
        self.messenger = messenger
        self.clock = clock
        self._members: dict[tuple[int, int], tuple[bool, float]] = {}  # → (member, until)
        self._sending: set[asyncio.Task[None]] = set()

    async def is_member(self, chat_id: int, user_id: int) -> bool:
        """Telegram's word on the person in the chat, as the lobby's join link takes it."""
        now = self.clock()
        known = self._members.get((chat_id, user_id))
        if known is not None and known[1] > now:
            return known[0]
        member = await may_be_member(self.bot, chat_id, user_id)
        if len(self._members) >= KEPT:
            self._members.clear()
        self._members[chat_id, user_id] = (member, now + MEMBER_SECONDS)
        return member

    def lobby_changed(self, game: GameRow) -> None:
        self.messenger.lobby.show(game)

    def back(self, game: GameRow, user_id: int) -> None:
        self.messenger.hands.again(game, user_id)

    def send_replay(self, user_id: int, record: Record, round_no: int) -> None:
        self._send(user_id, self.messenger.replays.send_replay(user_id, record, round_no))

    def send_review(self, user_id: int, record: Record, seat: int) -> None:
        self._send(user_id, self.messenger.replays.send_review(user_id, record, seat))

    def _send(self, user_id: int, sending: Coroutine[Any, Any, object]) -> None:
        """Sent after the app's answer (a replay is drawn, a review made, for seconds)."""

        async def send() -> None:
            try:
                await sending
            except Exception:
                log.exception("table app: sending to user %s failed", user_id)

        task = asyncio.create_task(send())
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)
