"""The fake Bot API server enforces Telegram's rules: proven over real HTTP with aiogram."""

from __future__ import annotations

import asyncio
import io
import json
import re
from typing import Any

import aiohttp
import pytest
from aiogram import Bot, Dispatcher, F
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramConflictError,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNotFound,
    TelegramRetryAfter,
    TelegramUnauthorizedError,
)
from aiogram.filters import Command, CommandStart
from aiogram.types import (
    BotCommand,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeChat,
    BufferedInputFile,
    CallbackQuery,
    ChatMemberAdministrator,
    ChatMemberMember,
    ChatMemberOwner,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
    ReplyParameters,
)
from PIL import Image

from bot.playground import BotAccount, Change, FakeTelegram, FloodLimits, Supergroup
from bot.playground.api.formatting import FormatError, parse_html, parse_markdown_v2

NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup "
    "are exactly the same as a current content and reply markup of the message"
)
OLD_TOKEN = "100500:TEST-token_abcdefghijklmnopqrstuvwxyz"  # every fake's, once: in the source
TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"


class LocalSession(AiohttpSession):
    """aiogram's session without the 250 ms pause for SSL shutdown (plain HTTP here)."""

    async def close(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()


def make_bot(fake: FakeTelegram, token: str | None = None) -> Bot:
    """A client of `fake`, with the bot's token unless another is given."""
    api = TelegramAPIServer.from_base(fake.base)
    return Bot(token or fake.token, session=LocalSession(api=api))


def png(width: int, height: int, color: str = "green") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), color).save(out, "PNG")
    return out.getvalue()


def keyboard(*rows: list[InlineKeyboardButton]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(inline_keyboard=list(rows))


def button(text: str, data: str | None = None, url: str | None = None) -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, callback_data=data, url=url)


async def post(
    fake: FakeTelegram, method: str, token: str | None = None, **fields: Any
) -> tuple[int, dict[str, Any]]:
    url = f"{fake.base}/bot{token or fake.token}/{method}"
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, data=fields) as response,
    ):
        return response.status, await response.json()


# ---------------------------------------------------------------- envelope, tokens, methods


async def test_answers_in_telegrams_envelope_and_method_names_ignore_case(
    fake: FakeTelegram,
) -> None:
    status, body = await post(fake, "GETME")
    assert status == 200
    assert body["ok"] is True
    assert body["result"]["username"] == "kozel_bot"
    assert body["result"]["is_bot"] is True
    status, body = await post(fake, "sendMessage", chat_id="0", text="hi")
    assert (status, body) == (
        400,
        {"ok": False, "error_code": 400, "description": "Bad Request: chat not found"},
    )


async def test_wrong_token_is_401_and_malformed_token_is_404(fake: FakeTelegram) -> None:
    status, body = await post(fake, "getMe", token="100500:WRONG")
    assert (status, body["description"]) == (401, "Unauthorized: invalid token specified")
    status, body = await post(fake, "getMe", token="not-a-token")
    assert (status, body["description"]) == (404, "Not Found")
    intruder = make_bot(fake, "100500:SOMEONE-ELSES-secret")
    async with intruder.session:
        with pytest.raises(TelegramUnauthorizedError):
            await intruder.get_me()


async def test_each_fake_makes_its_own_random_token(fake: FakeTelegram) -> None:
    """The token is in no source: the one every fake had before is refused, and only the
    bot handed `fake.token` acts. A token given explicitly is used as it is."""
    assert re.fullmatch(r"100500:[A-Za-z0-9_-]{43}", fake.token), fake.token
    assert FakeTelegram().token != fake.token
    status, body = await post(fake, "getMe", token=OLD_TOKEN)
    assert (status, body["description"]) == (401, "Unauthorized: invalid token specified")
    async with FakeTelegram(bot=BotAccount(token="42:chosen")) as chosen:
        status, body = await post(chosen, "getMe", token="42:chosen")
        assert (status, body["result"]["id"]) == (200, 42)


async def test_a_request_a_browser_marks_as_another_sites_is_refused(fake: FakeTelegram) -> None:
    """A page of another site open in the person's browser (a link, an image, a form) can
    neither send as the bot nor take its updates, even knowing the token; the bot's own
    requests carry no `Origin` and no `Sec-Fetch-Site`."""
    alice = fake.add_user("Alice")
    group = fake.add_group("Домино", [alice])
    fake.user_sends(alice, group, "/newgame")
    bot_api = f"{fake.base}/bot{fake.token}"
    send = f"{bot_api}/sendMessage?chat_id={group.id}&text=spam"
    foreign = [
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},  # another port of this machine, say
    ]
    async with aiohttp.ClientSession() as session:
        for headers in foreign:
            for url in (send, f"{bot_api}/getUpdates", f"{fake.base}/file/bot{fake.token}/a"):
                async with session.get(url, headers=headers) as response:
                    assert response.status == 403, (url, headers)
                    refusal = await response.json()
                    assert refusal["description"] == "Forbidden: cross-site requests are refused"
        assert [m.text for m in fake.messages(group)] == ["/newgame"]
        assert len(fake.pending_updates) == 1  # not taken
        assert fake.calls == []
        own = {"Origin": fake.base, "Sec-Fetch-Site": "same-origin"}
        for headers in ({}, own):
            async with session.get(send, headers=headers) as response:
                assert response.status == 200, headers
    assert [m.text for m in fake.messages(group)] == ["/newgame", "spam", "spam"]


async def test_unknown_methods_are_404_and_only_harmless_ones_are_ok(
    fake: FakeTelegram, bot: Bot
) -> None:
    status, body = await post(fake, "sendDice", chat_id="1")
    assert (status, body["description"]) == (404, "Not Found")
    assert await bot.set_my_description("Домино") is True
    with pytest.raises(TelegramNotFound):
        await bot.send_dice(1)
    assert [(c.method, c.status) for c in fake.calls[-2:]] == [
        ("setMyDescription", 200),
        ("sendDice", 404),
    ]


