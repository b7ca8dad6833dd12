"""The HTTP side of the fake Bot API: aiohttp routes, the Bot API envelope, the calls
log, injected faults (`outages`, `fail`, `slow`), and answers to bugs of the fake (500).

Only the bot acts: the token is random per fake (`World.token`), and a request a browser
marks as another site's (`cross_site`) is refused, so a page open in the same browser
cannot make the bot send anything nor take its updates."""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import traceback
from collections.abc import Callable
from typing import Any, Self

from aiohttp import web

from bot.playground.api.errors import ApiError, too_large
from bot.playground.api.files import MAX_UPLOAD_BYTES, downloadable
from bot.playground.api.params import Call, Handler, Params, Upload
from bot.playground.world.state import World

MAX_REQUEST_BYTES = MAX_UPLOAD_BYTES + 1024 * 1024
"""A request's body: an upload of `MAX_UPLOAD_BYTES` and the rest of the form (413 over
it; an upload over its own limit is refused the same way by the method)."""
# Methods that only need to answer `true` for a game bot; anything else unknown is 404.
HARMLESS = frozenset(
    {
        "setmydescription",
        "setmyshortdescription",
        "setmyname",
        "setchatmenubutton",
        "setmydefaultadministratorrights",
        "setmessagereaction",
        "logout",
        "close",
    }
)
FOREIGN_SITES = frozenset({"cross-site", "same-site"})  # same-site: another port, say
CROSS_SITE = ApiError(403, "Forbidden: cross-site requests are refused")
_TOKEN_SHAPE = re.compile(r"\d+:[A-Za-z0-9_-]+")
_JSON_FIELDS = frozenset(
    {
        "reply_markup",
        "entities",
        "caption_entities",
        "media",
        "reply_parameters",
        "link_preview_options",
        "allowed_updates",
        "commands",
        "scope",
        "message_ids",
    }
)


