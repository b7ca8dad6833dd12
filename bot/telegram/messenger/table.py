"""The group's side of a running game: the table picture, round results, the game's end."""

from __future__ import annotations

import asyncio
import logging
import time
from contextlib import suppress
from dataclasses import dataclass, replace
from typing import Any

from aiogram.methods import EditMessageMedia, SendPhoto
from aiogram.types import BufferedInputFile, InlineKeyboardMarkup, InputMediaPhoto, Message

from bot.core.achievements.store import Achievements
from bot.core.recent import Recent
from bot.core.rows import GameRow, GameStatus
from bot.core.screen import Turn
from bot.game.events import Event, GameEnded, RoundEnded
from bot.game.serial import decode
from bot.game.state import GameState
from bot.telegram.keyboards import again_keyboard, app_keyboard, replay_keyboard
from bot.telegram.messenger.gateway import Gateway
from bot.ui import badges, endings, sheets, texts
from bot.ui.i18n import Texts
from bot.ui.scenes import score_sheet, table_scene
from render import render_score_sheet, render_table

DRAWN = 4096  # games whose last drawn table the sender remembers
FIRST_WAIT = 5.0
"""Seconds a first deal waits for its table to start going out; then it goes on without
(the group is busy, or another worker sends there: it is looked for in storage)."""
LOOK_EVERY = 0.5  # seconds between two looks in storage for another worker's first table
log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class TableNews:
    """What the table message of a round should show at the game's `version`; a newer one
    replaces it while it waits (its notes are kept, a fresh message stays fresh, an end
    stays ended; of two told out of order, the higher version's state is drawn)."""

    state: GameState
    events: tuple[Event, ...]
    notes: tuple[str, ...] = ()
    fresh: bool = False  # a new message (a new round, or after a restart's owed results)
    ended: str | None = None  # the game ended unplayed: the catalog text saying why
    version: int = 0
    last: bool = False  # (a previous version's round end) the next round's table is a new message

    def then(self, newer: TableNews) -> TableNews:
        latest = newer if newer.version >= self.version else self
        notes = self.notes + tuple(n for n in newer.notes if n not in self.notes)
        ended = newer.ended or self.ended
        return TableNews(
            state=latest.state,
            events=latest.events,
            notes=notes,
            fresh=self.fresh or newer.fresh,
            ended=ended,
            version=latest.version,
            last=self.last or newer.last,
        )


