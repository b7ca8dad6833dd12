"""sendAnimation and sendDocument on the fake Bot API: an upload or a `file_id` sent before
(that costs nothing), the bytes kept and read back, getFile and downloads, Telegram's
limits (50 MB an upload, 20 MB a download) and the checks every send meets; proven over
real HTTP with aiogram, and on the playground's page."""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable

import aiohttp
import pytest
from aiogram import Bot
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramEntityTooLarge,
    TelegramForbiddenError,
    TelegramRetryAfter,
)
from aiogram.types import BufferedInputFile
from PIL import Image

from bot.playground import FakeTelegram, FloodLimits
from bot.playground.api.files import MAX_DOWNLOAD_BYTES, MAX_UPLOAD_BYTES
from bot.playground.web.front import Front
from tests.playground.launch import free_port
from tests.playground.test_fakebot import button, keyboard, make_bot, png, post

WRONG_FILE = "Bad Request: wrong file identifier/HTTP URL specified"
MISMATCH = "Bad Request: type of file mismatch"
EMPTY = "Bad Request: file must be non-empty"
CANT_INITIATE = "Forbidden: bot can't initiate conversation with a user"
MP4 = b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom" + bytes(100)


def gif(width: int = 64, height: int = 48, frames: int = 3) -> bytes:
    """An animated GIF, a frame of each colour."""
    colours = ["red", "green", "blue", "white"]
    images = [Image.new("RGB", (width, height), colours[i % 4]) for i in range(frames)]
    out = io.BytesIO()
    images[0].save(out, "GIF", save_all=True, append_images=images[1:], duration=200, loop=0)
    return out.getvalue()


# ---------------------------------------------------------------- animations


async def test_an_animation_is_uploaded_once_and_sent_again_by_its_file_id(
    fake: FakeTelegram, bot: Bot
) -> None:
    alice = fake.add_user("Alice")
    fake.user_sends(alice, alice, "/start")
    data = gif()
    sent = await bot.send_animation(
        alice.id, BufferedInputFile(data, "game.gif"), caption="<b>Партия</b>", parse_mode="HTML"
    )
    animation = sent.animation
    assert animation is not None
    assert (animation.width, animation.height, animation.duration) == (64, 48, 0)
    assert (animation.file_name, animation.mime_type) == ("game.gif", "image/gif")
    assert animation.file_size == len(data)
    assert sent.caption == "Партия" and sent.caption_entities is not None
    # Telegram sets the Document beside an animation, "for backward compatibility"
    assert sent.document is not None and sent.document.file_id == animation.file_id
    assert sent.photo is None

    stored = fake.last_bot_message(alice)
    assert stored is not None and stored.file is not None
    assert (stored.file.kind, stored.uploaded) == ("animation", True)
    assert fake.file_bytes(animation.file_id) == data == stored.file.data
    assert fake.sent_file(animation.file_id) is stored.file

    again = await bot.send_animation(alice.id, animation.file_id, caption="ещё раз")
    assert again.animation is not None
    assert again.animation.file_id == animation.file_id
    assert again.animation.file_unique_id == animation.file_unique_id
    resent = fake.last_bot_message(alice)
    assert resent is not None and resent.file is stored.file
    assert resent.uploaded is False  # by file_id: nothing uploaded
    assert (resent.content, fake.file_bytes(again.animation.file_id)) == ("ещё раз", data)

    twice = await bot.send_animation(alice.id, BufferedInputFile(data, "same.gif"))
    assert twice.animation is not None
    assert twice.animation.file_id != animation.file_id  # a new upload, a new file id …
    assert twice.animation.file_unique_id == animation.file_unique_id  # … the same file
    other = await bot.send_animation(alice.id, BufferedInputFile(gif(frames=2), "other.gif"))
    assert other.animation is not None
    assert other.animation.file_unique_id != animation.file_unique_id

    assert [m.uploaded for m in fake.messages(alice) if m.from_bot] == [True, False, True, True]
    assert "[animation game.gif]" in fake.transcript(alice, alice)


async def test_an_animation_keeps_what_the_bot_says_of_it(fake: FakeTelegram, bot: Bot) -> None:
    """Width, height and duration as passed (Telegram clamps them); an MP4 is an animation
    too; a file that is neither GIF nor MP4 goes as a document."""
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    group = fake.add_group("Домино", [alice, bob])
    sized = await bot.send_animation(
        group.id, BufferedInputFile(gif(), "a.gif"), width=640, height=480, duration=4
    )
    assert sized.animation is not None
    assert (sized.animation.width, sized.animation.height, sized.animation.duration) == (
        640,
        480,
        4,
    )
    clip = await bot.send_animation(group.id, BufferedInputFile(MP4, "replay.mp4"), width=20000)
    assert clip.animation is not None
    assert (clip.animation.mime_type, clip.animation.width) == ("video/mp4", 10000)
    assert fake.file_bytes(clip.animation.file_id) == MP4

    text = await bot.send_animation(group.id, BufferedInputFile(b"not moving", "notes.txt"))
    assert text.animation is None and text.document is not None
    assert (text.document.file_name, text.document.mime_type) == ("notes.txt", "text/plain")
    stored = fake.last_bot_message(group)
    assert stored is not None and stored.file is not None and stored.file.kind == "document"
    shown = fake.chat_view(bob, group)[-1]
    assert (shown.file_kind, shown.file_name) == ("document", "notes.txt")


