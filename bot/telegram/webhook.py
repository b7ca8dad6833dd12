"""Webhook mode: Telegram POSTs each update to an aiohttp server instead of the bot polling.

The server listens on `host:port` at the path of the public URL (a reverse proxy in front
terminates TLS). aiogram's request handler answers at once and handles the update in the
background; a request without the secret in Telegram's `X-Telegram-Bot-Api-Secret-Token`
header gets 401 and reaches no handler. `GET /healthz` answers 200 for a load balancer.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from urllib.parse import urlsplit

from aiogram import Bot, Dispatcher
from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application
from aiohttp import web

log = logging.getLogger(__name__)
ALLOWED_UPDATES = ["message", "callback_query", "my_chat_member"]  # polling asks for the same


async def healthz(request: web.Request) -> web.Response:
    return web.Response(text="ok")


def webhook_app(dispatcher: Dispatcher, bot: Bot, url: str, secret: str) -> web.Application:
    """The server's routes; its start-up and shutdown run the dispatcher's."""
    app = web.Application()
    app.router.add_get("/healthz", healthz)
    handler = SimpleRequestHandler(dispatcher, bot, secret_token=secret)
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
