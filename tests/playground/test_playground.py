"""The playground over HTTP: `python -m bot` without a token serves the page and runs the
real bot against the local Telegram; the page's events and actions; rules the bot breaks
reach the page as a banner. (In a real browser: tests/playground/test_playground_browser.py.)"""

from __future__ import annotations

import asyncio
import json
import re
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiohttp

from bot.__main__ import arguments
from bot.playground import FakeTelegram
from bot.playground.web.front import Front
from tests.e2e.process import stretched
from tests.playground.launch import ROOT, free_port, playground, playground_env

Event = dict[str, Any]
JOIN, COMPUTER, START = "🎲 Сесть за стол", "🤖 +любитель", "▶ Начать"


class Page:
    """What one open page receives, with the newest version of every message it saw."""

    def __init__(self, session: aiohttp.ClientSession, base: str, user: str) -> None:
        self.session, self.base, self.user = session, base, user
        self.stream = self._events()
        self.messages: dict[tuple[str, int], Event] = {}
        self.snapshot: Event = {}
        self.events: list[Event] = []  # every event so far

    async def _events(self) -> AsyncIterator[Event]:
        async with self.session.get(f"{self.base}/events?user={self.user}") as response:
            assert response.headers["Content-Type"].startswith("text/event-stream")
            async for line in response.content:
                if line.startswith(b"data: "):
                    event = json.loads(line[6:])
                    if event["type"] == "message":
                        self.messages[event["chat"], event["message"]["id"]] = event["message"]
                    self.events.append(event)
                    yield event

    async def first(self, wanted: Callable[[Event], bool]) -> Event:
        async with asyncio.timeout(30):
            async for event in self.stream:
                if event["type"] == "snapshot":
                    self.snapshot = event
                if wanted(event):
                    return event
        raise AssertionError("the stream ended")

    async def seen(self, wanted: Callable[[Event], bool]) -> Event:
        """The first event `wanted`, whether it came already (the first table goes out
        before the hands, or beside them) or is still to come."""
        for event in self.events:
            if wanted(event):
                return event
        return await self.first(wanted)

    async def act(self, path: str, **body: Any) -> dict[str, Any]:
        async with self.session.post(f"{self.base}{path}", json={"user": self.user, **body}) as r:
            answer: dict[str, Any] = await r.json()
            return answer

    def find(self, chat: str, text: str) -> int:
        """The id of the newest message in `chat` with a button `text`."""
        return max(
            i
            for (where, i), m in self.messages.items()
            if where == chat and any(b["text"] == text for row in m["buttons"] for b in row)
        )

    async def press(self, chat: str, message_id: int, text: str) -> dict[str, Any]:
        """Press the button `text` of the newest version of a message."""
        message = self.messages[chat, message_id]
        for r, row in enumerate(message["buttons"]):
            for c, button in enumerate(row):
                if button["text"] == text:
                    where = {"chat_id": self.snapshot[chat]["id"], "message_id": message_id}
                    shown = {"text": text, "data": button["data"]}
                    return await self.act("/api/press", **where, row=r, column=c, **shown)
        raise AssertionError(f"no {text!r} in {message['buttons']}")


def seated(event: Event) -> int:
    """How many the lobby in `event` names on its «Игроки:» line (0: not a lobby)."""
    text = (event.get("message") or {}).get("text") or ""
    if not text.startswith("🁫 Собираем стол") or "Игроки: " not in text:
        return 0
    return len(text.split("Игроки: ")[1].split("\n")[0].split(", "))


def with_button(text: str) -> Callable[[Event], bool]:
    def wanted(event: Event) -> bool:
        message = event.get("message") or {}
        return any(b["text"] == text for row in message.get("buttons", []) for b in row)

    return wanted


