"""`GET /api/table` and `GET /api/stream`: the table as the pass's person sees it — now, and
live as Server-Sent Events, each change the hub hears sent as the newest view."""

from __future__ import annotations

import asyncio
import logging
from contextlib import suppress
from typing import NamedTuple

import orjson
from aiohttp import web

from bot.core.rows import GameRow
from bot.ui.i18n import texts_for
from bot.webapp.backstage import BACKSTAGE, Backstage, View, refused
from bot.webapp.hub import Read
from bot.webapp.passes import Grant

log = logging.getLogger(__name__)
KEEP_ALIVE_SECONDS = 15.0


class TableEvent(NamedTuple):
    """A game as one person sees it: its version, and `{"version", "view"}` as JSON."""

    version: int
    data: bytes


async def _seen(backstage: Backstage, grant: Grant) -> TableEvent | None:
    """The pass's game for its person: its version and `{"version", "view"}` as JSON,
    None if there is no game. The readers of one read share what they see alike (built and
    encoded once per language), and those of a seat (every watcher in a language) their
    whole view."""
    storage = backstage.service.storage

    async def fetch(game_id: int, committed: GameRow | None) -> Read:
        game = committed or await storage.games.game(game_id)
        state = None if game is None else game.state
        if state is None or state.last_round is None:
            return game, None
        return game, await storage.archive.code(game_id, state.last_round.round_no)

    shared = await backstage.hub.read(grant.game_id, fetch)
    game, code = shared.read
    if game is None:
        return None
    seat = game.seat_of(grant.user_id)
    t = texts_for(grant.language)

    def everyones() -> _Shared:
        view = backstage.views.shared(t, game, backstage.clock(), code)
        return _Shared(view, orjson.dumps(view)[:-1])

    def make() -> bytes:
        alike = shared.made(("all", grant.language), everyones)
        own = orjson.dumps(backstage.views.seat(t, game, alike.view, seat))
        return b'{"version":%d,"view":%s,%s}' % (game.version, alike.head, own[1:])

    return TableEvent(game.version, shared.made((seat, grant.language), make))


class _Shared(NamedTuple):
    """The part of a game's view everyone reading it in a language sees alike, and its
    JSON without the closing brace (each seat's own keys follow)."""

    view: View
    head: bytes


async def table(request: web.Request) -> web.Response:
    backstage = request.app[BACKSTAGE]
    seen = await _seen(backstage, backstage.admitted(request))
    if seen is None:
        return refused(404, "no-such-game")
    return web.Response(body=seen.data, content_type="application/json")


async def stream(request: web.Request) -> web.StreamResponse:
    """The view at once (whatever `since` says: a lobby's seats change without a new
    version), then each time it changes; a comment every `KEEP_ALIVE_SECONDS` keeps the
    line open. Ends when the client goes, the pass expires or the server stops."""
    backstage = request.app[BACKSTAGE]
    grant = backstage.admitted(request)
    response = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream",
            "Cache-Control": "no-store",
            "X-Accel-Buffering": "no",  # a proxy passes each event on at once
        }
    )
    with backstage.hub.watch(grant.game_id) as woken:
        seen = await _seen(backstage, grant)
        if seen is None:
            return refused(404, "no-such-game")
        await response.prepare(request)
        with (
            backstage.presence.at_the_table(grant.game_id, grant.user_id),
            suppress(ConnectionResetError),  # the page went: it comes back with `since`
        ):
            await _follow(backstage, grant, request, response, woken, seen)
    return response


async def _follow(
    backstage: Backstage,
    grant: Grant,
    request: web.Request,
    response: web.StreamResponse,
    woken: asyncio.Event,
    seen: TableEvent | None,
) -> None:
    """The events, until the page goes (`Pages` wakes the stream then, so the person's
    stay at the table ends at once), the pass expires or the server stops."""
    loop = asyncio.get_running_loop()
    sent, wrote = b"", loop.time()
    with backstage.pages.open(request, woken):
        while seen is not None:
            if seen.data != sent:
                await response.write(b"event: table\nid: %d\ndata: %s\n\n" % seen)
                sent, wrote = seen.data, loop.time()
            left = grant.expires - backstage.clock()
            if left <= 0:
                return  # the page asks for a new pass
            with suppress(TimeoutError):
                async with asyncio.timeout(min(wrote + KEEP_ALIVE_SECONDS - loop.time(), left)):
                    await woken.wait()
            if backstage.closing.is_set() or request.transport is None:
                return
            if not woken.is_set():
                await response.write(b": keep-alive\n\n")
                wrote = loop.time()
                continue
            woken.clear()
            seen = await _seen(backstage, grant)
