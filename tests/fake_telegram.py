"""A small fake Bot API server on 127.0.0.1 for tests that run the real bot process.

It answers `getMe`, `deleteWebhook`, `getUpdates` (long polling over a queue the test
fills) and records every other call, answering `sendMessage` like Telegram does.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

BOT_ID = 100500
TOKEN = f"{BOT_ID}:TEST-token_abcdefghijklmnopqrstuvwxyz"


@dataclass
class FakeTelegram:
    token: str = TOKEN
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    updates: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    next_update_id: int = 1
    next_message_id: int = 1
    runner: web.AppRunner | None = None
    base: str = ""

    async def start(self) -> str:
        app = web.Application()
        app.router.add_post("/bot{token}/{method}", self._handle)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base = f"http://127.0.0.1:{port}"
        return self.base

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()

    def send_text(self, user_id: int, text: str) -> None:
        """A private message from `user_id` to the bot."""
        user = {"id": user_id, "is_bot": False, "first_name": f"User{user_id}"}
        message = {
            "message_id": self.next_message_id,
            "date": 0,
            "chat": {"id": user_id, "type": "private", "first_name": user["first_name"]},
            "from": user,
            "text": text,
        }
        if text.startswith("/"):
            command = text.split(maxsplit=1)[0]
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": len(command)}]
        self.next_message_id += 1
        self.updates.put_nowait({"update_id": self.next_update_id, "message": message})
        self.next_update_id += 1

    async def wait_for(self, method: str, timeout: float = 20.0) -> dict[str, Any]:
        """The first recorded call of `method`, waiting for it to arrive."""
        async with asyncio.timeout(timeout):
            while True:
                for name, params in self.calls:
                    if name == method:
                        return params
                await asyncio.sleep(0.05)

    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return _error(401, "Unauthorized")
        method = request.match_info["method"]
        params = dict(await request.post())
        self.calls.append((method, params))
        if method == "getMe":
            return _ok(
                {"id": BOT_ID, "is_bot": True, "first_name": "Kozel", "username": "kozel_bot"}
            )
        if method == "getUpdates":
            timeout = float(str(params.get("timeout", 0)))
            try:
                update = await asyncio.wait_for(self.updates.get(), timeout=max(timeout, 0.1))
            except TimeoutError:
                return _ok([])
            return _ok([update])
        if method == "sendMessage":
            text = str(params["text"])
            if not 1 <= len(text) <= 4096:
                return _error(400, "Bad Request: message is too long")
            chat_id = int(str(params["chat_id"]))
            message = {
                "message_id": self.next_message_id,
                "date": 0,
                "chat": {"id": chat_id, "type": "private"},
                "text": text,
            }
            self.next_message_id += 1
            return _ok(message)
        return _ok(True)


def _ok(result: Any) -> web.Response:
    return web.json_response({"ok": True, "result": result})


def _error(code: int, description: str) -> web.Response:
    return web.Response(
        status=code,
        text=json.dumps({"ok": False, "error_code": code, "description": description}),
        content_type="application/json",
    )