async def test_without_a_token_the_bot_plays_in_the_playground(tmp_path: Path) -> None:
    """`python -m bot` with no token: the page, a lobby from /newgame, a seat through the
    lobby's t.me button (the private chat opens with /start PAYLOAD), a computer, ▶ Start,
    a hand with buttons in the private chat and the table's picture; its own database."""
    port = free_port()
    async with (
        playground(tmp_path, "--port", str(port), "--fast") as running,
        aiohttp.ClientSession() as session,
    ):
        assert running.url == f"http://127.0.0.1:{port}"
        assert "/static/app.js" in await (await session.get(running.url)).text()
        for name in ("app.js", "style.css", "favicon.svg"):
            assert (await session.get(f"{running.url}/static/{name}")).status == 200
        icon = await session.get(f"{running.url}/favicon.ico")  # what a browser asks for
        assert (icon.status, icon.content_type) == (200, "image/svg+xml")

        page = Page(session, running.url, "Аня")
        snapshot = await page.first(lambda e: e["type"] == "snapshot")
        assert snapshot["group"]["title"] == "Двор"
        assert snapshot["me"]["name"] == "Аня"
        assert snapshot["me"]["started"] is False
        assert snapshot["language"] == "ru"  # the page's hints speak the people's language

        assert (await page.act("/api/send", chat="group", text="/newgame"))["ok"]
        lobby = (await page.first(with_button(JOIN)))["message"]["id"]
        assert await page.press("group", lobby, JOIN) == {"ok": True, "opened": "private"}
        start = await page.first(lambda e: e.get("chat") == "private")
        assert start["message"]["sender_id"] == snapshot["me"]["id"]
        assert start["message"]["text"].startswith("/start j")
        await page.first(lambda e: seated(e) == 1)
        assert (await page.press("group", lobby, COMPUTER))["ok"]
        await page.first(lambda e: seated(e) == 2)
        assert (await page.press("group", lobby, START))["ok"]
        answer = await page.first(lambda e: e["type"] == "answer")
        assert (answer["text"], answer["chat"]) == ("Раздаю!", "group")  # the pressed pane
        hand = await page.first(
            lambda e: e.get("chat") == "private" and "Ваши кости" in (e["message"]["text"] or "")
        )
        assert hand["message"]["buttons"]
        table = await page.seen(
            lambda e: e.get("chat") == "group" and e.get("message", {}).get("photo")
        )
        photo = await session.get(f"{running.url}{table['message']['photo']['src']}")
        assert photo.content_type == "image/png"
        assert (await photo.read()).startswith(b"\x89PNG")

        assert (await page.act("/api/send", chat="group", text=""))["ok"] is False
        stale = await page.act(
            "/api/press",
            chat_id=snapshot["private"]["id"],
            message_id=hand["message"]["id"],
            row=0,
            column=0,
            text="an older button",
        )
        assert stale == {"ok": False, "error": "that keyboard has just changed: press again"}
        stranger = await page.act("/api/send", chat="group", text="/help", user="Никто")
        assert stranger["ok"] is False  # nobody opened the page as «Никто»
        plain = await session.post(
            f"{running.url}/api/send", data=json.dumps({"user": "Аня", "text": "/help"})
        )  # not application/json: what another site in the browser could send unasked
        assert (await plain.json())["ok"] is False

        # /start in private: «add to a group» is not simulated, and says so
        assert (await page.act("/api/send", chat="private", text="/start"))["ok"]
        await page.first(with_button("➕ Добавить в группу"))
        add = page.find("private", "➕ Добавить в группу")
        refused = await page.press("private", add, "➕ Добавить в группу")
        assert refused == {"ok": False, "error": "only this one group is simulated here"}

    data = tmp_path / "data"
    assert (data / "playground.sqlite3").exists()
    assert not (data / "kozel.sqlite3").exists()  # the real chats' database is untouched
    log = running.log_text()
    assert "Traceback" not in log, log


