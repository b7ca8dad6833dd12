"""Webhook mode: Telegram POSTs each update to an aiohttp server instead of the bot polling.

The server listens on `host:port` at the path of the public URL (a reverse proxy in front
terminates TLS). aiogram's request handler answers at once and handles the update in the
background; a request without the secret in Telegram's `X-Telegram-Bot-Api-Secret-Token`
header gets 401 and reaches no handler. With the secret, a body that is not JSON gets 400,
and JSON that is not an update gets 200 (Telegram would only send it again) and one warning
in the log. `GET /healthz` answers 200 for a load balancer.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from typing import Any
from urllib.parse import urlsplit

from aiogram import Bot, Dispatcher
from aiogram.methods import TelegramMethod
from aiogram.types import Update
from aiogram.types.update import UpdateTypeLookupError
from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application
from aiohttp import web
from pydantic import ValidationError

log = logging.getLogger(__name__)
ALLOWED_UPDATES = ["message", "callback_query", "my_chat_member"]  # polling asks for the same


async def healthz(request: web.Request) -> web.Response:
    return web.Response(text="ok")


class CheckedRequestHandler(SimpleRequestHandler):
    """aiogram's handler (the secret checked first), but the body is parsed and validated
    before the answer: junk is answered at once, never a traceback."""

    async def _handle_request_background(self, bot: Bot, request: web.Request) -> web.Response:
        try:
            data = bot.session.json_loads(await request.read())
        except (ValueError, RecursionError):  # not JSON, not UTF-8, nested too deep
            return web.Response(status=400, text="not JSON")
        try:
            update = Update.model_validate(data, context={"bot": bot})
            update.event_type  # noqa: B018 - raises for no kind known (aiogram would warn)
        except (ValidationError, UpdateTypeLookupError) as error:
            log.warning("%s", _what_is_wrong(data, error))
            return web.json_response({}, dumps=bot.session.json_dumps)
        feeding = asyncio.create_task(self._feed(bot, update))
        self._background_feed_update_tasks.add(feeding)
        feeding.add_done_callback(self._background_feed_update_tasks.discard)
        return web.json_response({}, dumps=bot.session.json_dumps)

    async def _feed(self, bot: Bot, update: Update) -> None:
        """aiogram's `_background_feed_update` for an update already validated."""
        result = await self.dispatcher.feed_update(bot, update, **self.data)
        if isinstance(result, TelegramMethod):
            await self.dispatcher.silent_call_request(bot=bot, result=result)


def _what_is_wrong(data: Any, error: ValidationError | UpdateTypeLookupError) -> str:
    """One short line: the update_id if any, the first error and how many more."""
    update_id = data.get("update_id") if isinstance(data, dict) else None
    named = f"update {update_id}" if isinstance(update_id, int) else "a body"
    if isinstance(error, UpdateTypeLookupError):
        return f"ignored {named}, an Update of no kind known"
    first = error.errors(include_url=False, include_input=False)[0]
    where = ".".join(str(part) for part in first["loc"])
    at = f" at {where!r:.80}" if where else ""  # repr: a key from the body stays on one line
    more = f" (+{error.error_count() - 1} more)" if error.error_count() > 1 else ""
    return f"ignored {named}, not a valid Update{at}: {first['msg']:.80}{more}"


def webhook_app(dispatcher: Dispatcher, bot: Bot, url: str, secret: str) -> web.Application:
    """The server's routes; its start-up and shutdown run the dispatcher's."""
    app = web.Application()
    app.router.add_get("/healthz", healthz)
    handler = CheckedRequestHandler(dispatcher, bot, secret_token=secret)
    # the route only: `handler.register` would also close the bot's session on shutdown,
    # before the dispatcher's own shutdown has sent what the outbox still holds
    app.router.add_post(urlsplit(url).path or "/", handler.handle)
    setup_application(app, dispatcher, bot=bot)
    return app


async def serve_webhook(
    dispatcher: Dispatcher, bot: Bot, url: str, secret: str, host: str, port: int
) -> None:
    """Listen, then ask Telegram to deliver to `url`; run until SIGTERM or SIGINT. The
    webhook stays set on a stop, so updates wait for the restart (or another worker)."""
    runner = web.AppRunner(webhook_app(dispatcher, bot, url, secret), access_log=None)
    await runner.setup()  # the dispatcher's start-up: open games resume before any update
    try:
        site = web.TCPSite(runner, host, port)
        await site.start()
        await bot.set_webhook(url, secret_token=secret, allowed_updates=ALLOWED_UPDATES)
        log.info("webhook set; listening on %s:%s", host, port)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop.set)
        await stop.wait()
    finally:
        await runner.cleanup()  # the dispatcher's shutdown: in-flight updates finish
