"""Who may do what where: the chat a request names, the bot's place in it, and the right
to write there (blocked users, never-started chats, flood bans)."""

from __future__ import annotations

import contextlib

from bot.playground.api.errors import bad_request, forbidden
from bot.playground.api.flood import COUNTED
from bot.playground.api.params import Params
from bot.playground.world.models import PRESENT, Chat
from bot.playground.world.state import World


class Access(World):
    """The checks every Bot API method part shares."""

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
        """Count a send or an edit against the flood limits (429 when over one)."""
        if self.flood:
            self._flood.take(chat, method)
