"""What the simulated people do: write, press buttons, follow links, block the bot, join
and leave groups. Each turns into the updates the bot would get."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

from bot.playground.api.formatting import command_entities
from bot.playground.world.models import PRESENT, CallbackQuery, Chat, Message, Topic, User
from bot.playground.world.state import ChatArg, MessageRef, World

_PAYLOAD = re.compile(r"[A-Za-z0-9_-]{1,64}")


class Acting(World):
    """The users' side of the chats."""

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
