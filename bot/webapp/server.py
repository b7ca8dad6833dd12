"""The table app's web server: the page (`/app/`, `/app/static/<name>`, framed only by
Telegram Web and, given, the playground) and its JSON API (`/api/…`), on its own port."""

from __future__ import annotations

import asyncio
import logging
import re
from contextlib import suppress
from pathlib import Path

from aiohttp import web

from bot.core.database import Claim
from bot.webapp import actions, sessions, streams
from bot.webapp.backstage import BACKSTAGE, Backstage, refused

log = logging.getLogger(__name__)
STATIC = Path(__file__).with_name("static")
TELEGRAM_WEB = "https://web.telegram.org"
FILE_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]{0,99}")
STOP_SECONDS = 5.0  # how long a stop waits for requests under way
LISTEN_CHECK_SECONDS = 30.0  # how often the listening for other workers is looked at


def table_app(
    backstage: Backstage, static: Path = STATIC, framer: str | None = None
) -> web.Application:
    """The app's routes; `static` holds the page's files, `framer` is one more origin that
    may show it in a frame (the playground's)."""
    ancestors = " ".join(origin for origin in (TELEGRAM_WEB, framer) if origin)

    async def guarded(request: web.Request, response: web.StreamResponse) -> None:
        """Every answer, refusals too: who may frame it, and no guessing its type."""
        response.headers["Content-Security-Policy"] = f"frame-ancestors {ancestors}"
        response.headers["X-Content-Type-Options"] = "nosniff"

    async def page(request: web.Request) -> web.StreamResponse:
        name = request.match_info.get("name", "index.html")
        path = static / name
        if not FILE_NAME.fullmatch(name) or not path.is_file():
            return refused(404, "not-found")
        return web.FileResponse(path, headers={"Cache-Control": "no-cache"})

    app = web.Application(client_max_size=64 * 1024)
    app[BACKSTAGE] = backstage
    app.on_response_prepare.append(guarded)
    app.router.add_get("/app", _to_index)
    app.router.add_get("/app/", page)
    app.router.add_get("/app/static/{name}", page)
    app.router.add_post("/api/session", sessions.open_session)
    app.router.add_get("/api/table", streams.table)
    app.router.add_get("/api/stream", streams.stream)
    app.router.add_post("/api/act", actions.act)
    app.router.add_post("/api/lobby", actions.lobby)
    app.router.add_post("/api/record", actions.record)
    return app


async def _to_index(request: web.Request) -> web.StreamResponse:
    raise web.HTTPFound("/app/")


class AppServer:
    """The app's server on `host:port` (0: any free port), beside polling or the webhook;
    its streams woken by every change committed to a game, on any worker."""

    def __init__(self, app: web.Application) -> None:
        self.runner = web.AppRunner(app, access_log=None, shutdown_timeout=STOP_SECONDS)
        self.backstage = app[BACKSTAGE]
        self.port = 0
        self._listening: asyncio.Task[None] | None = None

    async def start(self, host: str, port: int) -> None:
        changes = self.backstage.service.storage.games.changes
        listening = await changes.listen(self.backstage.hub)
        self._listening = asyncio.create_task(self._keep_listening(listening))
        self.backstage.presence.share()  # who is at the tables on the other workers
        await self.runner.setup()
        site = web.TCPSite(self.runner, host, port)
        await site.start()
        self.port = int(self.runner.addresses[0][1])
        log.info("table app listening on %s:%s", host, self.port)

    async def _keep_listening(self, listening: Claim) -> None:
        """The other workers heard again whenever the database connection that listens
        for them is lost (tried again every `LISTEN_CHECK_SECONDS` until it is back)."""
        changes = self.backstage.service.storage.games.changes
        try:
            while True:
                await asyncio.sleep(LISTEN_CHECK_SECONDS)
                try:
                    if not await listening.held():
                        await listening.release()
                        listening = await changes.listen(self.backstage.hub)
                        log.info("table app: the other workers are heard again")
                except Exception:
                    log.warning("table app: the other workers' changes are not heard now")
        finally:
            await listening.release()

    async def stop(self) -> None:
        """Streams end at once (the pages come back with `since`), then the server. Their
        people are not taken to have left the app: the bot is stopping."""
        self.backstage.presence.hush()
        self.backstage.closing.set()
        await self.backstage.pages.close()
        await asyncio.sleep(0)
        await self.runner.cleanup()
        await self.backstage.presence.close()
        if self._listening is not None:
            self._listening.cancel()
            with suppress(asyncio.CancelledError):
                await self._listening
