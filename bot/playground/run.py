"""`python -m bot playground`: the real bot against a local Telegram, with a web page.

One aiohttp server on `host:port` is both the Bot API the bot polls (`/bot…`) and the
page people open (with its record viewer, `viewer.py`: the one part that draws with the
bot's own pictures); the bot itself is `bot.app.run` as in Telegram — the same dispatcher,
outbox, storage and pictures — with its own database (`playground.sqlite3` beside
`DATABASE_PATH`), so the playground's games never enter the real chats' ratings. The chats
live only as long as the process, so each start begins that database afresh too: a game
stored by the previous run would point at messages that are no longer there.

The bot's table app runs too, on a free port of `host` (`WEBAPP_URL`, `WEBAPP_SHORT_NAME`
set for it): the fake's app list maps its short name to it, so «📱 За стол» opens it in a
frame of the page, which alone (besides Telegram Web) may frame it.
"""

from __future__ import annotations

import logging
import os
import socket
from pathlib import Path
from urllib.parse import urlsplit

from aiohttp import web
from pydantic import SecretStr

from bot.app import run
from bot.config import Settings
from bot.playground import FakeTelegram
from bot.playground.viewer import RecordViewer
from bot.playground.web.front import Front
from bot.playground.world.state import BotAccount

log = logging.getLogger(__name__)

DATABASE = "playground.sqlite3"
SIDECARS = ("-wal", "-shm", "-journal")
GROUP = "Двор"
BOT_NAME = "Козёл"
APP_SHORT_NAME = "table"  # the table app's name in the fake's @BotFather list


class PlaygroundError(Exception):
    """The playground cannot start (one line for the person who started it)."""


def why(error: OSError) -> str:
    """What the system says of `error`, without the address it already names."""
    return os.strerror(error.errno).lower() if error.errno else str(error)


def fresh_database(database_path: Path) -> Path:
    """The playground's database beside `database_path`, the previous run's removed."""
    database = database_path.with_name(DATABASE)
    for stale in (database, *(database.with_name(database.name + end) for end in SIDECARS)):
        stale.unlink(missing_ok=True)
    return database


def free_port(host: str) -> int:
    """A port of `host` that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


def playground_settings(
    settings: Settings, token: str, base: str, fast: bool, app: str
) -> Settings:
    """The bot's settings in the playground (`settings` already name its database): its
    token and server, its table app at `app` (`http://host:port/app/`); the bot paces
    itself as in Telegram unless `fast`."""
    address = urlsplit(app)
    return settings.model_copy(
        update={
            "bot_token": SecretStr(token),
            "telegram_api_base": base,
            "pacing": not fast,
            "webapp_url": app,
            "webapp_short_name": APP_SHORT_NAME,
            "webapp_host": address.hostname,
            "webapp_port": address.port,
        }
    )


async def serve(settings: Settings, host: str, port: int, fast: bool) -> None:
    """Serve the page and the local Bot API, and run the bot until it is stopped."""
    fake = FakeTelegram(bot=BotAccount(name=BOT_NAME), flood=not fast, host=host, port=port)
    front = Front(fake, GROUP)
    viewer = RecordViewer(front.language)

    def routes(app: web.Application) -> None:
        front.add_routes(app)
        viewer.add_routes(app)  # the record viewer: the page's part is web/static/viewer.js

    try:
        await fake.start(routes=routes)
    except OSError as error:
        await fake.stop()
        raise PlaygroundError(
            f"cannot listen on {host}:{port} ({why(error)}): try another --port"
        ) from None
    local = fake.base.replace("://0.0.0.0:", "://127.0.0.1:")
    app = f"http://127.0.0.1:{free_port(host)}/app/"
    fake.add_app(APP_SHORT_NAME, app, BOT_NAME)
    try:
        where = local if host != "0.0.0.0" else f"{local} (and this machine's address)"
        print(
            f"Playground: open {where} — set BOT_TOKEN to run the bot in Telegram instead.",
            flush=True,
        )
        await run(playground_settings(settings, fake.token, local, fast, app), framer=local)
    finally:
        await fake.stop()
