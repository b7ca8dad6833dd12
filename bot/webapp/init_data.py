"""Telegram's `initData`, checked as Telegram documents it: HMAC-SHA256 under a key derived
from the bot's token, and no older than a set age. Pure: the time is given."""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import parse_qsl, urlencode

SIGNING_LABEL = b"WebAppData"
FUTURE_SLACK = 300  # seconds an `auth_date` may lie ahead of our clock


class Refusal(StrEnum):
    """Why `initData` is refused (logged: never the data itself)."""

    MISSING = "missing"
    MALFORMED = "malformed"
    FORGED = "forged"  # the hash does not match: forged, or another bot's
    TOO_OLD = "too-old"
    NO_USER = "no-user"


class UnauthorizedError(Exception):
    """`initData` that is not Telegram's for this bot, now."""

    def __init__(self, reason: Refusal) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Launch:
    """Who opened the app, from where: what a valid `initData` says."""

    user_id: int
    full_name: str
    username: str | None
    language: str | None  # Telegram's language code of the user
    start_param: str  # "" when the app was opened without one
    auth_date: int


def _secret(bot_token: str) -> bytes:
    return hmac.new(SIGNING_LABEL, bot_token.encode(), hashlib.sha256).digest()


def _check_string(fields: dict[str, str]) -> str:
    return "\n".join(f"{key}={fields[key]}" for key in sorted(fields) if key != "hash")


def signed(fields: dict[str, str], bot_token: str) -> str:
    """`fields` as an `initData` query string with the `hash` Telegram would give it."""
    digest = hmac.new(_secret(bot_token), _check_string(fields).encode(), hashlib.sha256)
    return urlencode({**fields, "hash": digest.hexdigest()})


def validated(init_data: str, bot_token: str, now: float, max_age: float) -> Launch:
    """What `init_data` says, if Telegram signed it for `bot_token` at most `max_age`
    seconds before `now`; else `UnauthorizedError` with the reason."""
    if not init_data:
        raise UnauthorizedError(Refusal.MISSING)
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise UnauthorizedError(Refusal.MALFORMED) from None
    fields = dict(pairs)
    given = fields.get("hash", "")
    if len(fields) != len(pairs) or not given:
        raise UnauthorizedError(Refusal.MALFORMED)
    expected = hmac.new(_secret(bot_token), _check_string(fields).encode(), hashlib.sha256)
    if not hmac.compare_digest(expected.hexdigest(), given.lower()):
        raise UnauthorizedError(Refusal.FORGED)
    auth_date = fields.get("auth_date", "")
    if not auth_date.isdigit() or not now - max_age <= int(auth_date) <= now + FUTURE_SLACK:
        raise UnauthorizedError(Refusal.TOO_OLD)
    return _launch(fields, int(auth_date))


def _launch(fields: dict[str, str], auth_date: int) -> Launch:
    try:
        user = json.loads(fields.get("user", ""))
    except ValueError:
        raise UnauthorizedError(Refusal.NO_USER) from None
    if not isinstance(user, dict) or type(user.get("id")) is not int:
        raise UnauthorizedError(Refusal.NO_USER)
    name = " ".join(str(user.get(part) or "") for part in ("first_name", "last_name")).strip()
    username, language = user.get("username"), user.get("language_code")
    return Launch(
        user_id=user["id"],
        full_name=name,
        username=username if isinstance(username, str) else None,
        language=language if isinstance(language, str) else None,
        start_param=fields.get("start_param", ""),
        auth_date=auth_date,
    )
