"""A fake Telegram Bot API server on 127.0.0.1 that enforces Telegram's rules.

The real bot talks to it over HTTP (set `TELEGRAM_API_BASE` to `fake.base`); a test drives
simulated users with plain methods (`add_user`, `add_group`, `user_sends`, `user_presses`,
...) and looks at the result as a user would (`chat_view`, `transcript`) or as the wire saw
it (`calls`). State lives in memory; every request and answer is logged in `calls`.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import re
import time
import traceback
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Literal, Protocol, Self
from urllib.parse import parse_qs, urlsplit

from aiohttp import web
from PIL import Image

from tests.fakebot.errors import (
    NOT_MODIFIED,
    QUERY_TOO_OLD,
    ApiError,
    Fault,
    bad_request,
    forbidden,
)
from tests.fakebot.flood import FloodControl, FloodLimits
from tests.fakebot.formatting import (
    EmptyTextError,
    FormatError,
    check_entities,
    command_entities,
    finish_text,
    parse,
)
from tests.fakebot.keyboards import inline_markup, parse_reply_markup
from tests.fakebot.models import (
    PRESENT,
    Call,
    CallbackAnswer,
    CallbackQuery,
    Chat,
    FloodEvent,
    Message,
    Photo,
    Rows,
    Topic,
    Upload,
    User,
)
from tests.fakebot.view import ViewMessage, render, view_of

BOT_ID = 100500
TOKEN = f"{BOT_ID}:TEST-token_abcdefghijklmnopqrstuvwxyz"
BOT_USERNAME = "kozel_bot"
BOT_NAME = "Kozel"

MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_CALLBACK_ANSWER = 200
MAX_PHOTO_BYTES = 10 * 1024 * 1024
MAX_REQUEST_BYTES = 50 * 1024 * 1024

ALL_UPDATES = frozenset(
    {
        "message",
        "edited_message",
        "channel_post",
        "edited_channel_post",
        "business_connection",
        "business_message",
        "edited_business_message",
        "deleted_business_messages",
        "message_reaction",
        "message_reaction_count",
        "inline_query",
        "chosen_inline_result",
        "callback_query",
        "shipping_query",
        "pre_checkout_query",
        "purchased_paid_media",
        "poll",
        "poll_answer",
        "my_chat_member",
        "chat_member",
        "chat_join_request",
        "chat_boost",
        "removed_chat_boost",
    }
)
DEFAULT_UPDATES = ALL_UPDATES - {"chat_member", "message_reaction", "message_reaction_count"}
CHAT_ACTIONS = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)
# Methods that only need to answer `true` for a game bot; anything else unknown is 404.
HARMLESS = frozenset(
    {
        "setmydescription",
        "setmyshortdescription",
        "setmyname",
        "setchatmenubutton",
        "setmydefaultadministratorrights",
        "setmessagereaction",
        "logout",
        "close",
    }
)
COUNTED = frozenset(
    {
        "sendmessage",
        "sendphoto",
        "editmessagetext",
        "editmessagecaption",
        "editmessagemedia",
        "editmessagereplymarkup",
    }
)
_TOKEN_SHAPE = re.compile(r"\d+:[A-Za-z0-9_-]+")
_PAYLOAD = re.compile(r"[A-Za-z0-9_-]{1,64}")
_COMMAND = re.compile(r"[a-z0-9_]{1,32}")
_JSON_FIELDS = frozenset(
    {
        "reply_markup",
        "entities",
        "caption_entities",
        "media",
        "reply_parameters",
        "link_preview_options",
        "allowed_updates",
        "commands",
        "scope",
        "message_ids",
    }
)
_ADMIN_RIGHTS = {
    "can_be_edited": False,
    "is_anonymous": False,
    "can_manage_chat": True,
    "can_delete_messages": True,
    "can_manage_video_chats": True,
    "can_restrict_members": True,
    "can_promote_members": False,
    "can_change_info": True,
    "can_invite_users": True,
    "can_post_stories": False,
    "can_edit_stories": False,
    "can_delete_stories": False,
    "can_send_welcome_messages": False,
    "can_post_messages": False,
    "can_edit_messages": False,
    "can_pin_messages": True,
    "can_manage_topics": True,
    "can_manage_direct_messages": False,
}


class _HasId(Protocol):
    @property
    def id(self) -> int: ...


class SentMessage(Protocol):
    """Anything shaped like a Bot API Message (an aiogram `Message`, for one)."""

    @property
    def message_id(self) -> int: ...

    @property
    def chat(self) -> _HasId: ...


Handler = Callable[["Params"], Awaitable[Any]]
ChatArg = Chat | User | int
MessageRef = Message | ViewMessage | SentMessage


class Params:
    """A request's parameters: form fields (strings), JSON body values and uploaded files."""

    def __init__(self, values: dict[str, Any], files: dict[str, Upload]) -> None:
        self.values = values
        self.files = files

    def has(self, name: str) -> bool:
        return self.values.get(name) not in (None, "")

    def text(self, name: str) -> str | None:
        value = self.values.get(name)
        if value is None or isinstance(value, str):
            return value
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int | float):
            return str(value)
        return json.dumps(value, ensure_ascii=False)

    def integer(self, name: str, error: str) -> int | None:
        """None when absent; `bad_request(error)` when it is not an integer."""
        value = self.values.get(name)
        if value is None or value == "":
            return None
        try:
            return int(str(value).strip())
        except ValueError:
            raise bad_request(error) from None

    def flag(self, name: str) -> bool:
        return self.values.get(name) in (True, 1, "true", "True", "1")

    def json(self, name: str, error: str) -> Any:
        value = self.values.get(name)
        if value is None or value == "":
            return None
        if not isinstance(value, str):
            return value
        try:
            return json.loads(value)
        except ValueError:
            raise bad_request(error) from None

    def upload(self, name: str) -> Upload | str | None:
        """A file part named `name`, the part an `attach://` value points to, or a string."""
        if name in self.files:
            return self.files[name]
        return self.attached(self.text(name))

    def attached(self, value: str | None) -> Upload | str | None:
        if value and value.startswith("attach://"):
            return self.files.get(value.removeprefix("attach://"))
        return value or None


