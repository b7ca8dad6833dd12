"""A chat as one user sees it: a list of `ViewMessage`s and a human-readable transcript."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.playground.world.models import Chat, Message, User


@dataclass
class ViewMessage:
    """One visible message: what is on the screen, nothing the user cannot see."""

    chat_id: int
    message_id: int
    sender: str
    from_bot: bool
    text: str | None
    """The message text, or the caption of its photo or file."""
    has_photo: bool = False
    photo_size: tuple[int, int] | None = None
    file_kind: str | None = None
    """"animation" or "document" for a message carrying a file."""
    file_name: str | None = None
    buttons: list[list[str]] = field(default_factory=list)
    """Inline keyboard rows as button texts."""
    edited: bool = False
    thread_id: int | None = None
    reply_to: int | None = None
    service: str | None = None
    """For service messages ("Alice joined the group", ...), what the client shows."""


def service_text(message: Message) -> str | None:
    """The grey line a client shows for a service message."""
    service = message.service
    if not service:
        return None
    actor = message.sender.name if message.sender is not None else "the bot"
    if "new_chat_members" in service:
        names = ", ".join(member["first_name"] for member in service["new_chat_members"])
        return f"{actor} added {names}" if message.sender and names != actor else f"{names} joined"
    if "left_chat_member" in service:
        return f"{service['left_chat_member']['first_name']} left the group"
    if "migrate_to_chat_id" in service:
        return f"group upgraded to a supergroup (id {service['migrate_to_chat_id']})"
    if "migrate_from_chat_id" in service:
        return f"supergroup created from group {service['migrate_from_chat_id']}"
    if "forum_topic_created" in service:
        return f"{actor} created the topic «{service['forum_topic_created']['name']}»"
    if "pinned_message" in service:
        pinned = service["pinned_message"]
        what = pinned.get("text") or pinned.get("caption") or "a photo"
        return f"{actor} pinned «{_short(what)}»"
    if "group_chat_created" in service:
        return f"{actor} created the group"
    return f"service message {sorted(service)}"


def view_of(message: Message, bot_name: str) -> ViewMessage:
    photo, file = message.photo, message.file
    return ViewMessage(
        chat_id=message.chat.id,
        message_id=message.message_id,
        sender=bot_name if message.sender is None else message.sender.name,
        from_bot=message.sender is None,
        text=message.content,
        has_photo=photo is not None,
        photo_size=None if photo is None else (photo.width, photo.height),
        file_kind=None if file is None else file.kind,
        file_name=None if file is None else file.file_name,
        buttons=message.buttons,
        edited=message.edited,
        thread_id=message.thread_id,
        reply_to=None if message.reply_to is None else message.reply_to.message_id,
        service=service_text(message),
    )


def render(user: User, chat: Chat, views: Sequence[ViewMessage]) -> str:
    """A transcript a human can read in a test report."""
    if chat.type == "private":
        title = f"private chat of {user.name} with the bot"
    else:
        title = f"«{chat.title}» ({chat.type} {chat.id})"
    lines = [f"— {title}, as {user.name} sees it —"]
    for view in views:
        prefix = f"#{view.message_id}"
        if view.thread_id is not None:
            prefix += f" [topic {view.thread_id}]"
        if view.service is not None:
            lines.append(f"{prefix} · {view.service}")
            continue
        tags = []
        if view.has_photo and view.photo_size is not None:
            tags.append(f"photo {view.photo_size[0]}×{view.photo_size[1]}")
        if view.file_kind is not None:
            tags.append(f"{view.file_kind} {view.file_name or ''}".rstrip())
        if view.edited:
            tags.append("edited")
        if view.reply_to is not None:
            tags.append(f"reply to #{view.reply_to}")
        who = f"{view.sender} (bot)" if view.from_bot else view.sender
        head = f"{prefix} {who}" + (f" [{', '.join(tags)}]" if tags else "") + ":"
        body = (view.text or "").splitlines() or [""]
        lines.append(f"{head} {body[0]}".rstrip())
        lines.extend(f"    {line}" for line in body[1:])
        lines.extend("    " + " ".join(f"[{text}]" for text in row) for row in view.buttons if row)
    if len(lines) == 1:
        lines.append("(no messages)")
    return "\n".join(lines)


def _short(text: str, limit: int = 40) -> str:
    line = text.splitlines()[0] if text else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"
