"""The bot's side of updates: getMe, getUpdates (long polls), webhooks, answers to button
presses, and the command menus (setMyCommands and its kin, per scope and language)."""

from __future__ import annotations

import asyncio
import contextlib
import re
from typing import Any
from urllib.parse import urlsplit

import aiohttp

from bot.playground.api.access import Access
from bot.playground.api.errors import QUERY_TOO_OLD, ApiError, bad_request
from bot.playground.api.params import Handler, Params
from bot.playground.world.models import CallbackAnswer, Delivery

MAX_CALLBACK_ANSWER = 200
_COMMAND = re.compile(r"[a-z0-9_]{1,32}")
_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
WEBHOOK_TIMEOUT = aiohttp.ClientTimeout(total=10)
WEBHOOK_RETRY_MIN = 0.1  # seconds before a failed delivery is tried again, doubling …
WEBHOOK_RETRY_MAX = 2.0  # … up to this


class UpdateMethods(Access):
    """Updates out, answers and command menus in."""

    def _handlers(self) -> dict[str, Handler]:
        return {
            **super()._handlers(),
            "getme": self._get_me,
            "getupdates": self._get_updates,
            "deletewebhook": self._delete_webhook,
            "setwebhook": self._set_webhook,
            "getwebhookinfo": self._get_webhook_info,
            "setmycommands": self._set_my_commands,
            "deletemycommands": self._delete_my_commands,
            "getmycommands": self._get_my_commands,
            "answercallbackquery": self._answer_callback_query,
        }

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
                handed = self._updates[: min(max(limit, 1), 100)]
                for update in handed:
                    self._handing_over(update)
                return handed
            remaining = deadline - loop.time()
            if remaining <= 0 or self._closing:
                return []
            event = self._wakeup
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), remaining)

    def _handing_over(self, update: dict[str, Any]) -> None:
        """An update leaves for the bot, in a getUpdates answer or a webhook POST (a hook
        for measurements; it may leave again if not confirmed)."""

    async def _delete_webhook(self, p: Params) -> bool:
        self.webhook_url = ""
        if p.flag("drop_pending_updates"):
            self._updates.clear()
        self._notify()
        return True

    async def _set_webhook(self, p: Params) -> bool:
        url = p.text("url") or ""
        secret = p.text("secret_token") or ""
        if url and urlsplit(url).scheme not in ("http", "https"):
            raise bad_request("bad webhook: invalid webhook URL specified")
        if secret and not _SECRET.fullmatch(secret):
            raise bad_request("bad webhook: secret token contains unallowed characters")
        allowed = p.json("allowed_updates", "can't parse allowed updates JSON object")
        if isinstance(allowed, list):
            self._allowed = frozenset(str(a) for a in allowed) if allowed else None
        if p.flag("drop_pending_updates"):
            self._updates.clear()
        self.webhook_url, self.webhook_secret = url, secret
        self._notify()
        if url and not self._background:
            task = asyncio.ensure_future(self._post_updates())
            self._background.add(task)
            task.add_done_callback(self._background.discard)
        return True

    async def _get_webhook_info(self, p: Params) -> dict[str, Any]:
        info: dict[str, Any] = {
            "url": self.webhook_url,
            "has_custom_certificate": False,
            "pending_update_count": len(self._updates),
        }
        if self._webhook_error:
            info["last_error_date"], info["last_error_message"] = self._webhook_error
        return info

    async def _post_updates(self) -> None:
        """POST the pending updates to the webhook one at a time, in order, as Telegram does
        with `max_connections=1` (the local Bot API server's rules: plain HTTP and any port
        are allowed); an update leaves the queue on a 2xx answer, anything else is retried
        after a pause that grows to `WEBHOOK_RETRY_MAX` seconds. Behind a balancer
        (`balanced`) each POST goes to the next worker in turn, a retry too."""
        pause = WEBHOOK_RETRY_MIN
        turn = 0
        async with aiohttp.ClientSession() as session:
            while self.webhook_url and not self._closing:
                if not self._updates:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._wakeup.wait(), 1.0)
                    continue
                update = self._updates[0]
                headers = {SECRET_HEADER: self.webhook_secret} if self.webhook_secret else {}
                workers = self.balanced or [self.webhook_url]
                url = workers[turn % len(workers)]
                turn += 1
                status, error = 0, ""
                self._handing_over(update)
                try:
                    async with session.post(
                        url, json=update, headers=headers, timeout=WEBHOOK_TIMEOUT
                    ) as response:
                        status = response.status
                        error = f"Wrong response from the webhook: {status} {response.reason}"
                except (aiohttp.ClientError, TimeoutError) as failure:
                    error = f"Connection failed: {failure.__class__.__name__}"
                self.webhook_deliveries.append(Delivery(int(update["update_id"]), status, url))
                if 200 <= status < 300:
                    self._updates = [u for u in self._updates if u is not update]
                    pause = WEBHOOK_RETRY_MIN
                    continue
                self._webhook_error = (int(self.now()), error)
                await asyncio.sleep(pause)
                pause = min(WEBHOOK_RETRY_MAX, pause * 2)

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
        self._set_commands(key, kept)
        return True

    async def _delete_my_commands(self, p: Params) -> bool:
        self._set_commands((self._scope(p), self._language(p)), [])
        return True

    def _set_commands(self, key: tuple[tuple[Any, ...], str], kept: list[dict[str, str]]) -> None:
        """Store the menu of a scope and language (none: forget it); listeners hear of a
        change."""
        if self.commands.get(key, []) == kept:
            return
        if kept:
            self.commands[key] = kept
        else:
            self.commands.pop(key, None)
        scope, language = key
        chat_id = scope[1] if len(scope) > 1 else None
        self._emit("commands", chat_id, scope=list(scope), language=language)

    async def _get_my_commands(self, p: Params) -> list[dict[str, str]]:
        return list(self.commands.get((self._scope(p), self._language(p)), []))

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
        self._emit(
            "answer",
            query.message.chat.id,
            query.message.message_id,
            user_id=query.user.id,
            text=text,
            show_alert=query.answer.show_alert,
            url=url,
        )
        return True
