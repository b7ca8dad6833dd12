"""What a person asks of a finished game in their private chat: a round's replay as an
animation (drawn in a process of its own, one at a time, only when asked; kept by
Telegram's `file_id`, so a second press costs one send), a game's record as a file, and the review
of their own moves («Разбор», worked out in a process of its own at a low priority,
so the games never wait for it; made once a game's seat and kept in the database, where
every worker finds it: a worker holds it while it makes or sends it)."""

from __future__ import annotations

import asyncio
import json
import logging
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

from aiogram.methods import SendAnimation, SendDocument, SendMessage, SendPhoto
from aiogram.types import BufferedInputFile

from bot.ai.review import Review, Slip, review, review_json, review_of
from bot.game.moves import Play, PlayDoubles
from bot.game.record import Record, round_states, rules_of
from bot.game.tiles import tiles_of
from bot.telegram.children import child_process
from bot.telegram.messenger.gateway import Gateway
from bot.telegram.tickets import at_leisure
from bot.ui import history as words
from bot.ui.i18n import Texts
from bot.ui.replays import replay_in
from bot.ui.scenes import table_scene
from render import render_table
from render.animation import Animation

log = logging.getLogger(__name__)


class Replays:
    """Round replays and game records, sent to one person's private chat."""

    def __init__(self, gateway: Gateway) -> None:
        self.gateway = gateway
        self._drawing = asyncio.Semaphore(1)  # one replay drawn at a time: games go first
        self._locks: dict[tuple[int, int, str], asyncio.Lock] = {}
        self._reviewer: ProcessPoolExecutor | None = None

    async def send_replay(self, user_id: int, record: Record, round_no: int) -> bool:
        """Send round `round_no` of `record` (a finished round) as an animation; whether it
        went out."""
        with at_leisure():  # behind the games' own messages
            t = await self.gateway.user_texts(user_id)
            game_id, archive = record["game"], self.gateway.storage.archive
            key = (game_id, round_no, t.language)
            lock = self._locks.setdefault(key, asyncio.Lock())
            async with lock:  # a second press waits for the first, then reuses its file
                round_ = next(r for r in record["rounds"] if r["round"] == round_no)
                caption = t(
                    "replay-caption", game=game_id, round=round_no, code=round_["deal"]["code"]
                )
                file_id = await archive.replay_file(game_id, round_no, t.language)
                if file_id is not None:
                    method = SendAnimation(chat_id=user_id, animation=file_id, caption=caption)
                    return await self.gateway.private(None, user_id, method) is not None
                async with self._drawing:
                    drawn = await self._draw(t.language, record, round_no)
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
        """Send a finished game's record as a JSON file (with a review's `review` marks,
        if given them: the playground's viewer shows them); whether it went out."""
        with at_leisure():  # behind the games' own messages
            data = json.dumps(record, ensure_ascii=False, indent=1).encode()
            method = SendDocument(
                chat_id=user_id,
                document=BufferedInputFile(data, f"game-{record['game']}.json"),
                caption=t("history-record-caption", game=record["game"]),
            )
            return await self.gateway.private(None, user_id, method) is not None

    async def send_review(self, user_id: int, record: Record, seat: int) -> None:
        """The review of `seat`'s moves (held: `History.ask_review`), made if not yet: a line,
        then each slip as the position it was made in, from that seat (its hand face up,
        the better move's tiles framed)."""
        archive, worker = self.gateway.storage.archive, self.gateway.storage.worker
        try:
            await self._send_review(user_id, record, seat)
        finally:
            await archive.let_review_go(record["game"], seat, worker)

    async def _send_review(self, user_id: int, record: Record, seat: int) -> None:
        with at_leisure():  # behind the games' own messages
            t = await self.gateway.user_texts(user_id)
            tiles = rules_of(record).tiles
            found = await self._review(record, seat)
            summary = words.review_summary(t, record["game"], found)
            await self.gateway.private(None, user_id, SendMessage(chat_id=user_id, text=summary))
            for slip in found.slips:
                picture = await asyncio.to_thread(_position, t, record, seat, slip)
                photo = SendPhoto(
                    chat_id=user_id,
                    photo=BufferedInputFile(picture, "position.png"),
                    caption=words.slip_caption(t, tiles, slip),
                )
                await self.gateway.private(None, user_id, photo)
            if found.slips:  # the record with the marks, for a viewer
                marks = [words.review_mark(t, tiles, seat, slip) for slip in found.slips]
                await self.send_record(user_id, {**record, "review": marks}, t)

    async def _draw(self, language: str, record: Record, round_no: int) -> Animation:
        """A replay, drawn in a process of its own that ends with it: a big round takes a
        few hundred MB while it is drawn, which the bot's own process would keep."""
        drawer = child_process()
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(drawer, replay_in, language, record, round_no)
        finally:
            await asyncio.to_thread(drawer.shutdown)  # the process ends with its replay

    async def _review(self, record: Record, seat: int) -> Review:
        """The seat's review: the one kept, or made now and kept."""
        archive, game_id = self.gateway.storage.archive, record["game"]
        kept = await archive.review(game_id, seat)
        if kept is not None:
            return review_of(kept)
        if self._reviewer is None:
            self._reviewer = child_process()
        loop = asyncio.get_running_loop()
        found = await loop.run_in_executor(self._reviewer, review, record, seat)
        log.info(
            "review of game %s seat %s: %s of %s decisions, %.1f s CPU",
            game_id, seat, found.looked, found.decisions, found.cpu_s,
        )  # fmt: skip
        await archive.keep_review(game_id, seat, review_json(found))
        return found

    def close(self) -> None:
        """Stop the reviewer's process, if one was started."""
        if self._reviewer is not None:
            self._reviewer.shutdown(wait=False, cancel_futures=True)


def _tiles(slip: Slip) -> tuple[int, ...]:
    """The tiles the better move lays down (none for a draw or a pass)."""
    better = slip.better
    if isinstance(better, Play):
        return (better.tile,)
    return better.tiles if isinstance(better, PlayDoubles) else ()


def _position(t: Texts, record: Record, seat: int, slip: Slip) -> bytes:
    """The table as it was before the slip, with the seat's own hand face up."""
    state = round_states(record, slip.round_no)[slip.move]
    names = [s["name"] for s in record["seats"]]
    scene = table_scene(t, state, names)
    pips = state.rules.tiles.pips
    hand = tuple(pips[tile] for tile in tiles_of(state.hands[seat]))
    seats = list(scene.seats)
    seats[seat] = replace(seats[seat], revealed=hand, marked=tuple(pips[t] for t in _tiles(slip)))
    return render_table(replace(scene, seats=tuple(seats)))
