"""Looking at the world: a chat as a user sees it (`chat_view`, `transcript`), what was
stored and said on the wire (`messages`, `calls`, `errors`, answers, command menus, flood
events, updates, the files sent: `file_bytes`, `sent_file`), and waiting for any of it
(`wait_until`, `wait_for_call`, `wait_polling`), each wait as patient as
`Looking.patience` makes it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Literal

from bot.playground.api.files import file_bytes
from bot.playground.api.flood import FloodEvent
from bot.playground.api.params import Call
from bot.playground.world.models import (
    CallbackAnswer,
    CallbackQuery,
    Message,
    SentFile,
    Topic,
    User,
)
from bot.playground.world.state import ChatArg, World
from bot.playground.world.view import ViewMessage, render, view_of


class Looking(World):
    """Reads the world; changes nothing."""

    patience: float = 1.0
    """Every wait's timeout is multiplied by it: a test suite on a loaded machine sets more
    (the waits still return as soon as their condition holds)."""

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

    def file_bytes(self, file_id: str) -> bytes:
        """The bytes of a file the bot sent, by any `file_id` the fake gave it: an
        animation's or a document's as uploaded, a photo's original or one of its sizes
        (KeyError for an id the fake never gave). A message's own: `message.file`, and
        `message.uploaded` says whether that send uploaded it or reused a `file_id`."""
        photo = self._files.get(file_id)
        if photo is not None:
            return file_bytes(file_id, photo)
        return self.sent_file(file_id).data

    def sent_file(self, file_id: str) -> SentFile:
        """An animation or document the bot sent (`kind`, `data`, `file_name`,
        `mime_type`, …), by its `file_id`; KeyError for any other id."""
        try:
            return self._kept[file_id]
        except KeyError:
            raise KeyError(f"the bot sent no animation or document {file_id!r}") from None

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
        """Wait until `predicate()` is truthy and return its value; TimeoutError after
        `timeout` × `patience` seconds."""
        timeout *= self.patience
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
