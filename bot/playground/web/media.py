"""A message's picture, animation or document as the playground's page loads them:
`GET /photo/CHAT/MESSAGE`, `GET /media/CHAT/MESSAGE` (a document as a download)."""

from __future__ import annotations

from urllib.parse import quote

from aiohttp import web

from bot.playground import FakeTelegram


class Media:
    """The files of the fake's messages."""

    def __init__(self, fake: FakeTelegram) -> None:
        self.fake = fake

    async def photo(self, request: web.Request) -> web.Response:
        try:
            chat = self.fake.chats[int(request.match_info["chat"])]
            photo = chat.messages[int(request.match_info["message"])].photo
        except (KeyError, ValueError):
            photo = None
        if photo is None:
            raise web.HTTPNotFound()
        return web.Response(
            body=photo.data,
            content_type=f"image/{photo.format.lower()}",
            headers={"Cache-Control": "max-age=86400"},  # the query names the version
        )

    async def file(self, request: web.Request) -> web.Response:
        try:
            chat = self.fake.chats[int(request.match_info["chat"])]
            file = chat.messages[int(request.match_info["message"])].file
        except (KeyError, ValueError):
            file = None
        if file is None:
            raise web.HTTPNotFound()
        headers = {"Cache-Control": "max-age=86400"}  # the query names the version
        if file.kind == "document":
            name = quote(file.file_name or "document")
            headers["Content-Disposition"] = f"attachment; filename*=UTF-8''{name}"
        return web.Response(body=file.data, content_type=file.mime_type, headers=headers)
