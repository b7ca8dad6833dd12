"""`POST /api/session`: Telegram's `initData`, exchanged once for a pass to one game — a seat
matched by the person's id, else a watcher who is in the game's chat."""

from __future__ import annotations

import logging
import re

from aiohttp import web

from bot.core.chats import Chats
from bot.ui.i18n import language_of
from bot.webapp.backstage import BACKSTAGE, body_of, refused
from bot.webapp.init_data import UnauthorizedError, validated
from bot.webapp.passes import PASS_SECONDS, Grant, issued

log = logging.getLogger(__name__)
GAME_PARAM = re.compile(r"g([A-Za-z0-9_-]{16,32})")
"""`start_param`: `g` and the game's secret token (the lobby's join links' token)."""


async def open_session(request: web.Request) -> web.Response:
    backstage = request.app[BACKSTAGE]
    body = await body_of(request)
    init_data = body.get("init_data")
    try:
        launch = validated(
            init_data if isinstance(init_data, str) else "",
            backstage.bot_token,
            backstage.clock(),
            backstage.max_age,
        )
    except UnauthorizedError as error:
        log.info("table app: initData refused (%s)", error.reason)
        return refused(401, "unauthorized")
    service = backstage.service
    param = GAME_PARAM.fullmatch(launch.start_param)
    game = None if param is None else await service.storage.games.game_by_token(param.group(1))
    if game is None:
        return refused(404, "no-such-game")
    seat = game.seat_of(launch.user_id)
    if seat is None and not await backstage.shell.is_member(game.chat_id, launch.user_id):
        log.info("table app: user %s is not in game %s's chat", launch.user_id, game.id)
        return refused(403, "not-in-chat")
    chats = Chats(service.storage)
    person = await chats.player(launch.user_id, launch.full_name, launch.username, launch.language)
    chosen, _ = await chats.language(launch.user_id)
    grant = Grant(
        user_id=launch.user_id,
        game_id=game.id,
        name=person.name,
        language=language_of(chosen, launch.language),
        expires=int(backstage.clock()) + PASS_SECONDS,
    )
    log.info("table app: user %s opens game %s (seat %s)", launch.user_id, game.id, seat)
    return web.json_response(
        {
            "token": issued(grant, backstage.bot_token),
            "expires": grant.expires,
            "user_id": grant.user_id,
            "seat": seat,
            "language": grant.language,
        }
    )
