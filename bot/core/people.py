"""The people's and chats' repository: users (names, languages, who opened the bot and
who blocked it), chats, their settings, those waiting for a chat's next game, and a group
that became a supergroup, on either database (`bot.core.database`)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.database import Database, Transaction
from bot.core.recent import Recent
from bot.core.rows import ChatSettings, Languages, SeasonLength

CACHED = 4096  # chats' settings and people's languages kept in memory


class People:
    """Users, chats and their settings; the settings and languages read on every update
    are kept in memory (the recent ones), changed only through here."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self._chat_settings: Recent[int, ChatSettings] = Recent(CACHED)
        self._languages: Recent[int, Languages] = Recent(CACHED)

    # -- users -------------------------------------------------------------------------

    async def remember_user(
        self, user_id: int, name: str, username: str | None, telegram_language: str | None = None
    ) -> None:
        """Name and username; Telegram's language code too when it sent one."""
        await self.database.write(
            "INSERT INTO users (id, name, username, telegram_language) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET name = excluded.name, username = excluded.username, "
            "telegram_language = COALESCE(excluded.telegram_language, users.telegram_language)",
            (user_id, name, username, telegram_language),
        )
        if telegram_language is not None and user_id in self._languages:
            self._languages[user_id] = Languages(self._languages[user_id].chosen, telegram_language)

    async def user_language(self, user_id: int) -> Languages:
        """The language picked for the private chat (None: follow Telegram) and the last
        language code Telegram sent."""
        if user_id not in self._languages:
            rows = await self.database.rows(
                "SELECT language, telegram_language FROM users WHERE id = ?", (user_id,)
            )
            self._languages[user_id] = Languages(rows[0][0], rows[0][1]) if rows else Languages()
        return self._languages[user_id]

    async def set_user_language(self, user_id: int, language: str | None) -> None:
        await self.database.write("UPDATE users SET language = ? WHERE id = ?", (language, user_id))
        self._languages.pop(user_id, None)

    async def set_started(self, user_id: int) -> None:
        await self.database.write(
            "UPDATE users SET started = 1, blocked = 0 WHERE id = ?", (user_id,)
        )

    async def started_users(self, user_ids: Sequence[int]) -> set[int]:
        """Those of `user_ids` who have opened a private chat with the bot."""
        marks = ", ".join("?" * len(user_ids))
        rows = await self.database.rows(
            f"SELECT id FROM users WHERE started = 1 AND id IN ({marks})", tuple(user_ids)
        )
        return {row[0] for row in rows}

    async def set_blocked(self, user_id: int) -> bool:
        """Mark the user unreachable; whether that is news (so the group is told once)."""
        changed = await self.database.write(
            "UPDATE users SET blocked = 1 WHERE id = ? AND blocked = 0", (user_id,)
        )
        return changed > 0

    async def set_reachable(self, user_id: int) -> bool:
        """The user wrote to the bot, or unblocked it: reachable again; whether that is news."""
        changed = await self.database.write(
            "UPDATE users SET blocked = 0 WHERE id = ? AND blocked = 1", (user_id,)
        )
        return changed > 0

    async def is_blocked(self, user_id: int) -> bool:
        """Whether the user's private chat refused the bot (403) since they last wrote."""
        rows = await self.database.rows("SELECT blocked FROM users WHERE id = ?", (user_id,))
        return bool(rows and rows[0][0])

    # -- chats -------------------------------------------------------------------------

    async def remember_chat(self, chat_id: int, kind: str, title: str) -> None:
        await self.database.write(
            "INSERT INTO chats (id, type, title) VALUES (?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET type = excluded.type, title = excluded.title",
            (chat_id, kind, title),
        )

    async def chat_settings(self, chat_id: int) -> ChatSettings:
        """The chat's settings; defaults until saved."""
        if chat_id not in self._chat_settings:
            rows = await self.database.rows(
                "SELECT options, language, computers, shows_deals, season_length, time_zone "
                "FROM chat_settings WHERE chat_id = ?",
                (chat_id,),
            )
            self._chat_settings[chat_id] = (
                ChatSettings(
                    options=rows[0][0],
                    language=rows[0][1],
                    computers=bool(rows[0][2]),
                    shows_deals=bool(rows[0][3]),
                    season_length=SeasonLength(rows[0][4]),
                    time_zone=rows[0][5],
                )
                if rows
                else ChatSettings()
            )
        return self._chat_settings[chat_id]

    async def save_chat_settings(self, chat_id: int, settings: ChatSettings) -> None:
        await self.database.write(
            "INSERT INTO chat_settings (chat_id, options, language, computers, shows_deals, "
            "season_length, time_zone) VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (chat_id) DO UPDATE SET "
            "options = excluded.options, language = excluded.language, "
            "computers = excluded.computers, shows_deals = excluded.shows_deals, "
            "season_length = excluded.season_length, time_zone = excluded.time_zone",
            (
                chat_id,
                settings.options,
                settings.language,
                int(settings.computers),
                int(settings.shows_deals),
                settings.season_length,
                settings.time_zone,
            ),
        )
        self._chat_settings[chat_id] = settings

    async def add_waiter(self, chat_id: int, user_id: int) -> bool:
        """Tell the user when the chat's next game starts; False if already waiting."""
        added = await self.database.write(
            "INSERT INTO waiters (chat_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
            (chat_id, user_id),
        )
        return added > 0

    async def take_waiters(self, chat_id: int) -> list[int]:
        """The chat's waiters, in the order they asked; they wait no more."""

        async def take(db: Transaction) -> list[int]:
            waiting = "SELECT user_id FROM waiters WHERE chat_id = ? ORDER BY rowid"
            users = [int(row[0]) for row in await db.fetch(waiting, (chat_id,))]
            await db.execute("DELETE FROM waiters WHERE chat_id = ?", (chat_id,))
            return users

        return await self.database.atomically(take)

    async def migrate_chat(self, old_id: int, new_id: int) -> None:
        """A group became a supergroup: games, results, badges, ratings, seasons, settings
        and waiters follow the new id."""

        async def move(db: Transaction) -> None:
            # a row the new id has already is kept, the old one left behind
            await db.execute(
                "UPDATE chats SET id = ? WHERE id = ? "
                "AND NOT EXISTS (SELECT 1 FROM chats WHERE id = ?)",
                (new_id, old_id, new_id),
            )
            # the supergroup numbers its messages anew: old ids would hit other messages
            await db.execute(
                "UPDATE games SET chat_id = ?, lobby_message_id = NULL, table_message_id = NULL "
                "WHERE chat_id = ?",
                (new_id, old_id),
            )
            await db.execute(
                "UPDATE chat_settings SET chat_id = ? WHERE chat_id = ? "
                "AND NOT EXISTS (SELECT 1 FROM chat_settings WHERE chat_id = ?)",
                (new_id, old_id, new_id),
            )
            for table in ("ratings", "waiters"):
                await db.execute(
                    f"UPDATE {table} SET chat_id = ? WHERE chat_id = ? "
                    f"AND user_id NOT IN (SELECT user_id FROM {table} WHERE chat_id = ?)",
                    (new_id, old_id, new_id),
                )
            for table in ("game_results", "achievements"):
                await db.execute(
                    f"UPDATE {table} SET chat_id = ? WHERE chat_id = ?", (new_id, old_id)
                )
            for table in ("seasons", "season_ratings"):  # unless the new id has its own
                await db.execute(
                    f"UPDATE {table} SET chat_id = ? WHERE chat_id = ? "
                    f"AND NOT EXISTS (SELECT 1 FROM {table} WHERE chat_id = ?)",
                    (new_id, old_id, new_id),
                )

        await self.database.atomically(move)
        self._chat_settings.pop(old_id, None)
        self._chat_settings.pop(new_id, None)
