"""The state every part of the fake shares, and the helpers they all use.

`World` owns it: the people and chats (`world.models`), the bot's side of the wire
(queued updates, the calls log, command menus, flood control, the files sent), the
clock and the listeners of changes. The parts of `FakeTelegram` are mixins over it:
`bot.playground.api` answers the bot's requests, the rest of `bot.playground.world`
changes the world (`building`, `acting`) and looks at it (`looking`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from bot.playground.api.errors import Fault
from bot.playground.api.flood import FloodControl, FloodLimits
from bot.playground.api.objects import DEFAULT_UPDATES, member, message_json
from bot.playground.api.params import Call, Handler
from bot.playground.world.changes import Change, ChangeKind, Listener
from bot.playground.world.models import (
    PRESENT,
    CallbackQuery,
    Chat,
    Delivery,
    Message,
    Photo,
    SentFile,
    Topic,
    User,
)
from bot.playground.world.view import ViewMessage

BOT_ID = 100500
BOT_USERNAME = "kozel_bot"
BOT_NAME = "Kozel"

log = logging.getLogger("bot.playground")


class _HasId(Protocol):
    @property
    def id(self) -> int: ...


class SentMessage(Protocol):
    """Anything shaped like a Bot API Message (an aiogram `Message`, for one)."""

    @property
    def message_id(self) -> int: ...

    @property
    def chat(self) -> _HasId: ...


ChatArg = Chat | User | int
MessageRef = Message | ViewMessage | SentMessage


@dataclass(frozen=True, kw_only=True, slots=True)
class BotAccount:
    """The bot as BotFather registered it: its token (random unless given), names and
    privacy mode (on: in a group where it is no admin it hears only commands and replies)."""

    token: str | None = None
    username: str = BOT_USERNAME
    name: str = BOT_NAME
    privacy_mode: bool = True


class World:
    """The fake's state and shared helpers (see the module docstring)."""

    def __init__(
        self,
        *,
        bot: BotAccount | None = None,
        flood: bool = False,
        flood_limits: FloodLimits | None = None,
        callback_timeout: float = 15.0,
        clock: Callable[[], float] = time.time,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        account = bot or BotAccount()
        self.token = account.token or f"{BOT_ID}:{secrets.token_urlsafe(32)}"
        """The bot's token: random unless given, so only the bot it is handed to can act."""
        self.bot_id = int(self.token.split(":", 1)[0])
        self.bot_username = account.username
        self.bot_name = account.name
        self.privacy_mode = account.privacy_mode
        self.decode_photos = True  # a load benchmark reads only the headers (~2.4 ms less)
        self.outages: dict[str, int] = {}
        """Method (lower case) → how many of its next calls fail with 502 Bad Gateway."""
        self.faults: dict[str, Fault] = {}
        """Method (lower case) → what its calls meet for a while (`fail`, `slow`)."""
        self.flood = flood
        """Enforce flood limits (429 with `retry_after`); off by default."""
        self.callback_timeout = callback_timeout
        """Seconds after a press during which answerCallbackQuery is accepted."""
        self.host = host
        self.port = port
        self.base = ""
        """`http://127.0.0.1:<port>` once started: the value for TELEGRAM_API_BASE."""

        self.users: dict[int, User] = {}
        self.chats: dict[int, Chat] = {}
        self.apps: dict[str, tuple[str, str]] = {}
        """The bot's Mini Apps (`world.apps`): short name → its URL and title."""
        self._open_wire()

        self._flood = FloodControl(flood_limits or FloodLimits(), self.now)
        self._clock = clock
        self._offset = 0.0
        self._next_user_id = 200_000_001
        self._next_group = 1
        self._listeners: list[Listener] = []
        self._methods: dict[str, Handler] = self._handlers()
        """Bot API method (lower case) → its handler; every part adds its own."""

    def _open_wire(self) -> None:
        """The bot's side of the wire as it starts, empty: queued updates, the calls log,
        command menus, the webhook, uploaded files, the fake's own work."""
        self.calls: list[Call] = []
        self.callback_queries: dict[str, CallbackQuery] = {}
        self.commands: dict[tuple[tuple[Any, ...], str], list[dict[str, str]]] = {}
        self.chat_actions: list[tuple[int, str]] = []
        self.dropped_updates: list[dict[str, Any]] = []
        """Updates not queued because the bot's allowed_updates excluded them."""
        self.conflicts = 0
        """getUpdates requests terminated by a newer one (409)."""
        self.internal_errors: list[str] = []
        """Tracebacks of bugs in the fake itself (answered 500)."""
        self.webhook_url = ""
        self.webhook_secret = ""
        self.webhook_deliveries: list[Delivery] = []
        """Every POST of an update to the webhook, in order."""
        self.balanced: list[str] = []
        """Worker URLs a load balancer in front of the webhook spreads its POSTs over,
        round-robin (empty: the webhook's URL itself)."""
        self._webhook_error: tuple[int, str] | None = None
        self._updates: list[dict[str, Any]] = []
        self._next_update_id = 700_000_001
        self._allowed: frozenset[str] | None = None
        self._files: dict[str, Photo] = {}
        """Photos by file id (every size of the ladder)."""
        self._kept: dict[str, SentFile] = {}
        """Animations and documents by file id."""
        self._file_count = 0
        self._next_query = 4_611_686_018_427_387_904
        self._poll_generation = 0
        self._wakeup = asyncio.Event()
        self._closing = False
        self._background: set[asyncio.Task[None]] = set()
        """Work of the fake's own (webhook delivery), cancelled when it stops."""

    def _handlers(self) -> dict[str, Handler]:
        """The methods a part answers; each part adds to its `super()`'s."""
        return {}

    # ------------------------------------------------------------------ time

    def now(self) -> float:
        """The fake's clock: real time plus whatever `advance` added."""
        return self._clock() + self._offset

    def advance(self, seconds: float) -> None:
        """Move the fake's clock forward (flood windows, callback answer deadlines)."""
        self._offset += seconds

    def _date(self) -> int:
        return int(self.now())

    # ------------------------------------------------------------------ changes

    def listen(self, callback: Listener) -> None:
        """Call `callback(change)` on every `Change` from now on (synchronously, inside
        the fake: it must not block). A listener that raises is logged and skipped."""
        self._listeners.append(callback)

    def unlisten(self, callback: Listener) -> None:
        """Stop calling `callback` (no error when it was not listening)."""
        if callback in self._listeners:
            self._listeners.remove(callback)

    def _emit(
        self,
        kind: ChangeKind,
        chat_id: int | None,
        message_id: int | None = None,
        **detail: Any,
    ) -> None:
        if not self._listeners:
            return
        change = Change(kind, chat_id, message_id, detail)
        for listener in list(self._listeners):
            try:
                listener(change)
            except Exception:
                log.exception("a listener of the fake failed on %r", change)

    # ------------------------------------------------------------------ updates

    def _queue(self, kind: str, payload: dict[str, Any]) -> bool:
        allowed = DEFAULT_UPDATES if self._allowed is None else self._allowed
        if kind not in allowed:
            self.dropped_updates.append({kind: payload})
            return False
        self._updates.append({"update_id": self._next_update_id, kind: payload})
        self._next_update_id += 1
        self._notify()
        return True

    def _notify(self) -> None:
        self._wakeup.set()
        self._wakeup = asyncio.Event()

    def _deliver(self, message: Message) -> None:
        if message.chat.bot_present and not (message.chat.user and message.chat.user.blocked):
            message.delivered = self._queue("message", self._message_json(message))

    def _my_chat_member(self, chat: Chat, actor: User, old: str, new: str) -> None:
        bot = self._bot_user()
        self._queue(
            "my_chat_member",
            {
                "chat": chat.to_api(),
                "from": actor.to_api(),
                "date": self._date(),
                "old_chat_member": member(bot, old),
                "new_chat_member": member(bot, new),
            },
        )

    # ------------------------------------------------------------------ objects

    def _bot_user(self) -> dict[str, Any]:
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": self.bot_name,
            "username": self.bot_username,
        }

    def _message_json(self, message: Message, *, nested: bool = False) -> dict[str, Any]:
        return message_json(message, self._bot_user(), nested=nested)

    def _new_message(self, chat: Chat, sender: User | None, **fields: Any) -> Message:
        """A message stored in `chat` (the bot's when `sender` is None); listeners hear
        of it, so `fields` must be all it has."""
        message = Message(
            chat=chat,
            message_id=chat.next_message_id,
            date=self._date(),
            sender=sender,
            **fields,
        )
        chat.next_message_id += 1
        chat.messages[message.message_id] = message
        self._emit("message", chat.id, message.message_id, what="new")
        return message

    # ------------------------------------------------------------------ helpers

    def private(self, user: User) -> Chat:
        """The user's private chat with the bot."""
        return self.chats[user.id]

    def _chat_arg(self, chat: ChatArg) -> Chat:
        if isinstance(chat, Chat):
            return chat
        if isinstance(chat, User):
            return self.private(chat)
        return self.chats[chat]

    def _stored(self, message: MessageRef) -> Message:
        if isinstance(message, Message):
            return message
        chat_id = message.chat_id if isinstance(message, ViewMessage) else message.chat.id
        return self.chats[chat_id].messages[message.message_id]

    def _creator(self, group: Chat) -> User:
        for user_id, status in group.members.items():
            if status == "creator":
                return self.users[user_id]
        raise ValueError(f"{group!r} has no creator; pass by=")

    def _require_sees(self, user: User, chat: Chat) -> None:
        if chat.type == "private":
            if chat.user is not user:
                raise ValueError(f"{user!r} cannot see {chat!r}")
        elif chat.members.get(user.id) not in PRESENT:
            raise ValueError(f"{user!r} is not a member of {chat!r}")

    def _topic_id(self, chat: Chat, topic: Topic | int | None) -> int | None:
        if topic is None:
            return None
        thread = topic.thread_id if isinstance(topic, Topic) else topic
        if thread not in chat.topics:
            raise ValueError(f"{chat!r} has no topic {thread}")
        return thread
