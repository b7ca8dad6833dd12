"""`Pacing`, a session middleware, sees every request of the bot. A send or edit waits for
a place in its chat (a group at most 20 a minute, a private chat about one a second), for
its turn in the bot as a whole (urgent ones first: a turn's hand, results, replies) and for
the bot's pace on the wire (`Gate`s). A lane's job (`bot.telegram.lanes`) takes its chat's
place and its turn before it runs, so it draws the newest state; a place counts from the
moment its request leaves, so the pace holds on the wire however long the job takes in
between. In a chat the game's messages (the lanes) go first; how a command is
answered beside them is `bot.telegram.asking`'s business. A reply to no command waits
behind them, is not sent twice while the same reply waits, and is skipped after
`REPLY_PATIENCE`. An edit outside the lanes (a press's answer) is no such reply: it waits
behind them however long it takes, unless a newer edit of its message takes its place.
After a 429 nothing is sent or edited before its `retry_after` is over, in any chat
(Telegram does not say whether the ban is the chat's or the bot's), and then at the pace,
never in a burst. 5xx and network errors are retried after growing waits; an edit that
changes nothing ("message is not modified") is done. Callback answers, deletes and reads
are not paced, but wait out a 429 too; a callback answer that cannot reach the person in
time (Telegram drops it after about 15 s) is given up, never failed: the press itself has
been handled.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from typing import Any, cast

from aiogram import Bot
from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import AnswerCallbackQuery, Response, TelegramMethod
from aiogram.methods.base import TelegramType

from bot.telegram.asking import Asker, CommandKind, Shared, asking, edited, shared_key
from bot.telegram.gates import Gate, Latest, Pace, always, bot_pace, never
from bot.telegram.tickets import Ticket, current_ticket, leisurely

log = logging.getLogger(__name__)

PATIENCE = 120  # seconds of 429 bans a request outside a lane waits before it gives up
BACKOFF = (0.5, 1.0, 2.0, 4.0)  # waits before retrying after a 5xx or a network error
ANSWER_WITHIN = 10.0  # seconds a callback answer may keep trying (Telegram drops it at ~15)
REPLY_PATIENCE = 10.0  # seconds a reply waits for its places before it is skipped
LAZY_TURN = 3  # every third place in the bot goes to the oldest waiter, urgent or not


@dataclass(frozen=True, slots=True)
class Limits:
    """Within Telegram's flood limits, counted when requests leave: a group ≤ 2 + 60/3.25
    = 20 in any minute (limit 20), a private chat ≤ 2 + 0.9 per second (about 1), the bot
    ≤ 1 + 22 in any second (limit 30: `bot_pace`). Requests that reach Telegram closer
    together than they left (a stalled loop on either side) still keep to it: by up to
    1.75 s in a group, 0.3 s for the bot. `paced=False` sends at once (429s are still
    waited out). A reply finding no place within `reply_patience` seconds is skipped."""

    group: Pace = Pace(2, 3.25)
    private: Pace = Pace(2, 1.1)
    everywhere: Pace = bot_pace()
    paced: bool = True
    reply_patience: float = REPLY_PATIENCE


def chat_of(method: TelegramMethod[Any]) -> int | None:
    chat_id = getattr(method, "chat_id", None)
    return chat_id if isinstance(chat_id, int) else None


def counted(method: TelegramMethod[Any]) -> bool:
    """Sends and edits count against the flood limits; answers, deletes and reads do not."""
    name = type(method).__name__
    return name.startswith(("Send", "Edit", "Copy", "Forward")) and name != "SendChatAction"


class Wait(Enum):
    """How a send or edit waits for its places."""

    LANE = "lane"  # a lane's job: its ticket holds them (or the pace is off)
    PATIENT = "patient"  # behind the game's messages, `NoPlaceError` after the reply's patience
    EAGER = "eager"  # an answer that steers the game: behind the lanes, before other replies
    LAZY = "lazy"  # behind everything, however long it takes
    LEISURE = "leisure"  # asked for at leisure (a replay, a review): behind the urgent ones
    # in the bot as a whole (a turn's hand, results, replies), however long it takes


class NoPlaceError(Exception):
    """A patient request found no place in time."""


def _late(started: float, wait: float) -> bool:
    """Whether a callback answer would go out too late after waiting `wait` more seconds."""
    return time.monotonic() - started + wait > ANSWER_WITHIN


def _done(method: TelegramMethod[TelegramType]) -> Response[TelegramType]:
    """The request counts as done (an edit that changed nothing, an answer given up, a
    reply skipped)."""
    return Response[TelegramType](ok=True, result=cast(TelegramType, True))


def _given_up(method: TelegramMethod[TelegramType], why: str) -> Response[TelegramType]:
    """A callback answer that cannot reach the person in time: the press itself has been
    handled, so it is given up, not failed."""
    log.info("callback answer given up: %s", why)
    return _done(method)


class Pacing(BaseRequestMiddleware):
    """Every request of the bot's session passes here (see the module's docstring)."""

    def __init__(self, limits: Limits = Limits()) -> None:
        self.limits = limits
        self._chats: dict[int, Gate] = {}  # the least recently used first
        self._everywhere = Gate(limits.everywhere, fair=LAZY_TURN)  # whose turn, counted then
        self._wire = Gate(limits.everywhere)  # the same pace, counted when requests leave
        self._banned_until = 0.0  # time.monotonic() when the last 429's retry_after ends
        self._shared = Shared()  # the groups' replies lately
        self._edits = Latest()  # the edits outside the lanes on their way

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        chat = chat_of(method)
        if not counted(method) or current_ticket.get() is not None or not self.limits.paced:
            return await self._request(make_request, bot, method, Wait.LANE)
        if leisurely.get():
            return await self._request(make_request, bot, method, Wait.LEISURE)
        if (message := edited(method)) is not None:
            async with self._edits.turn(message) as newest:
                if newest:
                    return await self._request(make_request, bot, method, Wait.LAZY)
            log.info("edit in chat %s gives way to a newer one of its message", chat)
            return _done(method)
        who = asking(chat)  # a command's answer (`bot.telegram.asking`), or None
        if who is not None and who.kind is CommandKind.STEER:
            return await self._request(make_request, bot, method, Wait.EAGER)
        if who is not None and who.away and await self._privately(make_request, bot, method, who):
            return _done(method)
        if chat is None or chat > 0:
            try:
                return await self._request(make_request, bot, method, Wait.PATIENT)
            except NoPlaceError as why:
                log.info("reply in chat %s skipped: %s", chat, why)
                return _done(method)

        async def send() -> tuple[Response[TelegramType], bool]:
            return await self._in_group(make_request, bot, method, who)

        return await self._once(chat, method, send)

    async def _once(
        self,
        chat: int,
        method: TelegramMethod[TelegramType],
        send: Callable[[], Awaitable[tuple[Response[TelegramType], bool]]],
    ) -> Response[TelegramType]:
        """`send()` a reply to a group, unless the same one reached it lately or is on its way
        while the group is busy: that one answers this too (it is right above). `send` says
        whether the reply reached the group."""
        key = shared_key(method)
        earlier = self._shared.earlier(key)
        if earlier is not None and not self._gate(chat).roomy() and await asyncio.shield(earlier):
            log.info("reply in chat %s shared with the same one just before", chat)
            return _done(method)
        reached = self._shared.start(key)
        in_group = False
        try:
            response, in_group = await send()
            return response
        finally:
            self._shared.finish(key, reached, in_group)

    async def _in_group(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
        who: Asker | None,
    ) -> tuple[Response[TelegramType], bool]:
        """A reply in its group when a place comes within the patience; else a command's
        answer (`who`) waits for the group's room however long it takes, and any other
        reply is skipped. With whether it reached the group."""
        try:
            return await self._request(make_request, bot, method, Wait.PATIENT), True
        except NoPlaceError as why:
            if who is None:
                log.info("reply in chat %s skipped: %s", chat_of(method), why)
                return _done(method), False
        log.info("answer in chat %s waits for room there", chat_of(method))
        return await self._request(make_request, bot, method, Wait.LAZY), True

    async def _privately(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
        who: Asker,
    ) -> bool:
        """Whether the answer went to the asker's private chat instead (not when the bot
        may not write there)."""
        private = who.privately(method)
        if private is None:
            return False
        try:
            await self._request(make_request, bot, private, Wait.PATIENT)
        except (TelegramForbiddenError, TelegramBadRequest, NoPlaceError) as why:
            log.info("answer for chat %s cannot go to the asker: %s", who.chat, why)
            return False
        log.info("answer for chat %s sent to the asker's private chat", who.chat)
        return True

    async def _request(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
        wait: Wait,
    ) -> Response[TelegramType]:
        """Send `method` once it has its places (`wait`: how it waits for them, `NoPlaceError`
        when none came in time), waiting out bans and retrying Telegram's failures."""
        chat, paced = chat_of(method), counted(method)
        answer = isinstance(method, AnswerCallbackQuery)
        started = time.monotonic()
        waited = failures = 0
        while True:
            if paced:
                await self._places(chat, wait)
            try:
                return await make_request(bot, method)
            except TelegramRetryAfter as error:
                self._ban(time.monotonic() + error.retry_after)
                name, seconds = type(method).__name__, error.retry_after
                log.warning("flood control: %s in chat %s waits %s s", name, chat, seconds)
                waited += error.retry_after
                if current_ticket.get() is not None or waited > PATIENCE:
                    raise  # a lane sends its newest payload after the ban instead
                if answer and _late(started, error.retry_after):
                    return _given_up(method, error.message)
                await self.unbanned()  # reads and answers wait out the ban too
            except TelegramBadRequest as error:
                if "message is not modified" in error.message:
                    return _done(method)
                if answer and "query is too old" in error.message:
                    return _given_up(method, error.message)
                raise
            except (TelegramServerError, TelegramNetworkError) as error:
                if answer and (failures == len(BACKOFF) or _late(started, BACKOFF[failures])):
                    return _given_up(method, error.message)
                if failures == len(BACKOFF):
                    raise
                log.info("Telegram failed (%s), again in %s s", error.message, BACKOFF[failures])
                await asyncio.sleep(BACKOFF[failures])
                failures += 1

    def crowded(self, chat: int) -> bool:
        """Whether the chat has no place to spare now (never when the pace is off)."""
        return self.limits.paced and not self._gate(chat).roomy()

    def per_second(self) -> float:
        """This process's pace of sends and edits a second (its part of the bot's)."""
        return 1 / self._everywhere.pace.every

    def share(self, part: float) -> None:
        """This process sends `part` of the bot's messages (the rest is other workers'):
        its bot-wide pace is that part of the bot's."""
        whole = self.limits.everywhere
        pace = Pace(max(1, round(whole.burst * part)), whole.every / max(part, 1e-3))
        self._everywhere.pace = self._wire.pace = pace

    def _ban(self, until: float) -> None:
        self._banned_until = max(self._banned_until, until)
        self._everywhere.close(until)
        self._wire.close(until)

    async def unbanned(self) -> None:
        """Return once the last 429's `retry_after` is over. A 429 does not say whether it
        is the chat's limit or the bot's, and a request inside a bot-wide ban extends it, so
        every chat waits."""
        while (left := self._banned_until - time.monotonic()) > 0:
            await asyncio.sleep(left)

    async def _places(self, chat: int | None, wait: Wait) -> None:
        """Wait for a send or edit's place in its chat, then in the bot (after any ban),
        and count it as leaving now; `NoPlaceError` for a patient one that found none in time."""
        if not self.limits.paced:
            await self.unbanned()
            return
        ticket = current_ticket.get()
        if wait is not Wait.PATIENT:
            await self._leave(chat, ticket, wait)
            return
        try:
            async with asyncio.timeout(self.limits.reply_patience):
                await self._leave(chat, None)
        except TimeoutError:
            raise NoPlaceError(f"no place within {self.limits.reply_patience:.0f} s") from None

    async def _leave(
        self, chat: int | None, ticket: Ticket | None, wait: Wait = Wait.PATIENT
    ) -> None:
        """A place in `chat` (a lane's ticket may hold one; lanes and eager answers go
        before other replies), a turn in the bot (urgent ones first, the leisurely after
        the rest; a lane's ticket has one), then the wire's pace; the places count from
        then."""
        gate = None if chat is None else self._gate(chat)
        if gate is not None and ticket is not None and ticket.held and ticket.chat == chat:
            ticket.held = False
        elif gate is not None:
            await gate.take(never if ticket is None and wait is not Wait.EAGER else always)
        try:
            if ticket is not None and ticket.turn:
                ticket.turn = False
            elif wait is Wait.LEISURE:
                await self._turn(never)
            else:
                await self._turn(always if ticket is None else ticket.urgent)
            await self._wire.take()
        except BaseException:
            if gate is not None:
                gate.give_back()
            raise
        self._wire.spend()
        if gate is not None:
            gate.spend()

    async def _turn(self, urgent: Callable[[], bool]) -> None:
        """A turn in the bot's pace, counted when it comes."""
        await self._everywhere.take(urgent)
        self._everywhere.spend()

    def _gate(self, chat: int) -> Gate:
        """`chat`'s gate, made the most recently used; the least recently used one goes
        when it is as good as new (a quiet chat costs no memory)."""
        gate = self._chats.pop(chat, None)
        if gate is None:
            gate = Gate(self.limits.private if chat > 0 else self.limits.group, spare=1)
        self._chats[chat] = gate
        oldest = next(iter(self._chats))
        if oldest != chat and self._chats[oldest].idle():
            del self._chats[oldest]
        return gate

    @contextmanager
    def claimed(self, chat: int) -> Iterator[None]:
        """While inside, `chat`'s next place is the lane's: no reply takes it meanwhile."""
        if not self.limits.paced:
            yield
            return
        with self._gate(chat).claimed():
            yield

    async def ticket(self, chat: int, urgent: Callable[[], bool]) -> Ticket:
        """A place in `chat` for a lane's next job (before the chat's replies) and its turn
        in the bot (after urgent ones if it is lazy)."""
        if not self.limits.paced:
            return Ticket(chat, None, urgent, held=False, turn=False)
        gate = self._gate(chat)
        await gate.take(always)
        try:
            await self._turn(urgent)
        except BaseException:
            gate.give_back()
            raise
        return Ticket(chat, gate, urgent)
