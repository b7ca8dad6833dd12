"""A fake Telegram Bot API server on 127.0.0.1 that enforces Telegram's rules.

The real bot talks to it over HTTP (set `TELEGRAM_API_BASE` to `fake.base`); a test drives
simulated users with plain methods (`add_user`, `add_group`, `user_sends`, `user_presses`,
...) and looks at the result as a user would (`chat_view`, `transcript`) or as the wire saw
it (`calls`). State lives in memory; every request and answer is logged in `calls`, and
listeners (`listen`) hear of every change as it happens.

`FakeTelegram` is its parts put together over one `World` (the state): the Bot API
(`bot.playground.api`: HTTP, updates, messages, chats) and the world's own API
(`bot.playground.world`: building it, acting in it, its Mini Apps, looking at it). A
subclass may override any part's methods (the load benchmark does).
"""

from __future__ import annotations

from bot.playground.api.chats import ChatMethods
from bot.playground.api.http import HttpServer
from bot.playground.api.messages import MessageMethods
from bot.playground.api.updates import UpdateMethods
from bot.playground.world.acting import Acting
from bot.playground.world.apps import Apps
from bot.playground.world.building import Building
from bot.playground.world.looking import Looking


class FakeTelegram(
    HttpServer, UpdateMethods, MessageMethods, ChatMethods, Building, Acting, Apps, Looking
):
    """The fake Bot API server and the world it simulates (see the module docstring)."""