class GroupTable:
    """The group's messages of a running game: each round's table, its result, the end."""

    def __init__(self, gateway: Gateway) -> None:
        self.gateway = gateway
        self.storage = gateway.storage
        self._drawn: Recent[int, tuple[int, int]] = Recent(DRAWN)  # game → round, version
        self._first: dict[int, asyncio.Event] = {}  # games whose first table is on its way
        self._going: set[int] = set()  # … and has its place in the group: it goes out now
        courier = gateway.courier
        courier.kind("table", self._table, _newer)
        courier.kind("round", self._round_result)
        courier.kind("end", self._game_end)

    def show(self, game: GameRow, news: TableNews) -> None:
        """The round's table message: edited in place, or a new one when `news.fresh` (or
        when the round before's `last` picture let go of its message)."""
        key = ("table", game.id, news.state.round_no)
        news = replace(news, version=game.version)
        self.gateway.courier.post(game.chat_id, "table", (game.id, news), key, news.fresh)

    def deal(self, game: GameRow, news: TableNews) -> None:
        """A game's first table, urgent: its hands and first move wait for it (`dealt`)."""
        self._first.setdefault(game.id, asyncio.Event())
        self.show(game, replace(news, fresh=True))

    async def dealt(self, game_id: int) -> None:
        """Return once the game's first table has gone out (or failed to), or after
        `FIRST_WAIT` seconds if it has not started going out by then."""
        first = self._first.get(game_id)
        if first is None:
            return
        loop = asyncio.get_running_loop()
        until = loop.time() + FIRST_WAIT
        while not first.is_set() and (game_id in self._going or loop.time() < until):
            with suppress(TimeoutError):
                async with asyncio.timeout(LOOK_EVERY):
                    await first.wait()
            if game_id not in self._going:  # another worker's, perhaps: out already?
                game = await self.storage.games.game(game_id)
                if game is None or game.table_message_id is not None:
                    break
        if self._first.get(game_id) is first:
            del self._first[game_id]

    async def _table(self, job: tuple[int, TableNews]) -> None:
        game_id, news = job
        first = self._first.get(game_id)
        if first is not None:
            self._going.add(game_id)
        try:
            await self._draw(game_id, news)
        finally:  # sent, or failed: the first deal goes on
            if first is not None:
                first.set()
                self._going.discard(game_id)

    async def _draw(self, game_id: int, news: TableNews) -> None:
        drawn, now = self._drawn.get(game_id), (news.state.round_no, news.version)
        if news.ended is None and drawn is not None and now < drawn:
            return  # another worker's older news, told after a newer one
        game = await self.storage.games.game(game_id)
        if game is None:
            return
        t = await self.gateway.group_texts(game.chat_id)
        clock = "" if game.ends_at is None else sheets.match_clock(t, game.ends_at - time.time())
        scene = table_scene(t, news.state, game.names, clock)
        photo = BufferedInputFile(await asyncio.to_thread(render_table, scene), "table.png")
        caption = sheets.table_caption(
            t, news.state, game.names, news.events, news.notes, news.ended, clock
        )
        caption = texts.fit(caption, texts.CAPTION)
        markup = app_keyboard(t, self.gateway.app_link(game)) if game.is_open else None
        if not news.fresh and game.table_message_id is not None:
            edited = await self._edit_table(game, game.table_message_id, photo, caption, markup)
            if edited or news.ended is not None:
                if news.last:
                    await self.gateway.references.set_table_message(game.id, None)
                self._drawn[game_id] = now
                return
        sent = await self._send_photo(game, photo, caption, markup)
        table = None if news.last else sent.message_id
        await self.gateway.references.set_table_message(game.id, table)
        self._drawn[game_id] = now

    def close(self, game: GameRow) -> None:
        """A game ended without being played out: its table says why, nobody is to move."""
        if game.state is not None and game.end_reason is not None:
            ended = f"table-ended-{game.end_reason}"
            self.show(game, TableNews(game.state, (), ended=ended))

    def tell_round(
        self, game: GameRow, ended: RoundEnded, closed: GameState | None, over: bool = False
    ) -> None:
        """A round's result: the score sheet picture with the hands (as plain text when the
        round's last state is gone, after a restart); marked as told once it is sent.
        `over`: it takes the place of the round's table message (a round everybody played
        in the app: they saw its end there), which the next round's table leaves."""
        self.gateway.courier.post(game.chat_id, "round", (game.id, ended, closed, over))

    async def _round_result(self, job: tuple[Any, ...]) -> None:
        # a previous version's job is never over the table
        game_id, ended, closed, over = (*job, False)[:4]
        game = await self.storage.games.game(game_id)
        if game is None or await self.storage.games.announced(game_id, ended.round_no):
            return  # told already (by the sender before a restart)
        t = await self.gateway.group_texts(game.chat_id)
        caption = sheets.round_result(t, ended, game.rules, game.names, closed)
        code = await self.storage.archive.code(game.id, ended.round_no)
        deal = f"\n{t('round-deal-code', code=code)}" if code else ""
        markup = replay_keyboard(t, game.id, ended.round_no) if code else None
        if closed is None:
            await self.gateway.group_text(
                game, texts.fit(caption, texts.TEXT - len(deal)) + deal, markup
            )
        else:
            sheet = await asyncio.to_thread(render_score_sheet, score_sheet(t, closed, game.names))
            photo = BufferedInputFile(sheet, "score.png")
            caption = texts.fit(caption, texts.CAPTION - len(deal)) + deal
            if not over or not await self._over_table(game, ended, photo, caption, markup):
                await self._send_photo(game, photo, caption, markup)
        await self.storage.games.set_announced(game.id, ended.round_no)

    async def _send_photo(
        self,
        game: GameRow,
        photo: BufferedInputFile,
        caption: str,
        markup: InlineKeyboardMarkup | None,
    ) -> Message:
        """A new picture in the game's chat (and topic)."""
        return await self.gateway.send(
            SendPhoto(
                chat_id=game.chat_id,
                photo=photo,
                caption=caption,
                message_thread_id=game.thread_id or None,
                reply_markup=markup,
            )
        )

    async def _edit_table(
        self,
        game: GameRow,
        table: int,
        photo: BufferedInputFile,
        caption: str,
        markup: InlineKeyboardMarkup | None,
    ) -> bool:
        """The table message `table` shows `photo`; False when it is gone or too old."""
        media = InputMediaPhoto(media=photo, caption=caption)
        edit = EditMessageMedia(
            chat_id=game.chat_id, message_id=table, media=media, reply_markup=markup
        )
        return await self.gateway.edit(edit)

    async def _over_table(
        self,
        game: GameRow,
        ended: RoundEnded,
        photo: BufferedInputFile,
        caption: str,
        markup: InlineKeyboardMarkup | None,
    ) -> bool:
        """The round's table message edited into its score sheet, and let go of (the next
        round's table is a new message); False when there is none to edit."""
        table = game.table_message_id
        if table is None or not await self._edit_table(game, table, photo, caption, markup):
            return False  # the round's table never went out, or is gone: its sheet is sent
        await self.gateway.references.set_table_message(game.id, None)
        self._drawn[game.id] = (ended.round_no + 1, -1)  # no picture of the round now
        return True

    def tell_end(self, game: GameRow, outcome: GameEnded) -> None:
        """The game's end: places and goats in the group."""
        self.gateway.courier.post(game.chat_id, "end", (game.id, outcome))

    async def _game_end(self, job: tuple[int, GameEnded]) -> None:
        game_id, outcome = job
        game = await self.storage.games.game(game_id)
        if game is None or game.end_announced or game.state is None:
            return
        self._drawn.pop(game_id, None)
        t = await self.gateway.group_texts(game.chat_id)
        try:  # the record kept and the badges judged now (a failed record: built when read)
            earned = await Achievements(self.storage).judge(game.id)
        except Exception:
            log.exception("game %s: its record was not kept, nor its badges judged", game.id)
            earned = []
        said = badges.with_earned(t, endings.game_end(t, game, outcome), earned)
        await self.gateway.group_text(game, said, again_keyboard(t, game.id))
        await self.storage.games.set_announced(game.id)

    async def catch_up(self, game: GameRow) -> bool:
        """After a restart: tell the chat what a crash cut off — round results, the game's
        end. Whether anything was owed."""
        owed = [decode(result) for result in await self.storage.games.owed_rounds(game.id)]
        ended = game.status is GameStatus.FINISHED and not game.end_announced
        for result in owed:
            self.tell_round(game, result, None)
        outcome = game.state.outcome if ended and game.state is not None else None
        if outcome is not None:
            self.tell_end(game, outcome)
        return bool(owed) or ended

    @staticmethod
    def notes(t: Texts, turn: Turn) -> tuple[str, ...]:
        """The table says when someone left, when the computer moved for someone, and when
        they are away."""
        if turn.left is not None and turn.ended is None:
            return (t("left-game-note", name=turn.game.players[turn.left].name),)
        if turn.timed_out is None:
            return ()
        player = turn.game.players[turn.timed_out]
        notes = (t("timed-out", name=player.name),)
        return (*notes, t("away", name=player.name)) if player.away else notes


def _newer(older: tuple[int, TableNews], newer: tuple[int, TableNews]) -> tuple[int, TableNews]:
    return newer[0], older[1].then(newer[1])
