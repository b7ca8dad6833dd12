"""The world's state: users, chats, topics, messages, photos, files and callback queries."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from PIL import Image

ChatType = Literal["private", "group", "supergroup"]
FileKind = Literal["animation", "document"]
MemberStatus = Literal["creator", "administrator", "member", "left", "kicked"]
PRESENT: frozenset[str] = frozenset({"creator", "administrator", "member"})
Rows = list[list[dict[str, Any]]]


@dataclass(eq=False)
class User:
    """A simulated Telegram user (never a bot)."""

    id: int
    first_name: str
    username: str | None = None
    language_code: str | None = None
    last_name: str | None = None
    started: bool = False
    """The user has opened the private chat with the bot (sent /start)."""
    blocked: bool = False
    """The user has blocked the bot."""

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}" if self.last_name else self.first_name

    def to_api(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.last_name:
            data["last_name"] = self.last_name
        if self.username:
            data["username"] = self.username
        if self.language_code:
            data["language_code"] = self.language_code
        return data

    def __repr__(self) -> str:
        return f"User({self.id}, {self.name!r})"


@dataclass(eq=False)
class Topic:
    """A forum topic; its id is the id of the service message that created it."""

    thread_id: int
    name: str
    icon_color: int = 0x6FB9F0
    closed: bool = False


@dataclass(eq=False)
class Chat:
    """A private chat with the bot (id = the user's id), a group or a supergroup."""

    id: int
    type: ChatType
    title: str | None = None
    user: User | None = None
    username: str | None = None
    forum: bool = False
    members: dict[int, MemberStatus] = field(default_factory=dict)
    bot_status: MemberStatus = "member"
    topics: dict[int, Topic] = field(default_factory=dict)
    messages: dict[int, Message] = field(default_factory=dict)
    next_message_id: int = 1
    migrated_to: int | None = None
    migrated_from: int | None = None
    pinned: list[int] = field(default_factory=list)

    @property
    def is_group(self) -> bool:
        return self.type != "private"

    @property
    def bot_present(self) -> bool:
        return self.type == "private" or self.bot_status in PRESENT

    @property
    def bot_is_admin(self) -> bool:
        return self.bot_status in ("administrator", "creator")

    def to_api(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "type": self.type}
        if self.user is not None:
            data["first_name"] = self.user.first_name
            if self.user.last_name:
                data["last_name"] = self.user.last_name
            if self.user.username:
                data["username"] = self.user.username
        else:
            data["title"] = self.title
            if self.username:
                data["username"] = self.username
            if self.forum:
                data["is_forum"] = True
        return data

    def __repr__(self) -> str:
        label = self.title if self.user is None else self.user.name
        return f"Chat({self.id}, {self.type}, {label!r})"


@dataclass(eq=False)
class Photo:
    """An uploaded photo: the original bytes, decoded size and Telegram's size ladder."""

    file_id: str
    file_unique_id: str
    width: int
    height: int
    data: bytes
    format: str

    def image(self) -> Image.Image:
        """The photo decoded with Pillow."""
        return Image.open(io.BytesIO(self.data))

    def sizes(self) -> list[dict[str, Any]]:
        """PhotoSize objects as Telegram returns them: thumbnails, then the largest size."""
        longest = max(self.width, self.height)
        result: list[dict[str, Any]] = []
        for index, box in enumerate((90, 320, 800, 1280, 2560)):
            if box >= longest and index:
                break
            scale = min(1.0, box / longest)
            result.append(
                {
                    "file_id": f"{self.file_id}_{box}",
                    "file_unique_id": f"{self.file_unique_id}{box}",
                    "width": max(1, round(self.width * scale)),
                    "height": max(1, round(self.height * scale)),
                    "file_size": max(1, round(len(self.data) * scale * scale)),
                }
            )
        if longest <= 2560:
            result.append(
                {
                    "file_id": self.file_id,
                    "file_unique_id": self.file_unique_id,
                    "width": self.width,
                    "height": self.height,
                    "file_size": len(self.data),
                }
            )
        return result


@dataclass(eq=False)
class SentFile:
    """A file the bot sent (sendAnimation, sendDocument), kept with its bytes: the bot may
    send it again by `file_id` (each upload gets a new one; `file_unique_id` is a digest
    of the bytes, the same for the same bytes)."""

    kind: FileKind
    file_id: str
    file_unique_id: str
    data: bytes
    mime_type: str
    file_name: str | None = None
    width: int = 0
    height: int = 0
    duration: int = 0
    """An animation's: what the bot passed, else a GIF's own size (duration: 0)."""

    @property
    def file_size(self) -> int:
        return len(self.data)

    def to_api(self, *, as_document: bool = False) -> dict[str, Any]:
        """An Animation or Document object; an animation `as_document` is the Document
        Telegram sets beside it ("for backward compatibility")."""
        data: dict[str, Any] = {"file_id": self.file_id, "file_unique_id": self.file_unique_id}
        if self.kind == "animation" and not as_document:
            data.update(width=self.width, height=self.height, duration=self.duration)
        if self.file_name:
            data["file_name"] = self.file_name
        data["mime_type"] = self.mime_type
        data["file_size"] = self.file_size
        return data


@dataclass(frozen=True)
class Revision:
    """A message's content before one of its edits."""

    date: int
    text: str | None
    entities: tuple[dict[str, Any], ...]
    caption: str | None
    photo: Photo | None
    reply_markup: Rows | None
    file: SentFile | None = None


@dataclass(eq=False)
class Message:
    """A message in a chat, as stored by the fake (the bot's and the users')."""

    chat: Chat
    message_id: int
    date: int
    sender: User | None
    """The user who sent it; None for the bot."""
    text: str | None = None
    entities: list[dict[str, Any]] = field(default_factory=list)
    caption: str | None = None
    caption_entities: list[dict[str, Any]] = field(default_factory=list)
    photo: Photo | None = None
    file: SentFile | None = None
    """The animation or document it carries (its `kind` says which)."""
    uploaded: bool = False
    """Its photo or file came as an upload (True) or by a `file_id` sent before (False;
    False too without either): the send that made it, or the edit that last put it."""
    reply_markup: Rows | None = None
    thread_id: int | None = None
    reply_to: Message | None = None
    service: dict[str, Any] | None = None
    edit_date: int | None = None
    history: list[Revision] = field(default_factory=list)
    deleted: bool = False
    editable: bool = True
    passed_thread_id: str | None = None
    """`message_thread_id` exactly as the bot passed it (None when it passed none)."""
    delivered: bool = False
    """An update was queued for the bot."""

    @property
    def from_bot(self) -> bool:
        return self.sender is None

    @property
    def edited(self) -> bool:
        return self.edit_date is not None

    @property
    def content(self) -> str | None:
        """What a user reads: the text, or the caption of a photo or a file."""
        return self.text if self.text is not None else self.caption

    @property
    def buttons(self) -> list[list[str]]:
        """Inline keyboard rows as button texts."""
        return [[button["text"] for button in row] for row in self.reply_markup or []]

    def snapshot(self) -> Revision:
        return Revision(
            date=self.edit_date or self.date,
            text=self.text,
            entities=tuple(self.entities),
            caption=self.caption,
            photo=self.photo,
            reply_markup=self.reply_markup,
            file=self.file,
        )

    def __repr__(self) -> str:
        who = "bot" if self.sender is None else self.sender.name
        return f"Message({self.chat.id}/{self.message_id}, {who}, {self.content!r})"


class Delivery(NamedTuple):
    """One POST of an update to the webhook."""

    update_id: int
    status: int  # the HTTP status of the answer; 0: none (refused, timed out)
    url: str  # where it went (a worker's, behind a balancer)


@dataclass(frozen=True)
class CallbackAnswer:
    """What the bot answered to a callback query."""

    text: str | None
    show_alert: bool
    url: str | None
    cache_time: int
    at: float


@dataclass(eq=False)
class CallbackQuery:
    """A button press and, once it came, the bot's answer."""

    id: str
    user: User
    message: Message
    data: str
    created: float
    answer: CallbackAnswer | None = None
    late_answers: int = 0
    """Answers that came after the query expired or after a first answer."""
