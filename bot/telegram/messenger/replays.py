"""What a person asks of a finished game in their private chat: a round's replay as an
animation (drawn off the event loop, one at a time, only when asked; kept by Telegram's
`file_id`, so a second press costs one send) and a game's record as a file."""

from __future__ import annotations

import asyncio
import json
import logging

from aiogram.methods import SendAnimation, SendDocument
from aiogram.types import BufferedInputFile

from bot.game.record import Record
from bot.telegram.messenger.gateway import Gateway
from bot.ui.i18n import Texts
from bot.ui.replays import round_replay

log = logging.getLogger(__name__)


class Replays:
    """Round replays and game records, sent to one person's private chat."""

    def __init__(self, gateway: Gateway) -> None:
        self.gateway = gateway
        self._drawing = asyncio.Semaphore(1)  # one replay drawn at a time: games go first
        self._locks: dict[tuple[int, int, str], asyncio.Lock] = {}

    async def send_replay(self, user_id: int, record: Record, round_no: int) -> bool:
        """Send round `round_no` of `record` (a finished round) as an animation; whether it
        went out."""
        t = await self.gateway.user_texts(user_id)
        game_id, archive = record["game"], self.gateway.storage.archive
        key = (game_id, round_no, t.language)
        lock = self._locks.setdefault(key, asyncio.Lock())
        async with lock:  # a second press waits for the first, then reuses its file
            round_ = next(r for r in record["rounds"] if r["round"] == round_no)
            caption = t("replay-caption", game=game_id, round=round_no, code=round_["deal"]["code"])
            file_id = await archive.replay_file(game_id, round_no, t.language)
            if file_id is not None:
                method = SendAnimation(chat_id=user_id, animation=file_id, caption=caption)
                return await self.gateway.private(None, user_id, method) is not None
            async with self._drawing:
                drawn = await asyncio.to_thread(round_replay, t, record, round_no)
            log.info(
                "replay of game %s round %s drawn: %s frames, %s bytes",
                game_id, round_no, drawn.frames, len(drawn.data),
            )  # fmt: skip
            method = SendAnimation(
                chat_id=user_id,
                animation=BufferedInputFile(drawn.data, f"game{game_id}-round{round_no}.gif"),
                caption=caption,
                width=drawn.width,
                height=drawn.height,
                duration=max(1, drawn.duration_ms // 1000),
            )
            sent = await self.gateway.private(None, user_id, method)
            if sent is None:
                return False
            media = sent.animation or sent.document
            if media is not None:
                await archive.keep_replay_file(game_id, round_no, t.language, media.file_id)
        self._locks.pop(key, None)
        return True

    async def send_record(self, user_id: int, record: Record, t: Texts) -> bool:
        """Send a finished game's record as a JSON file; whether it went out."""
        data = json.dumps(record, ensure_ascii=False, indent=1).encode()
        method = SendDocument(
            chat_id=user_id,
            document=BufferedInputFile(data, f"game-{record['game']}.json"),
            caption=t("history-record-caption", game=record["game"]),
        )
        return await self.gateway.private(None, user_id, method) is not None
