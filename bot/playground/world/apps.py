"""The bot's Mini Apps, as @BotFather's `/newapp` registers them (a short name → the app's
URL), and a direct link to one opened as Telegram's client opens it: the app's URL with
`initData` signed with the bot's token exactly as Telegram signs it — the user, where it
was opened from (`chat_type`, `chat_instance`), `start_param`, `auth_date` and `hash`.

Telegram also adds `signature`, an Ed25519 signature under Telegram's own key for third
parties; nobody but Telegram can make it, so it is left out here.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from dataclasses import dataclass
from urllib.parse import parse_qs, quote, urlencode, urlsplit

from bot.playground.world.models import Chat, User
from bot.playground.world.state import World

VERSION = "8.0"  # the Bot API version of Mini Apps the stand-in speaks
PLATFORM = "weba"  # Telegram Web, which shows an app in a frame
_PARAM = re.compile(r"[A-Za-z0-9_-]{0,512}")
_SHORT_NAME = re.compile(r"[A-Za-z0-9_]{3,30}")


@dataclass(frozen=True, slots=True)
class AppLaunch:
    """An app opened: the address its frame loads (the launch parameters in the fragment,
    as Telegram passes them: never sent to a server) and its title."""

    frame: str
    title: str
    init_data: str


def signed_init_data(token: str, fields: dict[str, str]) -> str:
    """`fields` as an `initData` query string with its `hash`: HMAC-SHA256 of every field
    but the hash, sorted by key as `key=value` lines, under the key HMAC-SHA256("WebAppData",
    token)."""
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    check = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    digest = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode({**fields, "hash": digest}, quote_via=quote)


class Apps(World):
    """The bot's apps and their direct links."""

    def add_app(self, short_name: str, url: str, title: str = "") -> None:
        """Register an app as `/newapp` does: `short_name` opens `url`."""
        if not _SHORT_NAME.fullmatch(short_name):
            raise ValueError(f"a short name is 3-30 of A-Za-z0-9_, not {short_name!r}")
        self.apps[short_name.lower()] = (url, title or short_name)

    def open_app(self, user: User, link: str, chat: Chat) -> AppLaunch | None:
        """Open `https://t.me/<bot>/<short_name>?startapp=<param>` as `user` pressed it in
        `chat`; None if `link` is no direct link to an app, a LookupError if the bot has no
        app of that name or the parameter is not one."""
        parts = urlsplit(link if "://" in link else f"https://{link}")
        path = parts.path.strip("/").split("/")
        if parts.hostname not in ("t.me", "telegram.me") or len(path) != 2:
            return None
        bot, short_name = path
        if bot.lower() != self.bot_username.lower():
            return None
        found = self.apps.get(short_name.lower())
        if found is None:
            raise LookupError(f"@{bot} has no app called {short_name!r}")
        param = parse_qs(parts.query).get("startapp", [""])[0]
        if not _PARAM.fullmatch(param):
            raise LookupError(f"startapp {param!r} is not 0-512 of A-Za-z0-9_-")
        url, title = found
        init_data = self.init_data(user, chat, param)
        fragment = urlencode(
            {"tgWebAppData": init_data, "tgWebAppVersion": VERSION, "tgWebAppPlatform": PLATFORM}
        )
        query = urlencode({"tgWebAppStartParam": param}) if param else ""
        address = f"{url}{'&' if '?' in url else '?'}{query}" if query else url
        return AppLaunch(f"{address}#{fragment}", title, init_data)

    def init_data(self, user: User, chat: Chat, start_param: str = "") -> str:
        """What Telegram gives an app `user` opens from `chat`, signed with the bot's token."""
        person = {k: v for k, v in user.to_api().items() if k != "is_bot"}
        fields = {
            "user": json.dumps(
                {**person, "allows_write_to_pm": True}, ensure_ascii=False, separators=(",", ":")
            ),
            "chat_instance": self.chat_instance(chat),
            "chat_type": "sender" if chat.id == user.id else chat.type,
            "auth_date": str(int(self.now())),
        }
        if start_param:
            fields["start_param"] = start_param
        return signed_init_data(self.token, fields)

    def chat_instance(self, chat: Chat) -> str:
        """An opaque number for `chat`, the same each time (not the chat's id)."""
        digest = hmac.new(self.token.encode(), f"chat:{chat.id}".encode(), hashlib.sha256)
        return str(int.from_bytes(digest.digest()[:8], "big", signed=True))