class FakeTelegram:
    """The fake Bot API server and the world it simulates (see the module docstring)."""

    def __init__(
        self,
        *,
        token: str = TOKEN,
        bot_username: str = BOT_USERNAME,
        bot_name: str = BOT_NAME,
        privacy_mode: bool = True,
        flood: bool = False,
        flood_limits: FloodLimits | None = None,
        callback_timeout: float = 15.0,
        clock: Callable[[], float] = time.time,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.token = token
        self.bot_id = int(token.split(":", 1)[0])
        self.bot_username = bot_username
        self.bot_name = bot_name
        self.privacy_mode = privacy_mode
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

        self._flood = FloodControl(flood_limits or FloodLimits(), self.now)
        self._clock = clock
        self._offset = 0.0
        self._updates: list[dict[str, Any]] = []
        self._next_update_id = 700_000_001
        self._allowed: frozenset[str] | None = None
        self._files: dict[str, Photo] = {}
        self._file_count = 0
        self._next_user_id = 200_000_001
        self._next_group = 1
        self._next_query = 4_611_686_018_427_387_904
        self._poll_generation = 0
        self._wakeup = asyncio.Event()
        self._closing = False
        self._runner: web.AppRunner | None = None
        self._methods: dict[str, Handler] = {
            "getme": self._get_me,
            "getupdates": self._get_updates,
            "deletewebhook": self._delete_webhook,
            "setwebhook": self._set_webhook,
            "getwebhookinfo": self._get_webhook_info,
            "setmycommands": self._set_my_commands,
            "deletemycommands": self._delete_my_commands,
            "getmycommands": self._get_my_commands,
            "sendmessage": self._send_message,
            "sendphoto": self._send_photo,
            "editmessagetext": self._edit_message_text,
            "editmessagecaption": self._edit_message_caption,
            "editmessagemedia": self._edit_message_media,
            "editmessagereplymarkup": self._edit_message_reply_markup,
            "deletemessage": self._delete_message,
            "deletemessages": self._delete_messages,
            "answercallbackquery": self._answer_callback_query,
            "getchat": self._get_chat,
            "getchatmember": self._get_chat_member,
            "getchatadministrators": self._get_chat_administrators,
            "getchatmembercount": self._get_chat_member_count,
            "sendchataction": self._send_chat_action,
            "pinchatmessage": self._pin_chat_message,
            "unpinchatmessage": self._unpin_chat_message,
            "unpinallchatmessages": self._unpin_all_chat_messages,
            "leavechat": self._leave_chat,
            "getfile": self._get_file,
        }
        for name in HARMLESS:
            self._methods[name] = self._harmless

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> str:
        """Listen on `host:port` (a free port by default); returns `base`."""
        app = web.Application(client_max_size=MAX_REQUEST_BYTES)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_get("/file/bot{token}/{path:.+}", self._download)
        app.router.add_route("*", "/{tail:.*}", self._not_found)
        self._runner = web.AppRunner(
            app, handler_cancellation=True, shutdown_timeout=1.0, access_log=None
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        port = self._runner.addresses[0][1]
        self.base = f"http://{self.host}:{port}"
        return self.base

    async def stop(self) -> None:
        """Answer pending long polls and close the server."""
        self._closing = True
        self._notify()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ------------------------------------------------------------------ time

    def now(self) -> float:
        """The fake's clock: real time plus whatever `advance` added."""
        return self._clock() + self._offset

    def advance(self, seconds: float) -> None:
        """Move the fake's clock forward (flood windows, callback answer deadlines)."""
        self._offset += seconds

    def fail(
        self,
        methods: str,
        *,
        seconds: float | None = None,
        times: int | None = None,
        code: int = 502,
        description: str = "Bad Gateway",
        retry_after: int | None = None,
    ) -> None:
        """Calls of `methods` (space-separated) fail with `code` for `seconds` of the fake's
        clock or for `times` calls (a 429 with `retry_after`)."""
        until = None if seconds is None else self.now() + seconds
        for method in methods.lower().split():
            self.faults[method] = Fault(code, description, retry_after, 0.0, times, until)

    def slow(self, methods: str, delay: float, *, times: int | None = None) -> None:
        """Calls of `methods` are answered only after `delay` seconds (`times` of them)."""
        for method in methods.lower().split():
            self.faults[method] = Fault(0, "", None, delay, times, None)

    def _date(self) -> int:
        return int(self.now())

    # ------------------------------------------------------------------ the world

    def add_user(
        self,
        first_name: str,
        username: str | None = None,
        *,
        language_code: str | None = "ru",
        last_name: str | None = None,
        user_id: int | None = None,
    ) -> User:
        """A user (with a private chat with the bot that they have not started yet)."""
        if user_id is None:
            user_id = self._next_user_id
            self._next_user_id += 1
        if user_id in self.users or user_id == self.bot_id:
            raise ValueError(f"user id {user_id} is taken")
        user = User(user_id, first_name, username, language_code, last_name)
        self.users[user_id] = user
        self.chats[user_id] = Chat(id=user_id, type="private", user=user)
        return user

    def add_group(
        self,
        title: str,
        members: Iterable[User],
        *,
        forum: bool = False,
        supergroup: bool = False,
        creator: User | None = None,
        admins: Iterable[User] = (),
        bot_admin: bool = False,
        with_bot: bool = True,
        username: str | None = None,
    ) -> Chat:
        """A group that already exists, with the bot in it (no updates are sent).

        `creator` defaults to the first member; `forum=True` makes a forum supergroup.
        """
        people = list(members)
        supergroup = supergroup or forum or username is not None
        number = self._next_group
        self._next_group += 1
        chat_id = -(1_002_000_000_000 + number) if supergroup else -(4_000_000_000 + number)
        chat = Chat(
            id=chat_id,
            type="supergroup" if supergroup else "group",
            title=title,
            username=username,
            forum=forum,
        )
        for user in people:
            chat.members[user.id] = "member"
        for user in admins:
            chat.members[user.id] = "administrator"
        owner = creator or (people[0] if people else None)
        if owner is not None:
            chat.members[owner.id] = "creator"
        if bot_admin:
            chat.bot_status = "administrator"
        elif not with_bot:
            chat.bot_status = "left"
        self.chats[chat_id] = chat
        return chat

    def add_topic(self, group: Chat, name: str, *, by: User | None = None) -> Topic:
        """A new forum topic; the `forum_topic_created` service message reaches the bot."""
        if not group.forum:
            raise ValueError(f"{group!r} is not a forum")
        actor = by or self._creator(group)
        created = self._new_message(
            group, actor, service={"forum_topic_created": {"name": name, "icon_color": 0x6FB9F0}}
        )
        created.thread_id = created.message_id
        topic = Topic(created.message_id, name)
        group.topics[topic.thread_id] = topic
        self._deliver(created)
        return topic

    def close_topic(self, group: Chat, topic: Topic) -> None:
        """Close a topic: only administrators (and the bot if it is one) may write there."""
        topic.closed = True

    def private(self, user: User) -> Chat:
        """The user's private chat with the bot."""
        return self.chats[user.id]

    def user_sends(
        self,
        user: User,
        chat: ChatArg,
        text: str,
        *,
        topic: Topic | int | None = None,
        reply_to: MessageRef | None = None,
    ) -> Message:
        """`user` writes `text` in `chat` (a Chat, a chat id, or a User for their private chat).

        Commands get a `bot_command` entity; a private `/start` marks the user as having
        started the bot (and unblocks it). In groups the bot receives the message only if
        privacy mode lets it through (commands, replies to the bot) or it is an admin.
        """
        target = self._chat_arg(chat)
        replied = None if reply_to is None else self._stored(reply_to)
        thread: int | None = None
        if target.type == "private":
            if target.user is not user:
                raise ValueError(f"{user!r} cannot write in {target!r}")
            is_start = text == "/start" or text.startswith(("/start ", "/start@"))
            if user.blocked:
                if not is_start:
                    raise ValueError(f"{user!r} blocked the bot; only /start (Restart) unblocks it")
                self.user_unblocks_bot(user)
            if not user.started and not is_start:
                raise ValueError(
                    f"{user!r} never opened the bot: the client only offers START (/start)"
                )
            user.started = True
        else:
            if target.migrated_to is not None:
                raise ValueError(f"{target!r} was upgraded; write in {target.migrated_to}")
            if target.members.get(user.id) not in PRESENT:
                raise ValueError(f"{user!r} is not a member of {target!r}")
            thread = self._topic_id(target, topic)
            if thread is None and replied is not None:
                thread = replied.thread_id
        if replied is not None and replied.chat is not target:
            raise ValueError("a reply must be in the same chat")
        message = self._new_message(
            target,
            user,
            text=text,
            entities=command_entities(text),
            thread_id=thread,
            reply_to=replied,
        )
        if self._bot_receives(message):
            self._deliver(message)
        return message

    def user_presses(self, user: User, message: MessageRef, button: str) -> str:
        """`user` presses the inline button whose text (or callback_data) is `button`.

        A callback button sends a `callback_query` update and returns its id (see
        `answer_for`); a URL button returns the URL (see `follow_link`).
        """
        stored = self._stored(message)
        if stored.deleted:
            raise LookupError(f"{stored!r} was deleted")
        self._require_sees(user, stored.chat)
        rows = stored.reply_markup or []
        buttons = [b for row in rows for b in row]
        found = [b for b in buttons if b["text"] == button] or [
            b for b in buttons if b.get("callback_data") == button
        ]
        if not found:
            raise LookupError(f"no button {button!r} on {stored!r}; it has {stored.buttons}")
        if len(found) > 1:
            raise LookupError(f"{len(found)} buttons match {button!r} on {stored!r}")
        pressed = found[0]
        if "url" in pressed:
            return str(pressed["url"])
        if "callback_data" not in pressed:
            raise NotImplementedError(f"pressing {sorted(pressed)} buttons is not simulated")
        query_id = str(self._next_query)
        self._next_query += 1
        query = CallbackQuery(query_id, user, stored, pressed["callback_data"], self.now())
        self.callback_queries[query_id] = query
        chat_instance = str((stored.chat.id * 2_654_435_761) % 10**19)
        self._queue(
            "callback_query",
            {
                "id": query_id,
                "from": user.to_api(),
                "message": self._message_json(stored),
                "chat_instance": chat_instance,
                "data": query.data,
            },
        )
        return query_id

    def follow_link(self, user: User, url: str) -> Message:
        """Open a `t.me/<bot>?start=<payload>` link: the user sends `/start <payload>`."""
        parts = urlsplit(url if "://" in url else f"https://{url}")
        query = parse_qs(parts.query)
        if parts.scheme == "tg":
            bot = query.get("domain", [""])[0]
        else:
            if parts.hostname not in ("t.me", "telegram.me", "telegram.dog"):
                raise ValueError(f"{url!r} is not a t.me link")
            bot = parts.path.strip("/")
        if bot.lower() != self.bot_username.lower():
            raise ValueError(f"{url!r} opens @{bot}, not @{self.bot_username}")
        if "startgroup" in query:
            raise NotImplementedError("startgroup links are not simulated")
        payload = query.get("start", [""])[0]
        if payload and not _PAYLOAD.fullmatch(payload):
            raise ValueError(f"start payload {payload!r} is not 1-64 of A-Za-z0-9_-")
        return self.user_sends(user, self.private(user), f"/start {payload}".strip())

    def user_blocks_bot(self, user: User) -> None:
        """The user blocks the bot: a `my_chat_member` update (member → kicked)."""
        if user.blocked:
            return
        user.blocked = True
        self._my_chat_member(self.private(user), user, "member", "kicked")

    def user_unblocks_bot(self, user: User) -> None:
        """The user unblocks the bot (Restart): `my_chat_member` kicked → member."""
        if not user.blocked:
            return
        user.blocked = False
        self._my_chat_member(self.private(user), user, "kicked", "member")

    def user_joins(self, group: Chat, user: User) -> Message:
        """`user` joins `group`: a `new_chat_members` service message."""
        group.members[user.id] = "member"
        message = self._new_message(group, user, service={"new_chat_members": [user.to_api()]})
        self._deliver(message)
        return message

    def user_leaves(self, group: Chat, user: User) -> Message:
        """`user` leaves `group`: a `left_chat_member` service message."""
        group.members[user.id] = "left"
        message = self._new_message(group, user, service={"left_chat_member": user.to_api()})
        self._deliver(message)
        return message

    def bot_added_to(self, group: Chat, by: User, *, admin: bool = False) -> None:
        """`by` adds the bot: `my_chat_member` and a `new_chat_members` message."""
        old = group.bot_status
        group.bot_status = "administrator" if admin else "member"
        self._my_chat_member(group, by, old, group.bot_status)
        message = self._new_message(group, by, service={"new_chat_members": [self._bot_user()]})
        self._deliver(message)

    def bot_removed_from(self, group: Chat, by: User | None = None) -> None:
        """The bot is kicked from `group`: a `my_chat_member` update (→ kicked)."""
        actor = by or self._creator(group)
        old = group.bot_status
        group.bot_status = "kicked"
        self._new_message(group, actor, service={"left_chat_member": self._bot_user()})
        self._my_chat_member(group, actor, old, "kicked")

    def set_bot_admin(self, group: Chat, admin: bool = True, *, by: User | None = None) -> None:
        """Promote (or demote) the bot: a `my_chat_member` update."""
        old = group.bot_status
        group.bot_status = "administrator" if admin else "member"
        self._my_chat_member(group, by or self._creator(group), old, group.bot_status)

    def migrate_group_to_supergroup(self, group: Chat, *, by: User | None = None) -> Chat:
        """Upgrade a basic group: a new chat id; the old one answers 400 `migrate_to_chat_id`.

        Both service messages (`migrate_to_chat_id` in the old chat, `migrate_from_chat_id`
        in the new one) are delivered to the bot if it is a member.
        """
        if group.type != "group" or group.migrated_to is not None:
            raise ValueError(f"{group!r} is not a basic group")
        actor = by or self._creator(group)
        number = self._next_group
        self._next_group += 1
        upgraded = Chat(
            id=-(1_002_000_000_000 + number),
            type="supergroup",
            title=group.title,
            members=dict(group.members),
            bot_status=group.bot_status,
            migrated_from=group.id,
        )
        self.chats[upgraded.id] = upgraded
        to_message = self._new_message(group, actor, service={"migrate_to_chat_id": upgraded.id})
        group.migrated_to = upgraded.id
        from_message = self._new_message(
            upgraded, actor, service={"migrate_from_chat_id": group.id}
        )
        self._deliver(to_message)
        self._deliver(from_message)
        return upgraded

    def make_uneditable(self, message: MessageRef) -> None:
        """From now on edits of `message` answer 400 "message can't be edited" (old messages)."""
        self._stored(message).editable = False

    # ------------------------------------------------------------------ looking at it

    def chat_view(
        self, user: User, chat: ChatArg, *, topic: Topic | int | Literal["all"] | None = "all"
    ) -> list[ViewMessage]:
        """The chat as `user` sees it now: visible (not deleted) messages, oldest first.

        A migrated group shows its history followed by the supergroup's. `topic` narrows a
        forum to one topic (None = General).
        """
        target = self._chat_arg(chat)
        while target.migrated_to is not None:
            target = self.chats[target.migrated_to]
        self._require_sees(user, target)
        history = [target]
        while history[0].migrated_from is not None:
            history.insert(0, self.chats[history[0].migrated_from])
        messages = [m for c in history for m in c.messages.values() if not m.deleted]
        if topic != "all":
            wanted = self._topic_id(target, topic) if topic is not None else None
            messages = [m for m in messages if m.thread_id == wanted]
        return [view_of(m, self.bot_name) for m in messages]

    def transcript(self, user: User, chat: ChatArg) -> str:
        """`chat_view` as text, for a closing note in a test report."""
        target = self._chat_arg(chat)
        return render(user, target, self.chat_view(user, target))

    def messages(self, chat: ChatArg, *, include_deleted: bool = False) -> list[Message]:
        """The stored messages of a chat (all senders)."""
        target = self._chat_arg(chat)
        return [m for m in target.messages.values() if include_deleted or not m.deleted]

    def last_bot_message(self, chat: ChatArg) -> Message | None:
        """The bot's newest visible message in `chat`."""
        mine = [m for m in self.messages(chat) if m.from_bot and m.service is None]
        return mine[-1] if mine else None

    def calls_of(self, method: str) -> list[Call]:
        """Calls of one method (case-insensitive)."""
        return [c for c in self.calls if c.method.lower() == method.lower()]

    def errors(self) -> list[Call]:
        """Calls that Telegram would have refused (status other than 200)."""
        return [c for c in self.calls if c.status not in (None, 200)]

    def answer_for(self, callback_query_id: str) -> CallbackAnswer | None:
        """The bot's (first, accepted) answer to a press, or None."""
        return self.callback_queries[callback_query_id].answer

    def unanswered_queries(self) -> list[CallbackQuery]:
        """Presses the bot never answered (the user's client would show a spinner)."""
        return [q for q in self.callback_queries.values() if q.answer is None]

    def commands_for(self, user: User, chat: ChatArg) -> list[dict[str, str]]:
        """The command menu `user` sees in `chat`, resolved like Telegram (scopes, language)."""
        target = self._chat_arg(chat)
        if target.type == "private":
            scopes: list[tuple[Any, ...]] = [("chat", target.id), ("all_private_chats",)]
        else:
            admin = target.members.get(user.id) in ("creator", "administrator")
            scopes = [("chat_member", target.id, user.id)]
            if admin:
                scopes.append(("chat_administrators", target.id))
            scopes.append(("chat", target.id))
            if admin:
                scopes.append(("all_chat_administrators",))
            scopes.append(("all_group_chats",))
        scopes.append(("default",))
        for scope in scopes:
            for language in (user.language_code or "", ""):
                if (scope, language) in self.commands:
                    return self.commands[scope, language]
        return []

    @property
    def flood_events(self) -> list[FloodEvent]:
        """Every 429 answered, in order."""
        return self._flood.events

    @property
    def early_retries(self) -> int:
        """Requests that came while their chat (or the bot) was still banned."""
        return self._flood.early_retries

    def early_retries_for(self, chat: ChatArg) -> int:
        return self._flood.early_by_chat[self._chat_arg(chat).id]

    @property
    def pending_updates(self) -> list[dict[str, Any]]:
        """Updates the bot has not confirmed yet (via the next getUpdates offset)."""
        return list(self._updates)

    async def wait_until(
        self, predicate: Callable[[], Any], timeout: float = 10.0, *, interval: float = 0.01
    ) -> Any:
        """Wait until `predicate()` is truthy and return its value; TimeoutError otherwise."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            if self.internal_errors:
                raise AssertionError(f"the fake failed:\n{self.internal_errors[-1]}")
            if asyncio.get_running_loop().time() >= deadline:
                recent = ", ".join(repr(c) for c in self.calls[-8:])
                raise TimeoutError(f"condition not met within {timeout} s; last calls: {recent}")
            await asyncio.sleep(interval)

    async def wait_for_call(
        self,
        method: str,
        where: Callable[[Call], bool] | None = None,
        *,
        timeout: float = 10.0,
        after: int = 0,
    ) -> Call:
        """The first finished call of `method` (from index `after` of `calls`) matching
        `where`."""

        def found() -> Call | None:
            for call in self.calls[after:]:
                if call.method.lower() != method.lower() or call.status is None:
                    continue
                if where is None or where(call):
                    return call
            return None

        result: Call = await self.wait_until(found, timeout)
        return result

    async def wait_polling(self, timeout: float = 10.0) -> None:
        """Wait until the bot has a getUpdates request open (it is listening)."""

        def polling() -> bool:
            return any(
                c.method.lower() == "getupdates" and c.status is None and not c.cancelled
                for c in self.calls
            )

        await self.wait_until(polling, timeout)

    # ------------------------------------------------------------------ HTTP

    async def _not_found(self, request: web.Request) -> web.Response:
        return _reply(ApiError(404, "Not Found").envelope(), 404)

    async def _download(self, request: web.Request) -> web.StreamResponse:
        if request.match_info["token"] != self.token:
            return _reply(ApiError(401, "Unauthorized: invalid token specified").envelope(), 401)
        path = request.match_info["path"]
        file_id = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        photo = self._files.get(file_id)
        if photo is None:
            return _reply(ApiError(404, "Not Found").envelope(), 404)
        return web.Response(body=self._file_bytes(file_id, photo), content_type="image/jpeg")

    async def _handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        token = request.match_info["token"]
        call = Call(method, {}, self.now())
        self.calls.append(call)
        try:
            values, files = await _read_request(request)
        except web.HTTPRequestEntityTooLarge:
            return self._finish(call, ApiError(413, "Request Entity Too Large"))
        call.params = _loggable(values, files)
        if not _TOKEN_SHAPE.fullmatch(token):
            return self._finish(call, ApiError(404, "Not Found"))
        if token != self.token:
            return self._finish(call, ApiError(401, "Unauthorized: invalid token specified"))
        handler = self._methods.get(method.lower())
        if handler is None:
            return self._finish(call, ApiError(404, "Not Found"))
        if self.outages.get(method.lower(), 0) > 0:
            self.outages[method.lower()] -= 1
            return self._finish(call, ApiError(502, "Bad Gateway"))
        fault = self.faults.get(method.lower())
        if fault is not None and fault.active(self.now()):
            fault.met += 1
            if fault.delay:
                await asyncio.sleep(fault.delay)
            error = fault.error()
            if error is not None:
                return self._finish(call, error)
        try:
            result = await handler(Params(values, files))
        except ApiError as error:
            return self._finish(call, error)
        except asyncio.CancelledError:
            call.cancelled = True
            raise
        except Exception:
            self.internal_errors.append(traceback.format_exc())
            return self._finish(call, ApiError(500, "Internal Server Error"))
        call.status = 200
        call.result = result
        return _reply({"ok": True, "result": result}, 200)

    def _finish(self, call: Call, error: ApiError) -> web.Response:
        call.status = error.code
        call.description = error.description
        call.parameters = error.parameters
        return _reply(error.envelope(), error.code)

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

    def _bot_receives(self, message: Message) -> bool:
        chat = message.chat
        if chat.type == "private":
            return True
        if not chat.bot_present:
            return False
        if not self.privacy_mode or chat.bot_is_admin:
            return True
        text = message.text or ""
        if text.startswith("/"):
            command = text.split(maxsplit=1)[0] if text.strip() else ""
            _, _, addressee = command.partition("@")
            return not addressee or addressee.lower() == self.bot_username.lower()
        replied = message.reply_to
        return replied is not None and replied.from_bot

    def _my_chat_member(self, chat: Chat, actor: User, old: str, new: str) -> None:
        bot = self._bot_user()
        self._queue(
            "my_chat_member",
            {
                "chat": chat.to_api(),
                "from": actor.to_api(),
                "date": self._date(),
                "old_chat_member": _member(bot, old),
                "new_chat_member": _member(bot, new),
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
        chat = message.chat
        data: dict[str, Any] = {
            "message_id": message.message_id,
            "date": message.date,
            "chat": chat.to_api(),
            "from": self._bot_user() if message.sender is None else message.sender.to_api(),
        }
        if message.thread_id is not None:
            data["message_thread_id"] = message.thread_id
            if chat.forum:
                data["is_topic_message"] = True
        if not nested:
            replied = message.reply_to
            if (
                replied is None
                and chat.forum
                and message.thread_id not in (None, message.message_id)
            ):
                replied = chat.messages.get(message.thread_id or 0)
            if replied is not None and not replied.deleted:
                data["reply_to_message"] = self._message_json(replied, nested=True)
        if message.text is not None:
            data["text"] = message.text
            if message.entities:
                data["entities"] = message.entities
        if message.photo is not None:
            data["photo"] = message.photo.sizes()
            if message.caption:
                data["caption"] = message.caption
                if message.caption_entities:
                    data["caption_entities"] = message.caption_entities
        if message.edit_date is not None:
            data["edit_date"] = message.edit_date
        markup = inline_markup(message.reply_markup)
        if markup is not None:
            data["reply_markup"] = markup
        if message.service:
            data.update(message.service)
        return data

    def _new_message(self, chat: Chat, sender: User | None, **fields: Any) -> Message:
        message = Message(
            chat=chat,
            message_id=chat.next_message_id,
            date=self._date(),
            sender=sender,
            **fields,
        )
        chat.next_message_id += 1
        chat.messages[message.message_id] = message
        return message

    # ------------------------------------------------------------------ helpers

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

    def _require_chat_id(self, p: Params) -> None:
        if not p.has("chat_id"):
            raise bad_request("chat_id is empty")

    def _chat(self, p: Params) -> Chat:
        """`chat_id` → the chat; 400 for unknown chats and migrated groups."""
        self._require_chat_id(p)
        raw = (p.text("chat_id") or "").strip()
        chat: Chat | None = None
        if raw.startswith("@"):
            name = raw[1:].lower()
            chat = next(
                (c for c in self.chats.values() if c.username and c.username.lower() == name),
                None,
            )
        else:
            with contextlib.suppress(ValueError):
                chat = self.chats.get(int(raw))
        if chat is None:
            raise bad_request("chat not found")
        if chat.migrated_to is not None:
            raise bad_request(
                "group chat was upgraded to a supergroup chat",
                {"migrate_to_chat_id": chat.migrated_to},
            )
        return chat

    def _bot_member(self, chat: Chat) -> None:
        if chat.type == "private":
            return
        kind = "group chat" if chat.type == "group" else "supergroup chat"
        if chat.bot_status == "kicked":
            raise forbidden(f"bot was kicked from the {kind}")
        if chat.bot_status not in PRESENT:
            raise forbidden(f"bot is not a member of the {kind}")

    def _writable(self, chat: Chat, method: str) -> None:
        """The bot may write in `chat` (403s), and is not flood-banned there (429)."""
        if chat.type == "private" and chat.user is not None:
            if chat.user.blocked:
                raise forbidden("bot was blocked by the user")
            if not chat.user.started:
                raise forbidden("bot can't initiate conversation with a user")
        self._bot_member(chat)
        if self.flood and method.lower() in COUNTED:
            self._flood.gate(chat, method)

    def _take(self, chat: Chat, method: str) -> None:
        if self.flood:
            self._flood.take(chat, method)

    def _formatted(
        self, p: Params, field: str, entities_field: str, *, caption: bool
    ) -> tuple[str, list[dict[str, Any]]]:
        raw = p.text(field) or ""
        explicit = p.json(entities_field, "can't parse entities JSON object")
        mode = p.text("parse_mode") or ""
        if mode.lower() not in ("", "html", "markdown", "markdownv2"):
            raise bad_request("unsupported parse_mode")
        try:
            if explicit is not None:
                text, entities = raw, check_entities(explicit, raw)
            else:
                text, entities = parse(raw, mode)
        except FormatError as error:
            raise bad_request(f"can't parse entities: {error}") from None
        except ValueError as error:
            raise bad_request(str(error)) from None
        if caption and not text:
            return "", []
        try:
            return finish_text(text, entities)
        except EmptyTextError:
            if caption:
                return "", []
            raise bad_request("text must be non-empty") from None

    def _markup(self, p: Params, *, inline_only: bool = False) -> Rows | None:
        raw = p.json("reply_markup", "can't parse reply keyboard markup JSON object")
        if (
            inline_only
            and raw is not None
            and not (isinstance(raw, dict) and "inline_keyboard" in raw)
        ):
            raise bad_request("inline keyboard expected")
        return parse_reply_markup(raw)

    def _reply_target(self, chat: Chat, p: Params) -> Message | None:
        parameters = p.json("reply_parameters", "can't parse ReplyParameters JSON object")
        allow = p.flag("allow_sending_without_reply")
        target_chat = chat
        message_id: Any = None
        if parameters is not None:
            if not isinstance(parameters, dict) or "message_id" not in parameters:
                raise bad_request('can\'t find field "message_id"')
            message_id = parameters["message_id"]
            allow = bool(parameters.get("allow_sending_without_reply", allow))
            if parameters.get("chat_id") not in (None, chat.id, str(chat.id)):
                other = self.chats.get(int(str(parameters["chat_id"])))
                if other is None:
                    raise bad_request("message to be replied not found")
                target_chat = other
        elif p.has("reply_to_message_id"):
            message_id = p.integer("reply_to_message_id", "message to be replied not found")
        if message_id is None:
            return None
        try:
            target = target_chat.messages.get(int(message_id))
        except (TypeError, ValueError):
            target = None
        if target is None or target.deleted:
            if allow:
                return None
            raise bad_request("message to be replied not found")
        return target

    def _thread(
        self, chat: Chat, p: Params, reply_to: Message | None
    ) -> tuple[int | None, str | None]:
        """Where a new bot message goes: (thread id, message_thread_id as passed)."""
        passed = p.text("message_thread_id") or None
        if passed is None:
            if reply_to is not None and reply_to.chat is chat:
                return reply_to.thread_id, None
            return None, None
        try:
            thread = int(passed)
        except ValueError:
            raise bad_request("message thread not found") from None
        if chat.forum:
            topic = chat.topics.get(thread)
            if topic is None:
                raise bad_request("message thread not found")
            if topic.closed and not chat.bot_is_admin:
                raise bad_request("TOPIC_CLOSED")
        elif chat.type != "supergroup" or thread not in chat.messages:
            raise bad_request("message thread not found")
        return thread, passed

    def _photo(self, source: Upload | str) -> Photo:
        if isinstance(source, str):
            if source.startswith(("http://", "https://")):
                raise bad_request("failed to get HTTP URL content")
            photo = self._files.get(source)
            if photo is None:
                raise bad_request("wrong file identifier/HTTP URL specified")
            return photo
        data = source.data
        if not data:
            raise bad_request("file must be non-empty")
        if len(data) > MAX_PHOTO_BYTES:
            raise bad_request("PHOTO_SAVE_FILE_INVALID")
        try:
            with Image.open(io.BytesIO(data)) as image:
                if self.decode_photos:
                    image.load()
                width, height = image.size
                kind = image.format or "unknown"
        except Exception:
            raise bad_request("IMAGE_PROCESS_FAILED") from None
        if width + height > 10_000 or max(width, height) > 20 * min(width, height):
            raise bad_request("PHOTO_INVALID_DIMENSIONS")
        self._file_count += 1
        number = self._file_count
        photo = Photo(
            file_id=f"AgACAgIAAxkBAAI{number:08d}",
            file_unique_id=f"AQAD{number:08d}",
            width=width,
            height=height,
            data=data,
            format=kind,
        )
        self._files[photo.file_id] = photo
        for size in photo.sizes():
            self._files[size["file_id"]] = photo
        return photo

    def _file_bytes(self, file_id: str, photo: Photo) -> bytes:
        """The original upload, or a JPEG scaled to the requested size of the ladder."""
        size = next((s for s in photo.sizes() if s["file_id"] == file_id), None)
        if size is None or (size["width"], size["height"]) == (photo.width, photo.height):
            return photo.data
        out = io.BytesIO()
        photo.image().convert("RGB").resize((size["width"], size["height"])).save(out, "JPEG")
        return out.getvalue()

    def _edit_target(self, p: Params, method: str) -> Message:
        if p.has("inline_message_id"):
            raise bad_request("MESSAGE_ID_INVALID")
        self._require_chat_id(p)
        message_id = p.integer("message_id", "message identifier is not specified")
        if message_id is None:
            raise bad_request("message identifier is not specified")
        chat = self._chat(p)
        self._writable(chat, method)
        message = chat.messages.get(message_id)
        if message is None or message.deleted:
            raise bad_request("message to edit not found")
        if not message.from_bot or message.service is not None or not message.editable:
            raise bad_request("message can't be edited")
        return message

    def _apply_edit(self, message: Message, **changes: Any) -> dict[str, Any]:
        message.history.append(message.snapshot())
        for name, value in changes.items():
            setattr(message, name, value)
        message.edit_date = self._date()
        return self._message_json(message)

    # ------------------------------------------------------------------ methods

    async def _harmless(self, p: Params) -> bool:
        return True

    async def _get_me(self, p: Params) -> dict[str, Any]:
        return {
            **self._bot_user(),
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy_mode,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    async def _get_updates(self, p: Params) -> list[dict[str, Any]]:
        if self.webhook_url:
            raise ApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; "
                "use deleteWebhook to delete the webhook first",
            )
        offset = p.integer("offset", "offset must be an integer")
        limit = p.integer("limit", "limit must be an integer") or 100
        timeout = p.integer("timeout", "timeout must be an integer") or 0
        allowed = p.json("allowed_updates", "can't parse allowed updates JSON object")
        if isinstance(allowed, list):
            self._allowed = frozenset(str(a) for a in allowed) if allowed else None
        if offset is not None:
            if offset < 0:
                self._updates = self._updates[offset:]
            else:
                self._updates = [u for u in self._updates if u["update_id"] >= offset]
        self._poll_generation += 1
        generation = self._poll_generation
        self._notify()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + max(0, timeout)
        while True:
            if self._poll_generation != generation:
                self.conflicts += 1
                raise ApiError(
                    409,
                    "Conflict: terminated by other getUpdates request; "
                    "make sure that only one bot instance is running",
                )
            if self._updates:
                return self._updates[: min(max(limit, 1), 100)]
            remaining = deadline - loop.time()
            if remaining <= 0 or self._closing:
                return []
            event = self._wakeup
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), remaining)

    async def _delete_webhook(self, p: Params) -> bool:
        self.webhook_url = ""
        if p.flag("drop_pending_updates"):
            self._updates.clear()
        return True

    async def _set_webhook(self, p: Params) -> bool:
        self.webhook_url = p.text("url") or ""
        if p.flag("drop_pending_updates"):
            self._updates.clear()
        return True

    async def _get_webhook_info(self, p: Params) -> dict[str, Any]:
        return {
            "url": self.webhook_url,
            "has_custom_certificate": False,
            "pending_update_count": len(self._updates),
        }

    def _scope(self, p: Params) -> tuple[Any, ...]:
        raw = p.json("scope", "can't parse BotCommandScope JSON object")
        if raw is None:
            return ("default",)
        if not isinstance(raw, dict):
            raise bad_request("can't parse BotCommandScope JSON object")
        kind = raw.get("type")
        if kind in ("default", "all_private_chats", "all_group_chats", "all_chat_administrators"):
            return (kind,)
        if kind not in ("chat", "chat_administrators", "chat_member"):
            raise bad_request("can't parse BotCommandScope: Unsupported type specified")
        if "chat_id" not in raw:
            raise bad_request("can't parse BotCommandScope: Can't find field \"chat_id\"")
        if kind == "chat_member" and "user_id" not in raw:
            raise bad_request("can't parse BotCommandScope: Can't find field \"user_id\"")
        chat = self._chat(Params({"chat_id": raw["chat_id"]}, {}))
        if kind == "chat_administrators" and chat.type == "private":
            raise bad_request("can't use chat_administrators scope in private chats")
        if kind == "chat":
            return ("chat", chat.id)
        if kind == "chat_administrators":
            return ("chat_administrators", chat.id)
        return ("chat_member", chat.id, int(raw["user_id"]))

    def _language(self, p: Params) -> str:
        language = p.text("language_code") or ""
        if language and not re.fullmatch(r"[a-z]{2}", language):
            raise bad_request("invalid language code specified")
        return language

    async def _set_my_commands(self, p: Params) -> bool:
        commands = p.json("commands", "can't parse commands JSON object")
        if not isinstance(commands, list):
            raise bad_request("can't parse commands JSON object")
        if len(commands) > 100:
            raise bad_request("BOT_COMMANDS_TOO_MUCH")
        kept: list[dict[str, str]] = []
        for item in commands:
            if not isinstance(item, dict):
                raise bad_request("can't parse BotCommand: expected an Object")
            command = str(item.get("command", ""))
            description = str(item.get("description", ""))
            if not command:
                raise bad_request("command must be non-empty")
            if not _COMMAND.fullmatch(command.removeprefix("/")):
                raise bad_request("BOT_COMMAND_INVALID")
            if not description:
                raise bad_request("command description must be non-empty")
            if len(description) > 256:
                raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
            kept.append({"command": command.removeprefix("/"), "description": description})
        key = (self._scope(p), self._language(p))
        if kept:
            self.commands[key] = kept
        else:
            self.commands.pop(key, None)
        return True

    async def _delete_my_commands(self, p: Params) -> bool:
        self.commands.pop((self._scope(p), self._language(p)), None)
        return True

    async def _get_my_commands(self, p: Params) -> list[dict[str, str]]:
        return list(self.commands.get((self._scope(p), self._language(p)), []))

    async def _send_message(self, p: Params) -> dict[str, Any]:
        self._require_chat_id(p)
        if not p.text("text"):
            raise bad_request("message text is empty")
        text, entities = self._formatted(p, "text", "entities", caption=False)
        chat = self._chat(p)
        self._writable(chat, "sendMessage")
        if len(text) > MAX_TEXT:
            raise bad_request("message is too long")
        rows = self._markup(p)
        reply_to = self._reply_target(chat, p)
        thread, passed = self._thread(chat, p, reply_to)
        self._take(chat, "sendMessage")
        message = self._new_message(
            chat,
            None,
            text=text,
            entities=entities,
            reply_markup=rows,
            thread_id=thread,
            reply_to=reply_to,
            passed_thread_id=passed,
        )
        return self._message_json(message)

    async def _send_photo(self, p: Params) -> dict[str, Any]:
        self._require_chat_id(p)
        source = p.upload("photo")
        if source is None:
            raise bad_request("there is no photo in the request")
        caption, entities = self._formatted(p, "caption", "caption_entities", caption=True)
        chat = self._chat(p)
        self._writable(chat, "sendPhoto")
        if len(caption) > MAX_CAPTION:
            raise bad_request("message caption is too long")
        photo = self._photo(source)
        rows = self._markup(p)
        reply_to = self._reply_target(chat, p)
        thread, passed = self._thread(chat, p, reply_to)
        self._take(chat, "sendPhoto")
        message = self._new_message(
            chat,
            None,
            photo=photo,
            caption=caption or None,
            caption_entities=entities,
            reply_markup=rows,
            thread_id=thread,
            reply_to=reply_to,
            passed_thread_id=passed,
        )
        return self._message_json(message)

    async def _edit_message_text(self, p: Params) -> dict[str, Any]:
        if not p.text("text"):
            raise bad_request("message text is empty")
        text, entities = self._formatted(p, "text", "entities", caption=False)
        message = self._edit_target(p, "editMessageText")
        if message.text is None:
            raise bad_request("there is no text in the message to edit")
        if len(text) > MAX_TEXT:
            raise bad_request("MESSAGE_TOO_LONG")
        rows = self._markup(p, inline_only=True)
        if (text, entities, rows) == (message.text, message.entities, message.reply_markup):
            raise bad_request(NOT_MODIFIED)
        self._take(message.chat, "editMessageText")
        return self._apply_edit(message, text=text, entities=entities, reply_markup=rows)

    async def _edit_message_caption(self, p: Params) -> dict[str, Any]:
        caption, entities = self._formatted(p, "caption", "caption_entities", caption=True)
        message = self._edit_target(p, "editMessageCaption")
        if message.photo is None:
            raise bad_request("there is no caption in the message to edit")
        if len(caption) > MAX_CAPTION:
            raise bad_request("MEDIA_CAPTION_TOO_LONG")
        rows = self._markup(p, inline_only=True)
        old = (message.caption or "", message.caption_entities, message.reply_markup)
        if (caption, entities, rows) == old:
            raise bad_request(NOT_MODIFIED)
        self._take(message.chat, "editMessageCaption")
        return self._apply_edit(
            message, caption=caption or None, caption_entities=entities, reply_markup=rows
        )

    async def _edit_message_media(self, p: Params) -> dict[str, Any]:
        media = p.json("media", "can't parse InputMedia JSON object")
        if not isinstance(media, dict) or "type" not in media:
            raise bad_request("can't parse InputMedia JSON object")
        if media["type"] != "photo":
            raise bad_request(f"media type {media['type']!r} is not simulated: only photo")
        if not media.get("media"):
            raise bad_request("there is no photo in the request")
        source = p.attached(str(media["media"]))
        if source is None:
            raise bad_request("there is no photo in the request")
        inner = Params(
            {
                "caption": media.get("caption"),
                "caption_entities": media.get("caption_entities"),
                "parse_mode": media.get("parse_mode"),
            },
            {},
        )
        caption, entities = self._formatted(inner, "caption", "caption_entities", caption=True)
        message = self._edit_target(p, "editMessageMedia")
        if len(caption) > MAX_CAPTION:
            raise bad_request("MEDIA_CAPTION_TOO_LONG")
        photo = self._photo(source)
        rows = self._markup(p, inline_only=True)
        old = (message.photo, message.caption or "", message.caption_entities, message.reply_markup)
        if (photo, caption, entities, rows) == old:
            raise bad_request(NOT_MODIFIED)
        self._take(message.chat, "editMessageMedia")
        return self._apply_edit(
            message,
            text=None,
            entities=[],
            photo=photo,
            caption=caption or None,
            caption_entities=entities,
            reply_markup=rows,
        )

    async def _edit_message_reply_markup(self, p: Params) -> dict[str, Any]:
        message = self._edit_target(p, "editMessageReplyMarkup")
        rows = self._markup(p, inline_only=True)
        if rows == message.reply_markup:
            raise bad_request(NOT_MODIFIED)
        self._take(message.chat, "editMessageReplyMarkup")
        return self._apply_edit(message, reply_markup=rows)

    def _delete_one(self, chat: Chat, message_id: int) -> None:
        message = chat.messages.get(message_id)
        if message is None or message.deleted:
            raise bad_request("message to delete not found")
        if chat.is_group and not message.from_bot and not chat.bot_is_admin:
            raise bad_request("message can't be deleted")
        message.deleted = True

    async def _delete_message(self, p: Params) -> bool:
        self._require_chat_id(p)
        message_id = p.integer("message_id", "message identifier is not specified")
        if message_id is None:
            raise bad_request("message identifier is not specified")
        chat = self._chat(p)
        self._bot_member(chat)
        self._delete_one(chat, message_id)
        return True

    async def _delete_messages(self, p: Params) -> bool:
        chat = self._chat(p)
        self._bot_member(chat)
        ids = p.json("message_ids", "can't parse message identifiers JSON object")
        if not isinstance(ids, list) or not 1 <= len(ids) <= 100:
            raise bad_request("message identifiers are not specified")
        for message_id in ids:
            with contextlib.suppress(ApiError):
                self._delete_one(chat, int(message_id))
        return True

    async def _answer_callback_query(self, p: Params) -> bool:
        query = self.callback_queries.get(p.text("callback_query_id") or "")
        if query is None:
            raise bad_request(QUERY_TOO_OLD)
        if query.answer is not None or self.now() - query.created > self.callback_timeout:
            query.late_answers += 1
            raise bad_request(QUERY_TOO_OLD)
        text = p.text("text")
        if text is not None and len(text) > MAX_CALLBACK_ANSWER:
            raise bad_request("MESSAGE_TOO_LONG")
        url = p.text("url")
        if url:
            try:
                parts = urlsplit(url if "://" in url else f"https://{url}")
                good = (
                    parts.hostname in ("t.me", "telegram.me")
                    and parts.path.strip("/").lower() == self.bot_username.lower()
                )
            except ValueError:
                good = False
            if not good:
                raise bad_request("URL_INVALID")
        query.answer = CallbackAnswer(
            text=text,
            show_alert=p.flag("show_alert"),
            url=url,
            cache_time=p.integer("cache_time", "cache_time must be an integer") or 0,
            at=self.now(),
        )
        return True

    async def _get_chat(self, p: Params) -> dict[str, Any]:
        chat = self._chat(p)
        self._bot_member(chat)
        info = chat.to_api()
        info.update(
            accent_color_id=0,
            max_reaction_count=11,
            accepted_gift_types={
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        )
        if chat.is_group:
            info["permissions"] = {"can_send_messages": True, "can_pin_messages": False}
        if chat.pinned:
            pinned = chat.messages.get(chat.pinned[-1])
            if pinned is not None and not pinned.deleted:
                info["pinned_message"] = self._message_json(pinned, nested=True)
        return info

    def _member_json(self, chat: Chat, user_id: int) -> dict[str, Any]:
        if user_id == self.bot_id:
            return _member(self._bot_user(), chat.bot_status if chat.is_group else "member")
        if chat.type == "private":
            if chat.user is None or chat.user.id != user_id:
                raise bad_request("member not found")
            return _member(chat.user.to_api(), "member")
        user = self.users.get(user_id)
        if user is None:
            raise bad_request("PARTICIPANT_ID_INVALID")
        return _member(user.to_api(), chat.members.get(user_id, "left"))

    async def _get_chat_member(self, p: Params) -> dict[str, Any]:
        chat = self._chat(p)
        self._bot_member(chat)
        user_id = p.integer("user_id", "invalid user_id specified")
        if user_id is None:
            raise bad_request("invalid user_id specified")
        return self._member_json(chat, user_id)

    async def _get_chat_administrators(self, p: Params) -> list[dict[str, Any]]:
        chat = self._chat(p)
        self._bot_member(chat)
        if chat.type == "private":
            raise bad_request("there are no administrators in the private chat")
        admins = [
            _member(self.users[uid].to_api(), status)
            for uid, status in chat.members.items()
            if status in ("creator", "administrator")
        ]
        if chat.bot_is_admin:
            admins.append(_member(self._bot_user(), "administrator"))
        return admins

    async def _get_chat_member_count(self, p: Params) -> int:
        chat = self._chat(p)
        self._bot_member(chat)
        if chat.type == "private":
            return 2
        return sum(status in PRESENT for status in chat.members.values()) + 1

    async def _send_chat_action(self, p: Params) -> bool:
        chat = self._chat(p)
        action = p.text("action") or ""
        self._writable(chat, "sendChatAction")
        if action not in CHAT_ACTIONS:
            raise bad_request("wrong parameter action in request")
        self.chat_actions.append((chat.id, action))
        return True

    def _pin_rights(self, chat: Chat) -> None:
        if chat.is_group and not chat.bot_is_admin:
            raise bad_request("not enough rights to manage pinned messages in the chat")

    async def _pin_chat_message(self, p: Params) -> bool:
        chat = self._chat(p)
        self._writable(chat, "pinChatMessage")
        message_id = p.integer("message_id", "message identifier is not specified")
        self._pin_rights(chat)
        message = chat.messages.get(message_id or 0)
        if message is None or message.deleted:
            raise bad_request("message to pin not found")
        if message_id in chat.pinned:
            chat.pinned.remove(message.message_id)
        chat.pinned.append(message.message_id)
        if chat.is_group:
            note = self._new_message(
                chat, None, service={"pinned_message": self._message_json(message, nested=True)}
            )
            note.thread_id = message.thread_id
        return True

    async def _unpin_chat_message(self, p: Params) -> bool:
        chat = self._chat(p)
        self._bot_member(chat)
        self._pin_rights(chat)
        message_id = p.integer("message_id", "message identifier is not specified")
        if message_id is None:
            if chat.pinned:
                chat.pinned.pop()
        elif message_id in chat.pinned:
            chat.pinned.remove(message_id)
        elif message_id not in chat.messages:
            raise bad_request("message to unpin not found")
        return True

    async def _unpin_all_chat_messages(self, p: Params) -> bool:
        chat = self._chat(p)
        self._bot_member(chat)
        self._pin_rights(chat)
        chat.pinned.clear()
        return True

    async def _leave_chat(self, p: Params) -> bool:
        chat = self._chat(p)
        if chat.type == "private":
            raise bad_request("chat member status can't be changed in private chats")
        self._bot_member(chat)
        old = chat.bot_status
        chat.bot_status = "left"
        self._new_message(chat, None, service={"left_chat_member": self._bot_user()})
        creator = next((uid for uid, s in chat.members.items() if s == "creator"), None)
        actor = self.users[creator] if creator is not None else None
        if actor is not None:
            self._my_chat_member(chat, actor, old, "left")
        return True

    async def _get_file(self, p: Params) -> dict[str, Any]:
        file_id = p.text("file_id") or ""
        photo = self._files.get(file_id)
        if photo is None:
            raise bad_request("invalid file_id")
        return {
            "file_id": file_id,
            "file_unique_id": photo.file_unique_id,
            "file_size": len(self._file_bytes(file_id, photo)),
            "file_path": f"photos/{file_id}.jpg",
        }


def _member(user: dict[str, Any], status: str) -> dict[str, Any]:
    """A ChatMember object for `status`."""
    data: dict[str, Any] = {"status": status, "user": user}
    if status == "creator":
        data["is_anonymous"] = False
    elif status == "administrator":
        data.update(_ADMIN_RIGHTS)
    elif status == "kicked":
        data["until_date"] = 0
    return data


def _reply(body: dict[str, Any], status: int) -> web.Response:
    return web.Response(
        status=status,
        text=json.dumps(body, ensure_ascii=False),
        content_type="application/json",
    )


async def _read_request(request: web.Request) -> tuple[dict[str, Any], dict[str, Upload]]:
    values: dict[str, Any] = dict(request.query)
    files: dict[str, Upload] = {}
    if request.method not in ("POST", "PUT") or not request.can_read_body:
        return values, files
    if request.content_type == "application/json":
        body = await request.json()
        if isinstance(body, dict):
            values.update(body)
        return values, files
    form = await request.post()
    for name, value in form.items():
        if isinstance(value, web.FileField):
            files[name] = Upload(value.filename, value.file.read())
        else:
            values[name] = value
    return values, files


def _loggable(values: dict[str, Any], files: dict[str, Upload]) -> dict[str, Any]:
    """Parameters for `calls`: strings as sent, JSON fields decoded, files summarised."""
    logged: dict[str, Any] = {}
    for name, value in values.items():
        if name in _JSON_FIELDS and isinstance(value, str):
            try:
                logged[name] = json.loads(value)
            except ValueError:
                logged[name] = value
        else:
            logged[name] = value
    logged.update(files)
    return logged
