"""`python -m bot playground`: the real bot against a local Telegram, with a web page.

One aiohttp server on `host:port` is both the Bot API the bot polls (`/bot…`) and the
page people open; the bot itself is `bot.app.run` as in Telegram — the same dispatcher,
outbox, storage and pictures — with its own database (`playground.sqlite3` beside
`DATABASE_PATH`), so the playground's games never enter the real chats' ratings.
"""

from __future__ import annotations

import logging

from pydantic import SecretStr

from bot.app import run
from bot.config import Settings
from bot.playground import FakeTelegram
from bot.playground.web.front import Front

log = logging.getLogger(__name__)

DATABASE = "playground.sqlite3"
GROUP = "Двор"
BOT_NAME = "Козёл"


def playground_settings(settings: Settings, token: str, base: str, fast: bool) -> Settings:
    """The bot's settings in the playground: its token and server, its own database; the
    bot paces itself as in Telegram unless `fast`."""
    return settings.model_copy(
        update={
            "bot_token": SecretStr(token),
            "telegram_api_base": base,
            "database_path": settings.database_path.with_name(DATABASE),
            "pacing": not fast,
        }
    )


async def serve(settings: Settings, host: str, port: int, fast: bool) -> None:
    """Serve the page and the local Bot API, and run the bot until it is stopped."""
    fake = FakeTelegram(flood=not fast, host=host, port=port, bot_name=BOT_NAME)
    front = Front(fake, GROUP)
    await fake.start(routes=front.add_routes)
    local = fake.base.replace("://0.0.0.0:", "://127.0.0.1:")
    try:
        where = local if host != "0.0.0.0" else f"{local} (and this machine's address)"
        print(
            f"Playground: open {where} — set BOT_TOKEN to run the bot in Telegram instead.",
            flush=True,
        )
        await run(playground_settings(settings, fake.token, local, fast))
    finally:
        await fake.stop()