class HttpServer(World):
    """Serves `/bot<token>/<method>` (every method `_handlers` names) and file downloads
    on `host:port`."""

    _runner: web.AppRunner | None = None

    def _handlers(self) -> dict[str, Handler]:
        return {**super()._handlers(), **dict.fromkeys(HARMLESS, self._harmless)}

    async def _harmless(self, p: Params) -> bool:
        return True

    # ------------------------------------------------------------------ lifecycle

    async def start(self, *, routes: Callable[[web.Application], None] | None = None) -> str:
        """Listen on `host:port` (a free port by default); returns `base`. `routes` adds
        more routes to the same server (a web page beside the Bot API); any other path
        answers 404 in the Bot API's envelope."""
        app = web.Application(client_max_size=MAX_REQUEST_BYTES)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_get("/file/bot{token}/{path:.+}", self._download)
        if routes is not None:
            routes(app)
        app.router.add_route("*", "/{tail:.*}", self._not_found)
        self._runner = web.AppRunner(
            app, handler_cancellation=True, shutdown_timeout=1.0, access_log=None
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        port = self._runner.addresses[0][1]
        self.base = f"http://{self.host}:{port}"
        return self.base

    async def stop(self) -> None:
        """Answer pending long polls, stop delivering to a webhook, close the server."""
        self._closing = True
        self._notify()
        for task in list(self._background):
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ------------------------------------------------------------------ HTTP

    async def _not_found(self, request: web.Request) -> web.Response:
        return _reply(ApiError(404, "Not Found").envelope(), 404)

    async def _download(self, request: web.Request) -> web.StreamResponse:
        if cross_site(request):
            return _reply(CROSS_SITE.envelope(), CROSS_SITE.code)
        if not self._is_token(request.match_info["token"]):
            return _reply(ApiError(401, "Unauthorized: invalid token specified").envelope(), 401)
        path = request.match_info["path"]
        file_id = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        found = downloadable(file_id, self._files, self._kept)
        if found is None:
            return _reply(ApiError(404, "Not Found").envelope(), 404)
        body, content_type = found
        return web.Response(body=body, content_type=content_type)

    async def _handle(self, request: web.Request) -> web.Response:
        if cross_site(request):  # never the bot's: logged nowhere, it changes nothing
            return _reply(CROSS_SITE.envelope(), CROSS_SITE.code)
        method = request.match_info["method"]
        token = request.match_info["token"]
        call = Call(method, {}, self.now())
        self.calls.append(call)
        try:
            values, files = await _read_request(request)
        except web.HTTPRequestEntityTooLarge:
            return self._finish(call, too_large())
        call.params = _loggable(values, files)
        if not _TOKEN_SHAPE.fullmatch(token):  # not the bot's request: no violation of its
            return self._finish(call, ApiError(404, "Not Found"), injected=True)
        if not self._is_token(token):
            refused = ApiError(401, "Unauthorized: invalid token specified")
            return self._finish(call, refused, injected=True)
        handler = self._methods.get(method.lower())
        if handler is None:
            return self._finish(call, ApiError(404, "Not Found"))
        if self.outages.get(method.lower(), 0) > 0:
            self.outages[method.lower()] -= 1
            return self._finish(call, ApiError(502, "Bad Gateway"), injected=True)
        fault = self.faults.get(method.lower())
        if fault is not None and fault.active(self.now()):
            fault.met += 1
            if fault.delay:
                await asyncio.sleep(fault.delay)
            error = fault.error()
            if error is not None:
                return self._finish(call, error, injected=True)
        try:
            result = await handler(Params(values, files))
        except ApiError as error:
            return self._finish(call, error)
        except asyncio.CancelledError:
            call.cancelled = True
            raise
        except Exception:
            self.internal_errors.append(traceback.format_exc())
            return self._finish(call, ApiError(500, "Internal Server Error"))
        call.status = 200
        call.result = result
        return _reply({"ok": True, "result": result}, 200)

    def _is_token(self, token: str) -> bool:
        """Whether `token` is the bot's (compared in constant time)."""
        return secrets.compare_digest(token.encode(), self.token.encode())

    def _finish(self, call: Call, error: ApiError, *, injected: bool = False) -> web.Response:
        """Answer `error`; a 4xx other than 429 the bot earned (not a fault a test injected,
        nor a request without the bot's token: `injected`) is a "violation" for the
        listeners."""
        call.status = error.code
        call.description = error.description
        call.parameters = error.parameters
        if 400 <= error.code < 500 and error.code != 429 and not injected:
            self._emit(
                "violation",
                _number(call.params.get("chat_id")),
                _number(call.params.get("message_id")),
                method=call.method,
                code=error.code,
                description=error.description,
            )
        return _reply(error.envelope(), error.code)


def cross_site(request: web.Request) -> bool:
    """Whether a browser marks `request` as made by a page of another origin: an `Origin`
    other than the request's own, or `Sec-Fetch-Site` saying another site made it (a plain
    link or image sends no `Origin`). Clients other than browsers (the bot, curl, tests)
    send neither."""
    if request.headers.get("Sec-Fetch-Site", "").lower() in FOREIGN_SITES:
        return True
    origin = request.headers.get("Origin")
    return origin is not None and origin.lower() != f"{request.scheme}://{request.host}".lower()


def _number(value: Any) -> int | None:
    """A parameter as an integer, if it is one (a chat or message id)."""
    try:
        return int(str(value).strip())
    except ValueError:
        return None


def _reply(body: dict[str, Any], status: int) -> web.Response:
    return web.Response(
        status=status,
        text=json.dumps(body, ensure_ascii=False),
        content_type="application/json",
    )


async def _read_request(request: web.Request) -> tuple[dict[str, Any], dict[str, Upload]]:
    values: dict[str, Any] = dict(request.query)
    files: dict[str, Upload] = {}
    if request.method not in ("POST", "PUT") or not request.can_read_body:
        return values, files
    if request.content_type == "application/json":
        body = await request.json()
        if isinstance(body, dict):
            values.update(body)
        return values, files
    form = await request.post()
    for name, value in form.items():
        if isinstance(value, web.FileField):
            files[name] = Upload(value.filename, value.file.read())
        else:
            values[name] = value
    return values, files


def _loggable(values: dict[str, Any], files: dict[str, Upload]) -> dict[str, Any]:
    """Parameters for `calls`: strings as sent, JSON fields decoded, files summarised."""
    logged: dict[str, Any] = {}
    for name, value in values.items():
        if name in _JSON_FIELDS and isinstance(value, str):
            try:
                logged[name] = json.loads(value)
            except ValueError:
                logged[name] = value
        else:
            logged[name] = value
    logged.update(files)
    return logged