# ---------------------------------------------------------------- documents


async def test_a_document_keeps_its_name_and_can_be_downloaded(
    fake: FakeTelegram, bot: Bot
) -> None:
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    group = fake.add_group("Домино", [alice, bob])
    data = "ход 1: 6|6\n".encode() * 100
    sent = await bot.send_document(
        group.id,
        BufferedInputFile(data, "партия.txt"),
        caption="Запись партии",
        reply_markup=keyboard([button("Ещё", "more")]),
    )
    document = sent.document
    assert document is not None and sent.animation is None
    assert (document.file_name, document.mime_type, document.file_size) == (
        "партия.txt",
        "text/plain",
        len(data),
    )
    assert sent.reply_markup is not None and sent.caption == "Запись партии"
    stored = fake.last_bot_message(group)
    assert stored is not None and stored.file is not None
    assert (stored.file.kind, stored.file.file_name, stored.uploaded) == (
        "document",
        "партия.txt",
        True,
    )
    assert fake.file_bytes(document.file_id) == data

    file = await bot.get_file(document.file_id)
    assert file.file_path == f"documents/{document.file_id}.txt"
    assert file.file_size == len(data)
    downloaded = await bot.download_file(file.file_path)
    assert downloaded is not None and downloaded.read() == data

    reply = await bot.send_document(group.id, document.file_id, reply_to_message_id=sent.message_id)
    assert reply.document is not None and reply.document.file_name == "партия.txt"
    assert reply.reply_to_message is not None
    assert reply.reply_to_message.message_id == sent.message_id
    again = fake.last_bot_message(group)
    assert again is not None and again.file is stored.file and again.uploaded is False

    edited = await bot.edit_message_caption(
        chat_id=group.id, message_id=sent.message_id, caption="Партия №1"
    )
    assert not isinstance(edited, bool) and edited.document is not None
    assert edited.caption == "Партия №1"
    (shown,) = [v for v in fake.chat_view(bob, group) if v.message_id == sent.message_id]
    assert (shown.text, shown.file_kind, shown.edited) == ("Партия №1", "document", True)


async def test_a_gif_sent_as_a_document_is_an_animation_unless_detection_is_off(
    fake: FakeTelegram, bot: Bot
) -> None:
    alice = fake.add_user("Alice")
    fake.user_sends(alice, alice, "/start")
    detected = await bot.send_document(alice.id, BufferedInputFile(gif(), "a.gif"))
    assert detected.animation is not None and detected.document is not None
    plain = await bot.send_document(
        alice.id, BufferedInputFile(gif(), "b.gif"), disable_content_type_detection=True
    )
    assert plain.animation is None and plain.document is not None
    assert plain.document.mime_type == "image/gif"
    # an animation's file id sent as a document stays the animation it is
    same = await bot.send_document(alice.id, detected.document.file_id)
    assert same.animation is not None


# ---------------------------------------------------------------- refusals


