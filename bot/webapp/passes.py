"""The app's bearer tokens: what `initData` is exchanged for once — a pass bound to one
person and one game, signed by the server, valid an hour. Pure: the time is given."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
from dataclasses import asdict, dataclass

PASS_SECONDS = 3600
SIGNING_LABEL = b"TableAppPass"  # not Telegram's label: a pass is no initData, nor the reverse


class BadPassError(Exception):
    """A token that is not this server's, has been changed, or has expired."""


@dataclass(frozen=True, slots=True)
class Grant:
    """Whom a token lets in, to which game, until when (epoch s)."""

    user_id: int
    game_id: int
    name: str  # as the bot shows the person (a seat taken in the app)
    language: str
    expires: int


def _key(bot_token: str) -> bytes:
    """The server's signing key: derived from the bot's token, so every worker and a
    restarted bot accept the passes given before."""
    return hmac.new(SIGNING_LABEL, bot_token.encode(), hashlib.sha256).digest()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def issued(grant: Grant, bot_token: str) -> str:
    """`grant` as a token: its fields, then their signature."""
    body = _b64(json.dumps(asdict(grant), separators=(",", ":")).encode())
    mac = hmac.new(_key(bot_token), body.encode(), hashlib.sha256).digest()
    return f"{body}.{_b64(mac)}"


def checked(token: str, bot_token: str, now: float) -> Grant:
    """The pass `token` carries, if this server signed it and it has not expired."""
    body, _, mac = token.partition(".")
    expected = hmac.new(_key(bot_token), body.encode(), hashlib.sha256).digest()
    try:
        if not hmac.compare_digest(_unb64(mac), expected):
            raise BadPassError("not signed here")
        grant = Grant(**json.loads(_unb64(body)))
    except (ValueError, TypeError, binascii.Error):
        raise BadPassError("malformed") from None
    if grant.expires <= now:
        raise BadPassError("expired")
    return grant
