"""Bot API objects made from the world's models (Message, ChatMember), and the update kinds."""

from __future__ import annotations

from typing import Any

from bot.playground.api.keyboards import inline_markup
from bot.playground.world.models import Message

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
"""What the bot gets while it has not passed `allowed_updates`."""

ADMIN_RIGHTS = {
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


def member(user: dict[str, Any], status: str) -> dict[str, Any]:
    """A ChatMember object for `status`."""
    data: dict[str, Any] = {"status": status, "user": user}
    if status == "creator":
        data["is_anonymous"] = False
    elif status == "administrator":
        data.update(ADMIN_RIGHTS)
    elif status == "kicked":
        data["until_date"] = 0
    return data


def message_json(message: Message, bot: dict[str, Any], *, nested: bool = False) -> dict[str, Any]:
    """A Message object; `bot` is the bot's User object (the sender of its messages).

    A reply carries the replied message (`nested`, itself without one); in a forum a
    message of a topic replies to the topic's first message, as Telegram shows it.
    """
    chat = message.chat
    data: dict[str, Any] = {
        "message_id": message.message_id,
        "date": message.date,
        "chat": chat.to_api(),
        "from": bot if message.sender is None else message.sender.to_api(),
    }
    if message.thread_id is not None:
        data["message_thread_id"] = message.thread_id
        if chat.forum:
            data["is_topic_message"] = True
    if not nested:
        replied = message.reply_to
        if replied is None and chat.forum and message.thread_id not in (None, message.message_id):
            replied = chat.messages.get(message.thread_id or 0)
        if replied is not None and not replied.deleted:
            data["reply_to_message"] = message_json(replied, bot, nested=True)
    if message.text is not None:
        data["text"] = message.text
        if message.entities:
            data["entities"] = message.entities
    if message.photo is not None:
        data["photo"] = message.photo.sizes()
    file = message.file
    if file is not None:  # an animation carries its Document too, as Telegram's do
        if file.kind == "animation":
            data["animation"] = file.to_api()
        data["document"] = file.to_api(as_document=True)
    if message.caption:  # only a photo or a file has one
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