async def test_a_rule_the_bot_breaks_is_a_banner_on_the_page() -> None:
    """A request Telegram would refuse (a text over 4096 characters) is answered as
    Telegram would, and every open page is told."""
    fake = FakeTelegram(port=free_port())
    front = Front(fake, "Двор")
    await fake.start(routes=front.add_routes)
    try:
        async with aiohttp.ClientSession() as session:
            page = Page(session, fake.base, "Боря")
            snapshot = await page.first(lambda e: e["type"] == "snapshot")
            url = f"{fake.base}/bot{fake.token}/sendMessage"
            sent = {"chat_id": snapshot["group"]["id"], "text": "x" * 4097}
            async with session.post(url, json=sent) as response:
                assert response.status == 400
            banner = await page.first(lambda e: e["type"] == "violation")
            assert banner["method"] == "sendMessage"
            assert banner["code"] == 400
            assert "too long" in banner["description"]
            users = await (await session.get(f"{fake.base}/api/users")).json()
            assert users == {"users": ["Аня", "Боря"]}
    finally:
        await fake.stop()


async def test_only_the_pages_own_requests_act() -> None:
    """Another site open in the same browser can neither act for anyone nor read the chats
    (403, nothing changes), even through a plain link or image (`Sec-Fetch-Site`); the
    page's own requests and clients without a browser's headers (curl) act, and a link
    from another site still opens the page."""
    fake = FakeTelegram(port=free_port())
    front = Front(fake, "Двор")
    await fake.start(routes=front.add_routes)
    anya = front.people["Аня"]
    link = f"https://t.me/{fake.bot_username}?start=x"
    actions = {
        "/api/send": {"user": "Аня", "chat": "group", "text": "/newgame"},
        "/api/press": {"user": "Аня", "chat_id": front.group.id, "message_id": 1},
        "/api/link": {"user": "Аня", "url": link},
    }
    try:
        async with aiohttp.ClientSession() as session:
            for headers in ({"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"}):
                for path, body in actions.items():
                    async with session.post(fake.base + path, json=body, headers=headers) as r:
                        assert r.status == 403, (path, headers)
                        assert await r.json() == {"ok": False, "error": "cross-site request"}
                for path in ("/events?user=Мэллори", "/api/users", "/photo/1/1"):
                    async with session.get(fake.base + path, headers=headers) as r:
                        assert r.status == 403, (path, headers)
            assert fake.messages(front.group) == [] and fake.messages(anya) == []
            assert list(front.people) == ["Аня"] and fake.pending_updates == []

            own = {"Origin": fake.base, "Sec-Fetch-Site": "same-origin"}
            for headers in (own, {}):
                sent = {**actions["/api/send"], "text": f"/help {len(headers)}"}
                async with session.post(f"{fake.base}/api/send", json=sent, headers=headers) as r:
                    assert (await r.json())["ok"], headers
            async with session.get(fake.base, headers={"Sec-Fetch-Site": "cross-site"}) as r:
                assert r.status == 200
        assert [m.text for m in fake.messages(front.group)] == ["/help 2", "/help 0"]
    finally:
        await fake.stop()


def test_its_options_count_before_and_after_its_name() -> None:
    for argv in (["--port", "9000", "--fast"], ["--port", "9000", "--fast", "playground"]):
        args = arguments(argv)
        assert (args.host, args.port, args.fast) == ("127.0.0.1", 9000, True), argv
    args = arguments(["playground", "--host", "0.0.0.0"])
    assert (args.host, args.port, args.fast) == ("0.0.0.0", 8080, False)


def test_the_readme_names_its_options_and_a_virtual_environment() -> None:
    """The README's playground section names `--host` and `--port`, each a real option;
    its set-up suggests a virtual environment."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Try it without a token", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"`[^`]*?(--[a-z]+)[^`]*`", section))
    assert {"--host", "--port"} <= named, named
    known = arguments(["playground"])
    assert all(hasattr(known, option.removeprefix("--")) for option in named), named
    setup = readme.split("## Set up", 1)[1].split("\n## ", 1)[0]
    assert "python -m venv .venv && . .venv/bin/activate" in setup


def test_a_busy_port_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "bot", "--port", str(port)],
            cwd=tmp_path,
            env=playground_env(tmp_path),
            capture_output=True,
            text=True,
            timeout=stretched(60),
            check=False,
        )
    assert done.returncode == 2
    assert (
        done.stderr.strip()
        == f"cannot listen on 127.0.0.1:{port} (address already in use): try another --port"
    ), done.stderr
