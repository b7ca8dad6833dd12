"""Finished games as records: /history (the chat's last games, each with its score sheet,
round replays and record), «🎞 Повтор» under a round's result, «🔍 Разбор» under a
finished game's hand, /export (admins: every record as JSON Lines) and /deal CODE (how
every table played a shared deal)."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence

from aiogram import Bot, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import BufferedInputFile, CallbackQuery, Message

from bot.core.chats import Chats
from bot.core.errors import GameError
from bot.core.history import Asked, History
from bot.game.record import Record
from bot.telegram.handlers.common import IN_GROUP, edit_page, is_admin
from bot.telegram.keyboards import history_keyboard, record_keyboard
from bot.telegram.messenger import Messenger
from bot.telegram.record_buttons import HistoryGame, RecordFile, Replay, ReviewGame
from bot.ui import history as words
from bot.ui.games import preset_name
from bot.ui.i18n import Texts

router = Router(name="history")
log = logging.getLogger(__name__)
SHOWN = 10
"""Games /history lists."""
DOCUMENT_LIMIT = 50 * 1024 * 1024
"""Telegram's limit for a file a bot uploads."""
EXPORT_PART = DOCUMENT_LIMIT - 64 * 1024  # room for the request's other parts
ANSWERS = {
    Asked.REPLAY: "replay-preparing",
    Asked.NOT_OVER: "replay-not-over",
    Asked.NOT_STARTED: "replay-open-private",
    Asked.REVIEW: "review-preparing",
    Asked.REVIEW_AGAIN: "review-again",
    Asked.REVIEW_BUSY: "review-busy",
    Asked.NOT_YOURS: "review-not-yours",
}
"""What a press of the replay or the review button is answered."""


@router.message(Command("history"), IN_GROUP)
async def history(message: Message, history: History, t: Texts) -> None:
    records = await history.recent(message.chat.id, SHOWN)
    if not records:
        await message.reply(t("history-empty"))
        return
    await message.reply(
        words.history(t, message.chat.title or "", records),
        reply_markup=history_keyboard([r["game"] for r in records]),
    )


@router.callback_query(HistoryGame.filter())
async def game_sheet(
    callback: CallbackQuery, callback_data: HistoryGame, history: History, t: Texts
) -> None:
    """A game's score sheet, or (game 0) the list again, in the /history message (a press
    on any other message does nothing)."""
    message = history_message(callback)
    chat = message.chat
    if callback_data.game == 0:
        records = await history.recent(chat.id, SHOWN)
        text = words.history(t, chat.title or "", records)
        markup = history_keyboard([r["game"] for r in records])
    else:
        record = await _chat_record(history, chat.id, callback_data.game)
        text = words.sheet(t, record)
        rounds = [r["round"] for r in record["rounds"] if r["result"] is not None]
        markup = record_keyboard(t, record["game"], rounds)
    await edit_page(callback, message, (text, markup))


@router.callback_query(Replay.filter())
async def replay(
    callback: CallbackQuery,
    callback_data: Replay,
    history: History,
    messenger: Messenger,
    t: Texts,
) -> None:
    """«🎞 Повтор»: the round's replay goes to the presser's private chat."""
    message = callback.message
    if message is None:
        raise GameError("unknown-button")
    if not await history.in_chat(callback_data.game, message.chat.id):
        raise GameError("unknown-button")  # a button forged onto another chat's message
    user = callback.from_user.id
    ask = await history.ask_replay(callback_data.game, callback_data.round, user)
    await callback.answer(t(ANSWERS[ask.asked]), show_alert=ask.record is None)
    if ask.record is not None:
        await messenger.replays.send_replay(user, ask.record, callback_data.round)


@router.callback_query(RecordFile.filter())
async def record_file(
    callback: CallbackQuery,
    callback_data: RecordFile,
    history: History,
    chats: Chats,
    messenger: Messenger,
) -> None:
    """«📄 Запись» under a game's score sheet: its record goes to the presser's private
    chat."""
    message = history_message(callback)
    record = await _chat_record(history, message.chat.id, callback_data.game)
    user = callback.from_user.id
    t = await messenger.gateway.user_texts(user)
    if not await chats.has_started(user):
        await callback.answer(t("replay-open-private"), show_alert=True)
        return
    await callback.answer(t("history-sent-private"))
    await messenger.replays.send_record(user, record, t)


