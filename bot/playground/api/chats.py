"""Chats and members: getChat, getChatMember(s), chat actions, pins, leaveChat."""

from __future__ import annotations

from typing import Any

from bot.playground.api.access import Access
from bot.playground.api.errors import bad_request
from bot.playground.api.objects import member
from bot.playground.api.params import Handler, Params
from bot.playground.world.models import PRESENT, Chat

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


class ChatMethods(Access):
    """What the bot may learn of a chat and do to it besides writing."""

    def _handlers(self) -> dict[str, Handler]:
        return {
            **super()._handlers(),
            "getchat": self._get_chat,
            "getchatmember": self._get_chat_member,
            "getchatadministrators": self._get_chat_administrators,
            "getchatmembercount": self._get_chat_member_count,
            "sendchataction": self._send_chat_action,
            "pinchatmessage": self._pin_chat_message,
            "unpinchatmessage": self._unpin_chat_message,
            "unpinallchatmessages": self._unpin_all_chat_messages,
            "leavechat": self._leave_chat,
        }

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
            return member(self._bot_user(), chat.bot_status if chat.is_group else "member")
        if chat.type == "private":
            if chat.user is None or chat.user.id != user_id:
                raise bad_request("member not found")
            return member(chat.user.to_api(), "member")
        user = self.users.get(user_id)
        if user is None:
            raise bad_request("PARTICIPANT_ID_INVALID")
        return member(user.to_api(), chat.members.get(user_id, "left"))

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
            member(self.users[uid].to_api(), status)
            for uid, status in chat.members.items()
            if status in ("creator", "administrator")
        ]
        if chat.bot_is_admin:
            admins.append(member(self._bot_user(), "administrator"))
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
            self._new_message(
                chat,
                None,
                service={"pinned_message": self._message_json(message, nested=True)},
                thread_id=message.thread_id,
            )
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