async def test_unknown_and_foreign_file_ids_are_refused(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice")
    fake.user_sends(alice, alice, "/start")
    photo = await bot.send_photo(alice.id, BufferedInputFile(png(60, 40), "p.png"))
    document = await bot.send_document(alice.id, BufferedInputFile(b"log", "log.txt"))
    assert photo.photo is not None and document.document is not None
    before = len(fake.messages(alice))

    cases: list[tuple[Callable[[], Awaitable[object]], str]] = [
        (lambda: bot.send_document(alice.id, "BQACAgIAAxkBAAI99999999"), WRONG_FILE),
        (lambda: bot.send_animation(alice.id, "CgACAgIAAxkBAAI99999999"), WRONG_FILE),
        (lambda: bot.send_document(alice.id, photo.photo[-1].file_id), MISMATCH),
        (lambda: bot.send_animation(alice.id, photo.photo[0].file_id), MISMATCH),
        (lambda: bot.send_photo(alice.id, document.document.file_id), MISMATCH),
        (lambda: bot.send_document(alice.id, BufferedInputFile(b"", "e.txt")), EMPTY),
    ]
    for request, description in cases:
        with pytest.raises(TelegramBadRequest) as refused:
            await request()
        assert refused.value.message == description
    assert len(fake.messages(alice)) == before
    with pytest.raises(KeyError):
        fake.file_bytes("BQACAgIAAxkBAAI99999999")
    with pytest.raises(KeyError):
        fake.sent_file(photo.photo[-1].file_id)  # a photo's: read it with file_bytes
    assert fake.file_bytes(photo.photo[-1].file_id) == png(60, 40)

    for method, field in (("sendDocument", "document"), ("sendAnimation", "animation")):
        status, body = await post(fake, method, chat_id=str(alice.id))
        missing = f"Bad Request: there is no {field} in the request"
        assert (status, body["description"]) == (400, missing)
    status, body = await post(fake, "getFile", file_id="nope")
    assert (status, body["description"]) == (400, "Bad Request: invalid file_id")


async def test_a_private_chat_never_started_gets_no_file(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice")
    with pytest.raises(TelegramForbiddenError) as animation:
        await bot.send_animation(alice.id, BufferedInputFile(gif(), "a.gif"))
    with pytest.raises(TelegramForbiddenError) as document:
        await bot.send_document(alice.id, BufferedInputFile(b"x", "x.txt"))
    assert animation.value.message == document.value.message == CANT_INITIATE
    assert fake.messages(alice) == []
    fake.user_sends(alice, alice, "/start")
    fake.user_blocks_bot(alice)
    with pytest.raises(TelegramForbiddenError) as blocked:
        await bot.send_document(alice.id, BufferedInputFile(b"x", "x.txt"))
    assert blocked.value.message == "Forbidden: bot was blocked by the user"


async def test_uploads_over_50_mb_are_refused_with_413(fake: FakeTelegram, bot: Bot) -> None:
    """Up to `MAX_UPLOAD_BYTES` an upload is taken; a byte more is 413 "Request Entity Too
    Large", as Telegram answers, and nothing is sent. getFile serves at most 20 MB."""
    assert MAX_UPLOAD_BYTES == 50 * 1024 * 1024
    alice = fake.add_user("Alice")
    fake.user_sends(alice, alice, "/start")
    biggest = b"\x01" * MAX_UPLOAD_BYTES
    sent = await bot.send_document(alice.id, BufferedInputFile(biggest, "big.bin"))
    assert sent.document is not None and sent.document.file_size == MAX_UPLOAD_BYTES
    assert fake.file_bytes(sent.document.file_id) == biggest
    with pytest.raises(TelegramBadRequest) as too_big:
        await bot.get_file(sent.document.file_id)
    assert too_big.value.message == "Bad Request: file is too big"
    assert MAX_DOWNLOAD_BYTES == 20 * 1024 * 1024

    count = len(fake.messages(alice))
    for send in (bot.send_document, bot.send_animation):
        with pytest.raises(TelegramEntityTooLarge):
            await send(alice.id, BufferedInputFile(biggest + b"\x01", "bigger.bin"))
        refused = fake.errors()[-1]
        assert (refused.status, refused.description) == (413, "Request Entity Too Large")
    assert len(fake.messages(alice)) == count


async def test_files_count_against_the_flood_limits() -> None:
    async with FakeTelegram(flood=True, flood_limits=FloodLimits(group_per_minute=2)) as fake:
        alice = fake.add_user("Alice")
        group = fake.add_group("Домино", [alice])
        bot = make_bot(fake)
        async with bot.session:
            first = await bot.send_animation(group.id, BufferedInputFile(gif(), "a.gif"))
            assert first.animation is not None
            await bot.send_document(group.id, BufferedInputFile(b"x", "x.txt"))
            with pytest.raises(TelegramRetryAfter):
                await bot.send_animation(group.id, first.animation.file_id)
            assert [e.method for e in fake.flood_events] == ["sendAnimation"]


# ---------------------------------------------------------------- the playground's page


async def test_the_page_shows_an_animation_and_offers_a_document() -> None:
    fake = FakeTelegram(port=free_port())
    front = Front(fake, "Двор")
    await fake.start(routes=front.add_routes)
    bot = make_bot(fake)
    try:
        data = gif()
        async with bot.session:
            await bot.send_animation(front.group.id, BufferedInputFile(data, "game.gif"))
            await bot.send_document(front.group.id, BufferedInputFile(b"1-0", "итог.txt"))
        shown = front.snapshot(front.people["Аня"])["group"]["messages"]
        animation, document = shown[-2]["file"], shown[-1]["file"]
        assert (animation["kind"], animation["mime"], animation["width"]) == (
            "animation",
            "image/gif",
            64,
        )
        assert (document["kind"], document["name"], document["size"]) == ("document", "итог.txt", 3)
        async with aiohttp.ClientSession() as session:
            async with session.get(fake.base + animation["src"]) as response:
                assert response.content_type == "image/gif"
                assert await response.read() == data
            async with session.get(fake.base + document["src"]) as response:
                assert response.headers["Content-Disposition"].startswith("attachment")
                assert await response.read() == b"1-0"
            async with session.get(f"{fake.base}/media/{front.group.id}/999") as response:
                assert response.status == 404
            headers = {"Sec-Fetch-Site": "cross-site"}
            async with session.get(fake.base + document["src"], headers=headers) as response:
                assert response.status == 403
    finally:
        await fake.stop()
