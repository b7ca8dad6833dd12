"""The fake's Mini Apps: @BotFather's app list, and a direct link opened as Telegram's
client opens it — the app's address with `initData` signed with the bot's token exactly as
Telegram signs it (checked by aiogram's own validation, a second author of the rule)."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, parse_qsl, urlsplit

import pytest
from aiogram.utils.web_app import check_webapp_signature, safe_parse_webapp_init_data

from bot.playground import BOT_USERNAME, Chat, FakeTelegram, User

APP = "http://127.0.0.1:9999/app/"


def _world() -> tuple[FakeTelegram, User, Chat]:
    fake = FakeTelegram()
    ann = fake.add_user("Аня", "ann", language_code="ru")
    group = fake.add_group("Двор", [ann])
    fake.add_app("table", APP, "Козёл")
    return fake, ann, group


def test_a_direct_link_opens_the_app_with_init_data_signed_as_telegram_signs_it() -> None:
    fake, ann, group = _world()
    link = f"https://t.me/{BOT_USERNAME}/table?startapp=gAbC_12-x"
    launch = fake.open_app(ann, link, group)
    assert launch is not None and launch.title == "Козёл"
    address = urlsplit(launch.frame)
    assert f"{address.scheme}://{address.netloc}{address.path}" == APP
    assert parse_qs(address.query) == {"tgWebAppStartParam": ["gAbC_12-x"]}
    fragment = parse_qs(address.fragment)
    assert fragment["tgWebAppData"] == [launch.init_data]
    assert fragment["tgWebAppPlatform"] == ["weba"]

    parsed = safe_parse_webapp_init_data(fake.token, launch.init_data)
    assert parsed.user is not None and parsed.user.id == ann.id
    assert parsed.user.first_name == "Аня" and parsed.user.language_code == "ru"
    assert parsed.start_param == "gAbC_12-x"
    assert parsed.chat_type == "group"
    assert abs(parsed.auth_date.timestamp() - fake.now()) < 5
    fields = dict(parse_qsl(launch.init_data))
    assert set(fields) == {"user", "chat_instance", "chat_type", "start_param", "auth_date", "hash"}
    assert json.loads(fields["user"])["allows_write_to_pm"] is True

    assert not check_webapp_signature(fake.token + "x", launch.init_data)
    forged = launch.init_data.replace("gAbC_12-x", "gOther")
    assert not check_webapp_signature(fake.token, forged)


def test_the_chat_instance_names_the_chat_and_the_private_chat_is_the_sender() -> None:
    fake, ann, group = _world()
    other = fake.add_group("Дача", [ann])
    link = f"t.me/{BOT_USERNAME}/table"

    def fields(chat: Chat) -> dict[str, str]:
        launch = fake.open_app(ann, link, chat)
        assert launch is not None
        return dict(parse_qsl(launch.init_data))

    first, again, elsewhere = fields(group), fields(group), fields(other)
    assert first["chat_instance"] == again["chat_instance"] != elsewhere["chat_instance"]
    assert str(group.id) not in first["chat_instance"]
    assert "start_param" not in first
    private = fields(fake.private(ann))
    assert private["chat_type"] == "sender"


def test_other_links_are_not_apps_and_an_unknown_app_is_refused() -> None:
    fake, ann, group = _world()
    for link in (
        f"https://t.me/{BOT_USERNAME}?start=abc",
        "https://t.me/another_bot/table?startapp=x",
        "https://example.org/a/b",
    ):
        assert fake.open_app(ann, link, group) is None
    with pytest.raises(LookupError):
        fake.open_app(ann, f"https://t.me/{BOT_USERNAME}/nope?startapp=x", group)
    with pytest.raises(LookupError):
        fake.open_app(ann, f"https://t.me/{BOT_USERNAME}/table?startapp=a%20b", group)
    with pytest.raises(ValueError):
        fake.add_app("x", APP)
