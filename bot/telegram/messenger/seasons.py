"""A season's end in the group: one picture of its table, with its champion and one line
(kept in the outbox by the game that ended the season, `bot.core.seasons`)."""

from __future__ import annotations

import asyncio

from aiogram.methods import SendPhoto
from aiogram.types import BufferedInputFile

from bot.core.season_tables import SeasonTables
from bot.core.seasons import ANNOUNCE
from bot.telegram.messenger.gateway import Gateway
from bot.ui import texts
from bot.ui.seasons import season_caption, season_scene
from render.season import render_season


class SeasonEnds:
    """Says a season's end, once: a season already told is not told again."""

    def __init__(self, gateway: Gateway) -> None:
        self.gateway = gateway
        self.tables = SeasonTables(gateway.storage)
        gateway.courier.kind(ANNOUNCE, self._season_over)

    async def _season_over(self, job: tuple[int, int, int | None]) -> None:
        chat_id, number, thread = job
        season = await self.tables.season(chat_id, number)
        if season is None or season.announced:
            return
        lines = await self.tables.table(chat_id, number)
        t = await self.gateway.group_texts(chat_id)
        title = await self.tables.chat_title(chat_id)
        scene = season_scene(t, title, season, lines)
        picture = await asyncio.to_thread(render_season, scene)
        await self.gateway.send(
            SendPhoto(
                chat_id=chat_id,
                photo=BufferedInputFile(picture, f"season-{number}.png"),
                caption=texts.fit(season_caption(t, season, lines), texts.CAPTION),
                message_thread_id=thread or None,
            )
        )
        await self.tables.set_announced(chat_id, number)
