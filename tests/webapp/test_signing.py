"""`initData` checked as Telegram documents it, and the app's own passes: what is let in,
and each way in that is refused."""

from __future__ import annotations

import hashlib
import hmac
import json
from urllib.parse import parse_qsl, urlencode

import pytest

from bot.webapp.init_data import Refusal, UnauthorizedError, signed, validated
from bot.webapp.passes import BadPassError, Grant, checked, issued

TOKEN = "123456:ABC-our-bot"
NOW = 1_800_000_000.0
DAY = 86400
USER = {"id": 42, "first_name": "Аня", "last_name": "К", "username": "anya", "language_code": "en"}


def fields(**changed: str) -> dict[str, str]:
    base = {
        "user": json.dumps(USER, ensure_ascii=False),
        "chat_instance": "-7001",
        "chat_type": "supergroup",
        "start_param": "gAbCdEfGhIjKlMnOp",
        "auth_date": str(int(NOW) - 60),
    }
    return {**base, **changed}


def test_signed_as_telegram_documents_it_is_let_in() -> None:
    data = signed(fields(), TOKEN)
    # the hash by Telegram's recipe, written out: key = HMAC("WebAppData", token)
    pairs = dict(parse_qsl(data))
    check = "\n".join(f"{k}={v}" for k, v in sorted(pairs.items()) if k != "hash")
    key = hmac.new(b"WebAppData", TOKEN.encode(), hashlib.sha256).digest()
    assert pairs["hash"] == hmac.new(key, check.encode(), hashlib.sha256).hexdigest()

    launch = validated(data, TOKEN, NOW, DAY)
    assert (launch.user_id, launch.full_name, launch.username) == (42, "Аня К", "anya")
    assert (launch.language, launch.start_param) == ("en", "gAbCdEfGhIjKlMnOp")


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ("", Refusal.MISSING),
        ("not a query", Refusal.MALFORMED),
        (urlencode(fields()), Refusal.MALFORMED),  # no hash at all
        (signed(fields(), TOKEN).replace("supergroup", "private"), Refusal.FORGED),
        (signed(fields(), "654321:another-bot"), Refusal.FORGED),
        (signed(fields(auth_date=str(int(NOW) - DAY - 1)), TOKEN), Refusal.TOO_OLD),
        (signed(fields(auth_date="soon"), TOKEN), Refusal.TOO_OLD),
        (signed(fields(auth_date=str(int(NOW) + 3600)), TOKEN), Refusal.TOO_OLD),
        (signed({k: v for k, v in fields().items() if k != "user"}, TOKEN), Refusal.NO_USER),
        (signed(fields(user='{"first_name": "x"}'), TOKEN), Refusal.NO_USER),
    ],
    ids=[
        "missing",
        "malformed",
        "unsigned",
        "wrong-hash",
        "another-bot",
        "too-old",
        "no-date",
        "from-the-future",
        "missing-user",
        "user-without-id",
    ],
)
def test_anything_else_is_refused_with_its_reason(data: str, reason: Refusal) -> None:
    with pytest.raises(UnauthorizedError) as refused:
        validated(data, TOKEN, NOW, DAY)
    assert refused.value.reason is reason


def test_a_pass_is_the_servers_for_one_person_and_game_until_it_expires() -> None:
    grant = Grant(user_id=42, game_id=7, name="Аня", language="ru", expires=int(NOW) + 3600)
    token = issued(grant, TOKEN)
    assert checked(token, TOKEN, NOW) == grant
    body, _, mac = token.partition(".")
    other_game = issued(Grant(42, 8, "Аня", "ru", grant.expires), TOKEN).partition(".")[0]
    refused = [
        issued(grant, "654321:another-bot"),  # another bot's server
        f"{other_game}.{mac}",  # game 7's signature on a pass for game 8
        f"{body}.",
        "junk",
        "",
    ]
    for token_given in refused:
        with pytest.raises(BadPassError):
            checked(token_given, TOKEN, NOW)
    with pytest.raises(BadPassError):
        checked(token, TOKEN, grant.expires)  # expired
