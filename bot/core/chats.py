"""People and chats: who they are, the languages they read, a chat's settings, and who waits
for the chat's next game."""

from __future__ import annotations

import unicodedata

from bot.core.rows import ChatSettings, Languages, Player
from bot.core.storage import Storage

NAME_WIDTH = 24
"""The longest name the bot shows: pictures, captions and buttons stay readable, and four
of them never push a caption past Telegram's limit."""


def shown_name(full_name: str, username: str | None, user_id: int) -> str:
    """A person's name as the bot shows it: without control and format characters (a
    right-to-left override would reorder the rest of a line; zero-width ones hide), spaces
    folded, cut to `NAME_WIDTH` at a visible «…»; a name that is left blank becomes
    the @username, else the id."""
    kept = "".join(
        " " if c.isspace() else c for c in full_name if unicodedata.category(c)[0] != "C"
    )
    name = " ".join(kept.split())
    if not name:
        name = f"@{username}" if username else f"#{user_id}"
    return name if len(name) <= NAME_WIDTH else f"{name[: NAME_WIDTH - 1].rstrip()}…"


class Chats:
    """Shared through the dispatcher; the handlers' way to people and chat settings."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def player(
        self, user_id: int, name: str, username: str | None, language: str | None
    ) -> Player:
        """The user as a (not yet seated) player, remembered for the leaderboard."""
        name = shown_name(name, username, user_id)
        await self.storage.people.remember_user(user_id, name, username, language)
        return Player(0, user_id, name)

    async def opened_private_chat(
        self, user_id: int, name: str, username: str | None, language: str | None
    ) -> Player:
        """/start in private: the bot may write to the user from now on."""
        seated = await self.player(user_id, name, username, language)
        await self.storage.people.set_started(user_id)
        return seated

    async def blocked_bot(self, user_id: int) -> bool:
        """The user blocked the bot: nothing is written to them until they are back; whether
        that is news."""
        return await self.storage.people.set_blocked(user_id)

    async def back_in_touch(self, user_id: int) -> bool:
        """The user wrote to the bot or unblocked it; whether they had been unreachable."""
        return await self.storage.people.set_reachable(user_id)

    async def has_started(self, user_id: int) -> bool:
        return bool(await self.storage.people.started_users([user_id]))

    async def language(self, user_id: int) -> Languages:
        """(chosen, Telegram's) language of the user's private chat."""
        return await self.storage.people.user_language(user_id)

    async def set_language(self, user_id: int, language: str | None) -> None:
        await self.storage.people.set_user_language(user_id, language)

    async def remember_chat(self, chat_id: int, kind: str, title: str) -> None:
        await self.storage.people.remember_chat(chat_id, kind, title)

    async def settings(self, chat_id: int) -> ChatSettings:
        return await self.storage.people.chat_settings(chat_id)

    async def save_settings(self, chat_id: int, settings: ChatSettings) -> None:
        await self.storage.people.save_chat_settings(chat_id, settings)

    async def wait_for_next_game(self, chat_id: int, user_id: int) -> bool:
        """Tell the user when the chat's next game starts; False if already waiting."""
        return await self.storage.people.add_waiter(chat_id, user_id)

    async def moved(self, old_id: int, new_id: int) -> None:
        """A group became a supergroup: everything of it follows the new id."""
        await self.storage.people.migrate_chat(old_id, new_id)