@router.callback_query(ReviewGame.filter())
async def review(
    callback: CallbackQuery,
    callback_data: ReviewGame,
    history: History,
    messenger: Messenger,
    t: Texts,
) -> None:
    """«🔍 Разбор» under a finished game's closed hand: the presser's own moves, made
    once; a press while it is made or sent says so, a press after sends it again."""
    user = callback.from_user.id
    ask = await history.ask_review(callback_data.game, user)
    busy = ask.asked is Asked.REVIEW_BUSY
    await callback.answer(t(ANSWERS[ask.asked]), show_alert=ask.record is None and not busy)
    if ask.record is not None:
        await messenger.replays.send_review(user, ask.record, ask.seat)


@router.message(Command("export"), IN_GROUP)
async def export(message: Message, history: History, bot: Bot, t: Texts) -> None:
    """Every finished game's record as JSON Lines, in parts within Telegram's 50 MB."""
    assert message.from_user is not None
    if not await is_admin(bot, message.chat.id, message.from_user.id):
        raise GameError("admins-only")
    lines = [
        json.dumps(record, ensure_ascii=False).encode()
        async for record in history.every(message.chat.id)
    ]
    if not lines:
        await message.reply(t("export-empty"))
        return
    parts = split_lines(lines, EXPORT_PART)
    for number, part in enumerate(parts, start=1):
        name = "games.jsonl" if len(parts) == 1 else f"games-{number}.jsonl"
        caption = (
            t("export-caption", games=len(lines))
            if len(parts) == 1
            else t("export-part-caption", part=number, parts=len(parts))
        )
        await message.reply_document(BufferedInputFile(part, name), caption=caption)


def split_lines(lines: Sequence[bytes], limit: int) -> list[bytes]:
    """JSON Lines in files of at most `limit` bytes, whole lines each (a line longer than
    `limit` alone is cut off: no game's record comes near it)."""
    parts: list[bytes] = []
    part = b""
    for whole in lines:
        line = whole[: limit - 1] + b"\n"
        if part and len(part) + len(line) > limit:
            parts.append(part)
            part = b""
        part += line
    return [*parts, part] if part else parts


@router.message(Command("deal"))
async def deal(message: Message, command: CommandObject, history: History, t: Texts) -> None:
    """/deal CODE: every table that played the deal, and how."""
    code = (command.args or "").strip().upper()
    if not code:
        await message.reply(t("deal-usage"))
        return
    tables = await history.tables(code)
    if not tables:
        await message.reply(t("deal-unknown", code=code[:16]))
        return
    name = preset_name(t, tables[0].preset)
    await message.reply(words.tables(t, code, name, tables, message.chat.id))


def history_message(callback: CallbackQuery) -> Message:
    """The /history message pressed: a text (not a table's picture) whose keyboard holds
    the pressed button and is the list's or a game's sheet's. Any other message — a
    lobby, a hand, a round's result — refuses a history button forged onto it."""
    message = callback.message
    if not isinstance(message, Message) or message.text is None:
        raise GameError("unknown-button")
    markup = message.reply_markup
    data = [b.callback_data for row in markup.inline_keyboard for b in row] if markup else []
    if callback.data not in data or not _history_keyboard([_record_button(d) for d in data]):
        raise GameError("unknown-button")
    return message


RecordButton = HistoryGame | Replay | RecordFile


def _record_button(data: str | None) -> RecordButton | None:
    """A button of /history's keyboards from its callback data, or None (any other)."""
    for kind in (HistoryGame, Replay, RecordFile):
        if data is not None and data.startswith(f"{kind.__prefix__}:"):
            try:
                return kind.unpack(data)
            except ValueError:
                return None
    return None


def _history_keyboard(buttons: Sequence[RecordButton | None]) -> bool:
    """The list's keyboard (a sheet per game) or a game's sheet's (its replays, one record
    and one back to the list), as `keyboards` makes them."""
    if buttons and all(isinstance(b, HistoryGame) and b.game > 0 for b in buttons):
        return True
    others = [b for b in buttons if not isinstance(b, Replay)]
    return (
        len(others) == 2
        and any(isinstance(b, RecordFile) for b in others)
        and any(isinstance(b, HistoryGame) and b.game == 0 for b in others)
    )


async def _chat_record(history: History, chat_id: int, game_id: int) -> Record:
    """A finished game of this chat's record; a button for another chat's game, or for a
    game without one, does nothing."""
    if not await history.in_chat(game_id, chat_id):
        raise GameError("unknown-button")
    record = await history.record(game_id)
    if record is None:
        raise GameError("unknown-button")
    return record