async def test_the_calls_log_keeps_parameters_as_sent_with_json_decoded(
    fake: FakeTelegram, bot: Bot
) -> None:
    alice = fake.add_user("Alice")
    fake.user_sends(alice, alice, "/start")
    await bot.send_message(alice.id, "hi", reply_markup=keyboard([button("A", "a")]))
    call = fake.calls_of("sendMessage")[-1]
    assert call.status == 200
    assert call.params["chat_id"] == str(alice.id)
    assert call.params["reply_markup"] == {
        "inline_keyboard": [[{"text": "A", "callback_data": "a"}]]
    }
    assert call.result["text"] == "hi"


# ---------------------------------------------------------------- private chats


async def test_private_chat_needs_start_and_ends_with_a_block(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice", "alice")
    with pytest.raises(TelegramForbiddenError) as never_started:
        await bot.send_message(alice.id, "hello")
    assert never_started.value.message == "Forbidden: bot can't initiate conversation with a user"
    with pytest.raises(ValueError, match="START"):
        fake.user_sends(alice, alice, "hi there")

    fake.user_sends(alice, alice, "/start")
    assert alice.started
    sent = await bot.send_message(alice.id, "Привет")
    assert sent.chat.type == "private"
    assert sent.from_user is not None and sent.from_user.is_bot

    fake.user_blocks_bot(alice)
    with pytest.raises(TelegramForbiddenError) as blocked:
        await bot.send_message(alice.id, "are you there?")
    assert blocked.value.message == "Forbidden: bot was blocked by the user"
    with pytest.raises(TelegramForbiddenError):
        await bot.edit_message_text("edited", chat_id=alice.id, message_id=sent.message_id)
    updates = await bot.get_updates(timeout=0)
    change = updates[-1].my_chat_member
    assert change is not None
    assert (change.old_chat_member.status, change.new_chat_member.status) == ("member", "kicked")

    fake.user_sends(alice, alice, "/start")  # Restart unblocks
    assert not alice.blocked
    await bot.send_message(alice.id, "welcome back")


# ---------------------------------------------------------------- text rules


async def test_text_is_1_to_4096_characters_after_entity_parsing(
    fake: FakeTelegram, bot: Bot
) -> None:
    alice = fake.add_user("Alice")
    fake.user_sends(alice, alice, "/start")
    await bot.send_message(alice.id, "я" * 4096)
    await bot.send_message(alice.id, "<b>" + "x" * 4096 + "</b>", parse_mode="HTML")
    await bot.send_message(alice.id, "&lt;" * 4096, parse_mode="HTML")
    cases = {
        "я" * 4097: "Bad Request: message is too long",
        "": "Bad Request: message text is empty",
        " \n ": "Bad Request: text must be non-empty",
    }
    for text, description in cases.items():
        with pytest.raises(TelegramBadRequest) as refused:
            await bot.send_message(alice.id, text)
        assert refused.value.message == description
    with pytest.raises(TelegramBadRequest) as refused:
        await bot.send_message(alice.id, "<b>" + "x" * 4097 + "</b>", parse_mode="HTML")
    assert refused.value.message == "Bad Request: message is too long"


async def test_malformed_markup_is_refused_with_tdlibs_words(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice")
    fake.user_sends(alice, alice, "/start")
    cases = [
        ("<b>unclosed", "HTML", 'Can\'t find end tag corresponding to start tag "b"'),
        ("<b><i>x</b></i>", "HTML", 'Unmatched end tag at byte offset 7, expected "</i>", '
         'found "</b>"'),
        ("1 < 2", "HTML", 'Unsupported start tag "" at byte offset 2'),
        ("<br>", "HTML", 'Unsupported start tag "br" at byte offset 0'),
        ("Счёт 3-2.", "MarkdownV2", "Character '-' is reserved and must be escaped with the "
         "preceding '\\'"),
        ("*bold", "Markdown", "Can't find end of the entity starting at byte offset 0"),
    ]  # fmt: skip
    for text, mode, reason in cases:
        with pytest.raises(TelegramBadRequest) as refused:
            await bot.send_message(alice.id, text, parse_mode=mode)
        assert refused.value.message == f"Bad Request: can't parse entities: {reason}"
    with pytest.raises(TelegramBadRequest) as refused:
        await bot.send_message(alice.id, "x", parse_mode="BBCode")
    assert refused.value.message == "Bad Request: unsupported parse_mode"


async def test_parsed_text_is_trimmed_and_carries_utf16_entities(
    fake: FakeTelegram, bot: Bot
) -> None:
    alice = fake.add_user("Alice")
    fake.user_sends(alice, alice, "/start")
    sent = await bot.send_message(
        alice.id, "\n  🁣 <b>Ход</b> &amp; <i>пас</i>\r\n  ", parse_mode="HTML"
    )
    assert sent.text == "🁣 Ход & пас"
    assert [(e.type, e.offset, e.length) for e in sent.entities or []] == [
        ("bold", 3, 3),
        ("italic", 9, 3),
    ]


def test_html_and_markdown_parsers_match_tdlib_vectors() -> None:
    assert parse_html("🏟 🏟<i>🏟 &gt;<b aba   =   caba>&lt🏟</b></i>") == (
        "🏟 🏟🏟 ><🏟",
        [
            {"offset": 5, "length": 7, "type": "italic"},
            {"offset": 9, "length": 3, "type": "bold"},
        ],
    )
    assert parse_html('<a href="t.me/kozel_bot">x</a>')[1][0]["url"] == "http://t.me/kozel_bot"
    errors = {
        "🏟 🏟&lt;<abacaba": "Unclosed start tag at byte offset 13",
        "🏟 🏟&lt;<i    aba>": 'Expected equal sign in declaration of an attribute of the tag "i" '
        "at byte offset 13",
        "🏟 🏟&lt;<i    aba  =  190azAz-.,": "Unexpected end of name token at byte offset 27",
        "🏟 🏟&lt;<i>a</i   ": "Unclosed end tag at byte offset 17",
        "<span>x</span>": 'Tag "span" must have class "tg-spoiler" at byte offset 0',
    }
    for text, message in errors.items():
        with pytest.raises(FormatError) as refused:
            parse_html(text)
        assert str(refused.value) == message
    assert parse_markdown_v2("*Ход* _2_\\-3") == (
        "Ход 2-3",
        [{"offset": 0, "length": 3, "type": "bold"}, {"offset": 4, "length": 1, "type": "italic"}],
    )
    with pytest.raises(FormatError, match="Can't find end of Italic entity at byte offset 9"):
        parse_markdown_v2("🏟 🏟_abacaba")


async def test_captions_are_at_most_1024_characters(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice")
    fake.user_sends(alice, alice, "/start")
    picture = BufferedInputFile(png(40, 30), "table.png")
    await bot.send_photo(alice.id, picture, caption="c" * 1024)
    with pytest.raises(TelegramBadRequest) as refused:
        await bot.send_photo(alice.id, picture, caption="c" * 1025)
    assert refused.value.message == "Bad Request: message caption is too long"
    sent = await bot.send_photo(alice.id, picture)
    with pytest.raises(TelegramBadRequest) as refused:
        await bot.edit_message_caption(
            chat_id=alice.id, message_id=sent.message_id, caption="c" * 1025
        )
    assert refused.value.message == "Bad Request: MEDIA_CAPTION_TOO_LONG"


# ---------------------------------------------------------------- edits and deletes


async def test_editing_to_the_same_content_is_not_modified(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice")
    fake.user_sends(alice, alice, "/start")
    markup = keyboard([button("Пас", "pass")])
    sent = await bot.send_message(alice.id, "<b>Ход</b>", parse_mode="HTML", reply_markup=markup)
    chat_id, message_id = alice.id, sent.message_id
    with pytest.raises(TelegramBadRequest) as refused:
        await bot.edit_message_text(
            "<b>Ход</b> ",
            chat_id=chat_id,
            message_id=message_id,
            parse_mode="HTML",
            reply_markup=markup,
        )
    assert refused.value.message == NOT_MODIFIED
    with pytest.raises(TelegramBadRequest) as refused:
        await bot.edit_message_reply_markup(
            chat_id=chat_id, message_id=message_id, reply_markup=markup
        )
    assert refused.value.message == NOT_MODIFIED
    edited = await bot.edit_message_text(  # the bold is gone: that is a change
        "Ход", chat_id=chat_id, message_id=message_id, reply_markup=markup
    )
    assert isinstance(edited, Message) and edited.edit_date is not None
    assert not edited.entities


async def test_editing_text_without_reply_markup_removes_the_keyboard(
    fake: FakeTelegram, bot: Bot
) -> None:
    alice = fake.add_user("Alice")
    fake.user_sends(alice, alice, "/start")
    sent = await bot.send_message(alice.id, "Ваш ход", reply_markup=keyboard([button("Пас", "p")]))
    await bot.edit_message_text("Ждём соперника", chat_id=alice.id, message_id=sent.message_id)
    shown = fake.chat_view(alice, alice)[-1]
    assert (shown.text, shown.buttons, shown.edited) == ("Ждём соперника", [], True)
    stored = fake.messages(alice)[-1]
    assert [revision.text for revision in stored.history] == ["Ваш ход"]


async def test_deleted_and_unknown_messages_cannot_be_edited(fake: FakeTelegram, bot: Bot) -> None:
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    group = fake.add_group("Домино", [alice, bob])
    sent = await bot.send_message(group.id, "Стол")
    assert await bot.delete_message(group.id, sent.message_id) is True
    for message_id in (sent.message_id, 999):
        with pytest.raises(TelegramBadRequest) as refused:
            await bot.edit_message_text("x", chat_id=group.id, message_id=message_id)
        assert refused.value.message == "Bad Request: message to edit not found"
    with pytest.raises(TelegramBadRequest) as refused:
        await bot.delete_message(group.id, sent.message_id)
    assert refused.value.message == "Bad Request: message to delete not found"
    said = fake.user_sends(bob, group, "/newgame")
    with pytest.raises(TelegramBadRequest) as refused:
        await bot.edit_message_text("x", chat_id=group.id, message_id=said.message_id)
    assert refused.value.message == "Bad Request: message can't be edited"
    with pytest.raises(TelegramBadRequest) as refused:
        await bot.delete_message(group.id, said.message_id)  # not an admin
    assert refused.value.message == "Bad Request: message can't be deleted"
    old = await bot.send_message(group.id, "old table")
    fake.make_uneditable(old)
    with pytest.raises(TelegramBadRequest, match="message can't be edited"):
        await bot.edit_message_text("new", chat_id=group.id, message_id=old.message_id)
    assert [m.text for m in fake.chat_view(alice, group)] == ["/newgame", "old table"]


# ---------------------------------------------------------------- keyboards


async def test_inline_keyboards_follow_telegrams_limits(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice")
    fake.user_sends(alice, alice, "/start")
    await bot.send_message(alice.id, "ok", reply_markup=keyboard([button("A", "я" * 32)]))
    eight = [button(str(i), str(i)) for i in range(8)]
    await bot.send_message(alice.id, "100", reply_markup=keyboard(*[eight] * 12, eight[:4]))
    cases = [
        (keyboard([button("A", "я" * 32 + "!")]), "Bad Request: BUTTON_DATA_INVALID"),
        (
            keyboard([button("A", "")]),
            "Bad Request: can't parse inline keyboard button: "
            "Text buttons are unallowed in the inline keyboard",
        ),
        (keyboard(*[eight] * 12, eight[:5]), "Bad Request: reply markup is too long"),
        (keyboard([*eight, button("9", "9")]), "Bad Request: reply markup is too long"),
        (
            keyboard([button("Site", url="not-a-url")]),
            "Bad Request: inline keyboard button URL 'not-a-url' is invalid: Wrong HTTP URL",
        ),
        (
            keyboard([button("FTP", url="ftp://example.com")]),
            "Bad Request: inline keyboard button URL 'ftp://example.com' is invalid: "
            "Unsupported URL protocol",
        ),
    ]
    for markup, description in cases:
        with pytest.raises(TelegramBadRequest) as refused:
            await bot.send_message(alice.id, "x", reply_markup=markup)
        assert refused.value.message == description
    assert len(fake.messages(alice)) == 3  # /start and the two accepted


# ---------------------------------------------------------------- photos


async def test_photos_are_decoded_and_checked(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice")
    fake.user_sends(alice, alice, "/start")
    sent = await bot.send_photo(
        alice.id, BufferedInputFile(png(1200, 800), "t.png"), caption="Стол"
    )
    assert sent.photo is not None
    largest = sent.photo[-1]
    assert (largest.width, largest.height) == (1200, 800)
    assert [size.width for size in sent.photo] == [90, 320, 800, 1200]
    shown = fake.chat_view(alice, alice)[-1]
    assert (shown.has_photo, shown.photo_size, shown.text) == (True, (1200, 800), "Стол")
    assert fake.messages(alice)[-1].photo.image().size == (1200, 800)  # type: ignore[union-attr]

    again = await bot.send_photo(alice.id, largest.file_id)
    assert again.photo is not None and again.photo[-1].file_id == largest.file_id
    file = await bot.get_file(largest.file_id)
    assert file.file_path is not None
    downloaded = await bot.download_file(file.file_path)
    assert downloaded is not None and Image.open(downloaded).size == (1200, 800)

    cases = [
        (b"definitely not an image", "Bad Request: IMAGE_PROCESS_FAILED"),
        (png(9000, 1001), "Bad Request: PHOTO_INVALID_DIMENSIONS"),
        (png(2100, 100), "Bad Request: PHOTO_INVALID_DIMENSIONS"),
        (b"\x89PNG" + bytes(10 * 1024 * 1024), "Bad Request: PHOTO_SAVE_FILE_INVALID"),
        (b"", "Bad Request: file must be non-empty"),
    ]
    for data, description in cases:
        with pytest.raises(TelegramBadRequest) as refused:
            await bot.send_photo(alice.id, BufferedInputFile(data, "x.png"))
        assert refused.value.message == description
    await bot.send_photo(alice.id, BufferedInputFile(png(2000, 100), "ratio-20.png"))


async def test_edit_message_media_swaps_the_picture(fake: FakeTelegram, bot: Bot) -> None:
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    group = fake.add_group("Домино", [alice, bob])
    sent = await bot.send_photo(group.id, BufferedInputFile(png(600, 400), "a.png"), caption="1")
    media = InputMediaPhoto(media=BufferedInputFile(png(900, 600, "red"), "b.png"), caption="2")
    edited = await bot.edit_message_media(media, chat_id=group.id, message_id=sent.message_id)
    assert isinstance(edited, Message) and edited.caption == "2"
    assert edited.photo is not None and edited.photo[-1].width == 900
    shown = fake.chat_view(bob, group)[-1]
    assert (shown.photo_size, shown.edited) == ((900, 600), True)
    assert sent.photo is not None
    with pytest.raises(TelegramBadRequest) as refused:
        await bot.edit_message_media(
            InputMediaPhoto(media=edited.photo[-1].file_id, caption="2"),
            chat_id=group.id,
            message_id=sent.message_id,
        )
    assert refused.value.message == NOT_MODIFIED


# ---------------------------------------------------------------- buttons and callbacks


async def test_callback_queries_are_answered_once_and_in_time(fake: FakeTelegram, bot: Bot) -> None:
    fake.callback_timeout = 5
    alice = fake.add_user("Alice")
    fake.user_sends(alice, alice, "/start")
    sent = await bot.send_message(alice.id, "?", reply_markup=keyboard([button("Да", "yes")]))
    first = fake.user_presses(alice, sent, "Да")
    updates = await bot.get_updates(timeout=0)
    query = updates[-1].callback_query
    assert query is not None and query.id == first
    assert (query.data, query.from_user.id) == ("yes", alice.id)
    assert isinstance(query.message, Message) and query.message.message_id == sent.message_id

    with pytest.raises(TelegramBadRequest) as refused:
        await bot.answer_callback_query(first, "x" * 201)
    assert refused.value.message == "Bad Request: MESSAGE_TOO_LONG"
    with pytest.raises(TelegramBadRequest) as refused:
        await bot.answer_callback_query(first, url="https://example.com")
    assert refused.value.message == "Bad Request: URL_INVALID"
    assert await bot.answer_callback_query(first, "Принято", url="t.me/kozel_bot?start=g1")
    answer = fake.answer_for(first)
    assert answer is not None and (answer.text, answer.url) == (
        "Принято",
        "t.me/kozel_bot?start=g1",
    )
    for query_id in (first, "123"):
        with pytest.raises(TelegramBadRequest) as refused:
            await bot.answer_callback_query(query_id)
        assert refused.value.message == TOO_OLD

    late = fake.user_presses(alice, sent, "yes")  # by callback_data
    fake.advance(5.5)
    with pytest.raises(TelegramBadRequest) as refused:
        await bot.answer_callback_query(late)
    assert refused.value.message == TOO_OLD
    assert [q.id for q in fake.unanswered_queries()] == [late]


async def test_url_buttons_return_the_deep_link_and_following_it_starts_the_bot(
    fake: FakeTelegram, bot: Bot
) -> None:
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    group = fake.add_group("Домино", [alice, bob])
    join = keyboard([button("Сесть за стол", url="https://t.me/kozel_bot?start=join_42")])
    sent = await bot.send_message(group.id, "Набор игроков", reply_markup=join)
    link = fake.user_presses(bob, sent, "Сесть за стол")
    assert link == "https://t.me/kozel_bot?start=join_42"
    started = fake.follow_link(bob, link)
    assert (started.chat.id, started.text) == (bob.id, "/start join_42")
    assert bob.started
    update = (await bot.get_updates(timeout=0))[-1]
    assert update.message is not None and update.message.text == "/start join_42"
    entities = update.message.entities or []
    assert [(e.type, e.offset, e.length) for e in entities] == [("bot_command", 0, 6)]
    with pytest.raises(ValueError, match="not @kozel_bot"):
        fake.follow_link(bob, "https://t.me/other_bot?start=x")
    with pytest.raises(LookupError, match="Сесть за стол"):
        fake.user_presses(bob, sent, "Встать")


# ---------------------------------------------------------------- updates


async def test_long_poll_wakes_on_an_update_and_confirms_by_offset(
    fake: FakeTelegram, bot: Bot
) -> None:
    alice = fake.add_user("Alice")
    poll = asyncio.create_task(bot.get_updates(timeout=5))
    await fake.wait_polling()
    fake.user_sends(alice, alice, "/start")
    updates = await asyncio.wait_for(poll, 1)
    assert [u.message.text for u in updates if u.message] == ["/start"]
    again = await bot.get_updates(timeout=0)
    assert [u.update_id for u in again] == [updates[0].update_id]  # not confirmed yet
    assert await bot.get_updates(offset=updates[0].update_id + 1, timeout=0) == []
    assert fake.pending_updates == []


async def test_a_cancelled_long_poll_loses_no_update(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice")
    poll = asyncio.create_task(bot.get_updates(timeout=5))
    await fake.wait_polling()
    poll.cancel()
    fake.user_sends(alice, alice, "/start")  # races with the dying request
    with pytest.raises(asyncio.CancelledError):
        await poll
    updates = await bot.get_updates(timeout=1)
    assert [u.message.text for u in updates if u.message] == ["/start"]
    first_poll = fake.calls_of("getUpdates")[0]
    assert first_poll.cancelled or first_poll.status == 200  # the answer may have raced the close


async def test_a_second_poller_terminates_the_first_with_409(fake: FakeTelegram, bot: Bot) -> None:
    other = make_bot(fake)
    async with other.session:
        first = asyncio.create_task(bot.get_updates(timeout=5))
        await fake.wait_polling()
        second = asyncio.create_task(other.get_updates(timeout=0))
        with pytest.raises(TelegramConflictError, match="terminated by other getUpdates"):
            await first
        assert await second == []
    assert fake.conflicts == 1


async def test_allowed_updates_filters_what_is_queued(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice")
    fake.user_sends(alice, alice, "/start")
    updates = await bot.get_updates(timeout=0, allowed_updates=["message"])
    sent = await bot.send_message(alice.id, "?", reply_markup=keyboard([button("Да", "yes")]))
    fake.user_presses(alice, sent, "Да")
    fake.user_blocks_bot(alice)
    assert await bot.get_updates(offset=updates[-1].update_id + 1, timeout=0) == []
    assert [next(iter(u)) for u in fake.dropped_updates] == ["callback_query", "my_chat_member"]


async def test_privacy_mode_decides_which_group_messages_reach_the_bot(
    fake: FakeTelegram, bot: Bot
) -> None:
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    group = fake.add_group("Домино", [alice, bob])
    table = await bot.send_message(group.id, "Стол")
    fake.user_sends(alice, group, "привет всем")
    fake.user_sends(alice, group, "/newgame@kozel_bot")
    fake.user_sends(bob, group, "/roll@dice_bot")
    fake.user_sends(bob, group, "/join")
    fake.user_sends(bob, group, "я тоже", reply_to=table)
    updates = await bot.get_updates(timeout=0)
    assert [u.message.text for u in updates if u.message] == [
        "/newgame@kozel_bot",
        "/join",
        "я тоже",
    ]
    fake.set_bot_admin(group)
    fake.user_sends(alice, group, "теперь всё видно")
    updates = await bot.get_updates(offset=updates[-1].update_id + 1, timeout=0)
    assert updates[0].my_chat_member is not None
    assert updates[1].message is not None and updates[1].message.text == "теперь всё видно"
    assert len(fake.chat_view(bob, group)) == 7  # the bot's view is not the users'
    assert [m.delivered for m in fake.messages(group)[1:4]] == [False, True, False]


# ---------------------------------------------------------------- forums


async def test_forum_topics_keep_message_thread_id(fake: FakeTelegram, bot: Bot) -> None:
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    forum = fake.add_group("Клуб", [alice, bob], supergroup=Supergroup(forum=True))
    topic = fake.add_topic(forum, "Партия 1")
    fake.user_sends(alice, forum, "/newgame", topic=topic)
    updates = await bot.get_updates(timeout=0)
    asked = updates[-1].message
    assert asked is not None
    assert (asked.message_thread_id, asked.is_topic_message) == (topic.thread_id, True)
    assert asked.reply_to_message is not None
    assert asked.reply_to_message.forum_topic_created is not None

    await asked.answer("в теме")  # aiogram passes message_thread_id for topic messages
    await bot.send_message(forum.id, "в General")
    await bot.send_message(
        forum.id, "ответ", reply_parameters=ReplyParameters(message_id=asked.message_id)
    )
    placed = [(m.text, m.thread_id, m.passed_thread_id) for m in fake.messages(forum)[-3:]]
    assert placed == [
        ("в теме", topic.thread_id, str(topic.thread_id)),
        ("в General", None, None),
        ("ответ", topic.thread_id, None),  # a reply lands in the topic; nothing was passed
    ]
    assert [v.text for v in fake.chat_view(bob, forum, topic=None)] == ["в General"]
    with pytest.raises(TelegramBadRequest) as refused:
        await bot.send_message(forum.id, "x", message_thread_id=999)
    assert refused.value.message == "Bad Request: message thread not found"


# ---------------------------------------------------------------- groups


async def test_migration_moves_the_group_to_a_new_id(fake: FakeTelegram, bot: Bot) -> None:
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    group = fake.add_group("Домино", [alice, bob])
    await bot.send_message(group.id, "до апгрейда")
    upgraded = fake.migrate_group_to_supergroup(group)
    assert upgraded.id != group.id and upgraded.type == "supergroup"
    with pytest.raises(TelegramMigrateToChat) as moved:
        await bot.send_message(group.id, "после")
    assert moved.value.migrate_to_chat_id == upgraded.id
    refused = fake.errors()[-1]
    assert refused.description == "Bad Request: group chat was upgraded to a supergroup chat"
    assert refused.parameters == {"migrate_to_chat_id": upgraded.id}
    updates = await bot.get_updates(timeout=0)
    service = [u.message for u in updates if u.message]
    assert [(m.chat.id, m.migrate_to_chat_id, m.migrate_from_chat_id) for m in service] == [
        (group.id, upgraded.id, None),
        (upgraded.id, None, group.id),
    ]
    await bot.send_message(upgraded.id, "после апгрейда")
    texts = [v.text for v in fake.chat_view(alice, group) if v.service is None]
    assert texts == ["до апгрейда", "после апгрейда"]


async def test_a_removed_bot_is_told_and_cannot_write(fake: FakeTelegram, bot: Bot) -> None:
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    group = fake.add_group("Домино", [alice, bob])
    fake.bot_removed_from(group, by=alice)
    update = (await bot.get_updates(timeout=0))[-1]
    change = update.my_chat_member
    assert change is not None and change.chat.id == group.id and change.from_user.id == alice.id
    assert (change.old_chat_member.status, change.new_chat_member.status) == ("member", "kicked")
    with pytest.raises(TelegramForbiddenError) as refused:
        await bot.send_message(group.id, "я вернулся")
    assert refused.value.message == "Forbidden: bot was kicked from the group chat"
    fake.user_sends(alice, group, "/newgame")
    assert (await bot.get_updates(offset=update.update_id + 1, timeout=0)) == []


async def test_chat_members_and_administrators(fake: FakeTelegram, bot: Bot) -> None:
    alice, bob, carol = fake.add_user("Alice"), fake.add_user("Bob"), fake.add_user("Carol")
    group = fake.add_group("Домино", [alice, bob, carol], admins=[bob], supergroup=Supergroup())
    owner = await bot.get_chat_member(group.id, alice.id)
    admin = await bot.get_chat_member(group.id, bob.id)
    member = await bot.get_chat_member(group.id, carol.id)
    assert isinstance(owner, ChatMemberOwner)
    assert isinstance(admin, ChatMemberAdministrator)
    assert isinstance(member, ChatMemberMember)
    admins = await bot.get_chat_administrators(group.id)
    assert {a.user.id for a in admins} == {alice.id, bob.id}
    with pytest.raises(TelegramBadRequest, match="PARTICIPANT_ID_INVALID"):
        await bot.get_chat_member(group.id, 42)
    info = await bot.get_chat(group.id)
    assert (info.type, info.title) == ("supergroup", "Домино")
    fake.user_sends(alice, alice, "/start")
    with pytest.raises(TelegramBadRequest, match="no administrators in the private chat"):
        await bot.get_chat_administrators(alice.id)


async def test_chat_actions_and_pins_need_the_right_rights(fake: FakeTelegram, bot: Bot) -> None:
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    group = fake.add_group("Домино", [alice, bob], supergroup=Supergroup())
    assert await bot.send_chat_action(group.id, "upload_photo")
    with pytest.raises(TelegramBadRequest) as refused:
        await bot.send_chat_action(group.id, "dancing")
    assert refused.value.message == "Bad Request: wrong parameter action in request"
    sent = await bot.send_message(group.id, "Счёт: 0:0")
    with pytest.raises(TelegramBadRequest) as refused:
        await bot.pin_chat_message(group.id, sent.message_id)
    assert (
        refused.value.message
        == "Bad Request: not enough rights to manage pinned messages in the chat"
    )
    fake.set_bot_admin(group)
    assert await bot.pin_chat_message(group.id, sent.message_id)
    assert group.pinned == [sent.message_id]
    assert fake.chat_view(alice, group)[-1].service == "the bot pinned «Счёт: 0:0»"
    assert await bot.unpin_chat_message(group.id, message_id=sent.message_id)
    assert fake.chat_actions == [(group.id, "upload_photo")]


# ---------------------------------------------------------------- commands


async def test_commands_are_stored_per_scope_and_language(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice", language_code="en")
    bob = fake.add_user("Bob", language_code="ru")
    group = fake.add_group("Домино", [alice, bob])
    fake.user_sends(bob, bob, "/start")
    start = BotCommand(command="start", description="Начать")
    await bot.set_my_commands([BotCommand(command="newgame", description="Новая игра")])
    await bot.set_my_commands([start], scope=BotCommandScopeAllPrivateChats())
    await bot.set_my_commands(
        [BotCommand(command="start", description="Start")],
        scope=BotCommandScopeAllPrivateChats(),
        language_code="en",
    )
    await bot.set_my_commands([start], scope=BotCommandScopeChat(chat_id=bob.id))
    listed = await bot.get_my_commands(scope=BotCommandScopeAllPrivateChats())
    assert [(c.command, c.description) for c in listed] == [("start", "Начать")]
    assert [c["description"] for c in fake.commands_for(alice, alice)] == ["Start"]
    assert [c["command"] for c in fake.commands_for(bob, group)] == ["newgame"]
    assert [c["description"] for c in fake.commands_for(bob, bob)] == ["Начать"]
    assert await bot.delete_my_commands()
    assert fake.commands_for(bob, group) == []
    refusals = [
        ([BotCommand(command="New Game", description="x")], "Bad Request: BOT_COMMAND_INVALID"),
        ([BotCommand(command="", description="x")], "Bad Request: command must be non-empty"),
        (
            [BotCommand(command="go", description="")],
            "Bad Request: command description must be non-empty",
        ),
    ]
    for commands, description in refusals:
        with pytest.raises(TelegramBadRequest) as refused:
            await bot.set_my_commands(commands)
        assert refused.value.message == description
    status, body = await post(
        fake, "setMyCommands", commands=json.dumps([]), scope=json.dumps({"type": "chat"})
    )
    assert (status, body["description"]) == (
        400,
        "Bad Request: can't parse BotCommandScope: Can't find field \"chat_id\"",
    )


# ---------------------------------------------------------------- flood control


async def test_flood_is_off_by_default(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice")
    group = fake.add_group("Домино", [alice])
    for index in range(40):
        await bot.send_message(group.id, f"ход {index}")
    assert fake.flood_events == []


async def test_group_flood_limit_answers_429_and_counts_early_retries() -> None:
    async with FakeTelegram(flood=True) as fake:
        alice = fake.add_user("Alice")
        group = fake.add_group("Домино", [alice])
        bot = make_bot(fake)
        async with bot.session:
            table = await bot.send_message(group.id, "Стол")
            for index in range(18):
                await bot.send_message(group.id, f"ход {index}")
            await bot.edit_message_text("Стол 2", chat_id=group.id, message_id=table.message_id)
            with pytest.raises(TelegramRetryAfter) as limited:
                await bot.send_message(group.id, "21st")
            assert 55 <= limited.value.retry_after <= 60
            refused = fake.errors()[-1]
            assert refused.status == 429
            assert (
                refused.description == f"Too Many Requests: retry after {limited.value.retry_after}"
            )
            assert refused.parameters == {"retry_after": limited.value.retry_after}
            assert fake.early_retries == 0
            fake.advance(30)
            with pytest.raises(TelegramRetryAfter) as early:
                await bot.edit_message_text("Стол 3", chat_id=group.id, message_id=table.message_id)
            assert early.value.retry_after == limited.value.retry_after  # the ban restarts
            assert (fake.early_retries, fake.early_retries_for(group)) == (1, 1)
            fake.advance(31)  # the first ban is over, the restarted one is not
            with pytest.raises(TelegramRetryAfter):
                await bot.send_message(group.id, "still banned")
            assert [e.early for e in fake.flood_events] == [False, True, True]
            fake.advance(61)
            await bot.send_message(group.id, "после паузы")


async def test_private_chats_allow_a_small_burst_then_one_per_second() -> None:
    async with FakeTelegram(flood=True, flood_limits=FloodLimits(global_per_second=5)) as fake:
        users = [fake.add_user(f"U{i}") for i in range(7)]
        for user in users:
            fake.user_sends(user, user, "/start")
        bot = make_bot(fake)
        async with bot.session:
            for _ in range(3):
                await bot.send_message(users[0].id, "burst")
            with pytest.raises(TelegramRetryAfter) as limited:
                await bot.send_message(users[0].id, "4th")
            assert limited.value.retry_after == 1
            fake.advance(1.0)
            await bot.send_message(users[0].id, "after a second")
            fake.advance(1.0)
            for user in users[1:6]:
                await bot.send_message(user.id, "one each")
            with pytest.raises(TelegramRetryAfter):  # the global limit: 5 per second here
                await bot.send_message(users[6].id, "sixth chat in a second")
            assert fake.flood_events[-1].chat_id is None


# ---------------------------------------------------------------- the user's view


async def test_transcript_reads_like_the_chat(fake: FakeTelegram, bot: Bot) -> None:
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    group = fake.add_group("Домино", [alice, bob])
    fake.user_sends(alice, group, "/newgame")
    sent = await bot.send_message(group.id, "Игра 1\nход Алисы", reply_markup=keyboard(
        [button("Сесть", "sit"), button("Правила", url="https://t.me/kozel_bot?start=rules")]
    ))  # fmt: skip
    await bot.edit_message_reply_markup(
        chat_id=group.id, message_id=sent.message_id, reply_markup=keyboard([button("Ход", "m")])
    )
    gone = await bot.send_message(group.id, "временное")
    await bot.delete_message(group.id, gone.message_id)
    fake.user_joins(group, fake.add_user("Carol"))
    assert fake.transcript(bob, group).splitlines() == [
        f"— «Домино» (group {group.id}), as Bob sees it —",
        "#1 Alice: /newgame",
        "#2 Kozel (bot) [edited]: Игра 1",
        "    ход Алисы",
        "    [Ход]",
        "#4 · Carol joined",
    ]
    with pytest.raises(ValueError, match="not a member"):
        fake.chat_view(fake.add_user("Stranger"), group)


# ---------------------------------------------------------------- changes


async def test_listeners_hear_messages_answers_menus_and_broken_rules(
    fake: FakeTelegram, bot: Bot, caplog: pytest.LogCaptureFixture
) -> None:
    heard: list[Change] = []
    hear = heard.append

    def broken(change: Change) -> None:
        raise RuntimeError("a listener's own bug")

    fake.listen(broken)  # logged and skipped: the others still hear, the bot is answered
    fake.listen(hear)
    alice = fake.add_user("Alice")
    start = fake.user_sends(alice, alice, "/start")
    sent = await bot.send_message(alice.id, "?", reply_markup=keyboard([button("Да", "yes")]))
    query_id = fake.user_presses(alice, sent, "Да")
    assert await bot.answer_callback_query(query_id, "Принято", show_alert=True)
    await bot.edit_message_text("!", chat_id=alice.id, message_id=sent.message_id)
    await bot.delete_message(alice.id, sent.message_id)
    menu = [BotCommand(command="newgame", description="Новая игра")]
    await bot.set_my_commands(menu)
    await bot.set_my_commands(menu)  # the same menu again: nothing changed
    await bot.set_my_commands(menu, scope=BotCommandScopeChat(chat_id=alice.id))
    with pytest.raises(TelegramBadRequest):
        await bot.edit_message_text("?!", chat_id=alice.id, message_id=sent.message_id)
    fake.fail("sendChatAction", times=1, code=400, description="Bad Request: injected")
    with pytest.raises(TelegramBadRequest):  # a fault of the test's, not a rule broken
        await bot.send_chat_action(alice.id, "typing")
    fake.flood = True
    with pytest.raises(TelegramRetryAfter):  # a 429 is a pace, not a rule broken
        for _ in range(4):
            await bot.send_message(alice.id, "burst")

    assert [(c.kind, c.chat_id, c.message_id, c.detail) for c in heard] == [
        ("message", alice.id, start.message_id, {"what": "new"}),
        ("message", alice.id, sent.message_id, {"what": "new"}),
        (
            "answer",
            alice.id,
            sent.message_id,
            {"user_id": alice.id, "text": "Принято", "show_alert": True, "url": None},
        ),
        ("message", alice.id, sent.message_id, {"what": "edit"}),
        ("message", alice.id, sent.message_id, {"what": "delete"}),
        ("commands", None, None, {"scope": ["default"], "language": ""}),
        ("commands", alice.id, None, {"scope": ["chat", alice.id], "language": ""}),
        (
            "violation",
            alice.id,
            sent.message_id,
            {
                "method": "editMessageText",
                "code": 400,
                "description": "Bad Request: message to edit not found",
            },
        ),
        *[("message", alice.id, sent.message_id + n, {"what": "new"}) for n in (1, 2, 3)],
    ]
    assert len(heard) == 11
    failures = [r for r in caplog.records if r.name == "bot.playground"]
    assert failures and all("listener" in r.getMessage() for r in failures)

    fake.unlisten(hear)
    fake.unlisten(broken)
    fake.unlisten(broken)  # not listening any more: no error
    fake.user_sends(alice, alice, "/ping")
    assert len(heard) == 11


# ---------------------------------------------------------------- a real dispatcher


async def test_a_polling_dispatcher_plays_against_the_fake(fake: FakeTelegram) -> None:
    dispatcher = Dispatcher()

    @dispatcher.message(CommandStart())
    async def start(message: Message) -> None:
        await message.answer("Сыграем?", reply_markup=keyboard([button("Да", "yes")]))

    @dispatcher.message(Command("ping"))
    async def ping(message: Message) -> None:
        await message.answer("pong")

    @dispatcher.callback_query(F.data == "yes")
    async def agree(query: CallbackQuery) -> None:
        assert isinstance(query.message, Message)
        await query.message.edit_text("Играем!")
        await query.answer("Поехали")

    alice = fake.add_user("Alice")
    client = make_bot(fake)
    async with client.session:
        polling = asyncio.create_task(
            dispatcher.start_polling(client, handle_signals=False, polling_timeout=2)
        )
        await fake.wait_polling()
        fake.user_sends(alice, alice, "/start")
        offer = await fake.wait_until(lambda: fake.last_bot_message(alice))
        query_id = fake.user_presses(alice, offer, "Да")
        await fake.wait_until(lambda: fake.answer_for(query_id))
        assert [v.text for v in fake.chat_view(alice, alice)] == ["/start", "Играем!"]
        await dispatcher.stop_polling()
        await polling

        fake.user_sends(alice, alice, "/ping")  # while nobody polls: kept for the next run
        polling = asyncio.create_task(
            dispatcher.start_polling(client, handle_signals=False, polling_timeout=2)
        )
        await fake.wait_until(lambda: (fake.last_bot_message(alice) or offer).text == "pong")
        await dispatcher.stop_polling()
        await polling
    assert fake.errors() == []
    await fake.wait_until(lambda: fake.calls_of("getUpdates")[-1].cancelled)


async def test_a_balancer_spreads_webhook_posts_over_the_workers(
    fake: FakeTelegram, bot: Bot
) -> None:
    """Behind `balanced` each POST goes to the next worker in turn; one that does not answer
    gets the update again later and the next worker takes it now."""
    got: dict[str, list[int]] = {"a": [], "b": []}
    runners, urls = [], []
    for received in got.values():

        async def hook(
            request: aiohttp.web.Request, received: list[int] = received
        ) -> aiohttp.web.Response:
            received.append((await request.json())["update_id"])
            return aiohttp.web.Response()

        app = aiohttp.web.Application()
        app.router.add_post("/hook", hook)
        runner = aiohttp.web.AppRunner(app)
        await runner.setup()
        site = aiohttp.web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        runners.append(runner)
        port = runner.addresses[0][1]
        urls.append(f"http://127.0.0.1:{port}/hook")
    fake.balanced[:] = [urls[0], "http://127.0.0.1:9/hook", urls[1]]  # the middle one is down
    try:
        await bot.set_webhook("https://bot.example.com/hook")
        user = fake.add_user("Маша")
        group = fake.add_group("Двор", [user])
        for text in ("/a", "/b", "/c", "/d"):
            fake.user_sends(user, group, text)
        await fake.wait_until(lambda: len(got["a"]) + len(got["b"]) == 4, 10)
        tried = [(d.url, d.status) for d in fake.webhook_deliveries]
        assert tried[:4] == [(urls[0], 200), (fake.balanced[1], 0), (urls[1], 200), (urls[0], 200)]
        assert sorted(got["a"] + got["b"]) == [
            d.update_id for d in fake.webhook_deliveries if d.status
        ]
    finally:
        await bot.delete_webhook()
        for runner in runners:
            await runner.cleanup()
