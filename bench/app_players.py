"""People who play from the table app, for bench/load.py: HTTP clients of the bot's app server.

Each opens the app for their game as Telegram would open it (`POST /api/session` with
`initData` signed for the bot's token), holds the live stream (`GET /api/stream`) for as
long as the game lasts, learns from it that it is their turn (the view's `hand.turn`) and
moves with `POST /api/act`: a random playable tile (a random end when the app asks which),
else a draw, else a pass. Times are the fake Bot API's clock, as the rest of the load's.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp

from bot.game.choosing import Query
from bot.playground import FakeTelegram, Message, User
from tests.e2e.app_client import init_data, table_events

START_PARAM = "startapp"  # the query parameter of the «📱 За стол» link
HEARD = 8  # the newest views a player remembers (version, heard at, their turn)
READ_BUFFER = 1 << 20  # a view is one line of the stream: room for a big one
ARMS = (Query.END.value, Query.ARM.value)  # questions answered with a place (`end`)


def start_param(message: Message) -> str | None:
    """The `startapp` of the message's «📱 За стол» link (`g` and the game's secret token)."""
    for row in message.reply_markup or []:
        for button in row:
            found = parse_qs(urlsplit(str(button.get("url", ""))).query).get(START_PARAM)
            if found:
                return found[0]
    return None


FOR_GOOD = aiohttp.ClientTimeout(total=None, sock_connect=30)
"""A live stream is held as long as the page is open (aiohttp's default ends any request
after 5 minutes: a long set-up's first tables would leave the app before the play)."""


def app_web() -> aiohttp.ClientSession:
    """One HTTP client for all the phones of a run (no limit on open connections)."""
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0), read_bufsize=READ_BUFFER)


@dataclass
class Acted:
    """A move made in the app: the last press's time, how long the app took to answer it
    and whether the game took it (a refused one: `moved` False)."""

    at: float
    answered_s: float
    moved: bool


class AppPlayer:
    """One person in the app: their pass, their stream and the newest views it brought."""

    def __init__(self, fake: FakeTelegram, user: User, base: str, poke: Callable[[], None]) -> None:
        self.fake = fake
        self.user = user
        self.base = base
        """The app server of the worker this phone talks to."""
        self.poke = poke
        """Wakes the table's players: a new view came."""
        self.headers: dict[str, str] = {}
        self.view: dict[str, Any] = {}
        self.version = -1
        self.heard: deque[tuple[int, float, bool]] = deque(maxlen=HEARD)
        """(version, heard at, the view says it is this person's turn) of the newest views."""
        self.reader: asyncio.Task[None] | None = None

    async def open(self, web: aiohttp.ClientSession, game: str) -> None:
        """Sign in for the game `game` (a `startapp`) and follow its stream until the
        first view came."""
        self.close()
        body = {"init_data": init_data(self.fake, self.user, game)}
        async with web.post(f"{self.base}/api/session", json=body) as session:
            if session.status != 200:
                raise RuntimeError(f"{self.user.name}: session {session.status}")
            self.headers = {"Authorization": f"Bearer {(await session.json())['token']}"}
        opened = asyncio.Event()
        self.reader = asyncio.ensure_future(self._follow(web, opened))
        await opened.wait()

    def close(self) -> None:
        """Stop following the stream (the game is over, or the run)."""
        if self.reader is not None:
            self.reader.cancel()
        self.reader, self.view, self.version = None, {}, -1
        self.heard.clear()

    async def _follow(self, web: aiohttp.ClientSession, opened: asyncio.Event) -> None:
        stream_url = f"{self.base}/api/stream"
        async with web.get(stream_url, headers=self.headers, timeout=FOR_GOOD) as stream:
            async for version, raw in table_events(stream):
                at = self.fake.now()
                self.view, self.version = json.loads(raw)["view"], version
                self.heard.append((self.version, at, self.turn(self.version - 1)))
                opened.set()
                self.poke()

    def turn(self, after: int) -> bool:
        """The newest view says it is this person's turn, at a version past `after`."""
        hand = self.view.get("hand") or {}
        return (
            self.view.get("phase") == "playing"
            and bool(hand.get("turn"))
            and (self.version > after)
        )

    def told_at(self, after: int) -> float:
        """When the stream first said it is this person's turn past version `after`."""
        return next(
            (at for version, at, turn in self.heard if turn and version > after),
            self.fake.now(),
        )

    def over(self) -> bool:
        return self.view.get("phase") == "over"

    async def act(self, web: aiohttp.ClientSession, rng: random.Random) -> Acted:
        """A random legal move at the newest view; the app's questions of where it goes
        answered at random (any other question, which these moves do not raise, drops it)."""
        hand = self.view["hand"]
        playable = [t["tile"] for t in hand["tiles"] if t.get("playable")]
        chosen: dict[str, Any]
        if playable:
            chosen = {"chose": "tile", "tile": rng.choice(playable)}
        else:
            chosen = {"chose": "draw" if hand.get("draw") else "pass"}
        press = {"version": self.version, "choice": chosen}
        while True:
            at = self.fake.now()
            async with web.post(f"{self.base}/api/act", json=press, headers=self.headers) as got:
                answer = await got.json() if got.status in (200, 409) else {}
                answered = self.fake.now() - at
                if got.status != 200:
                    return Acted(at, answered, moved=False)
            asking = answer.get("asking")
            if asking is None:
                return Acted(at, answered, moved=answer.get("result") == "moved")
            if asking["query"] not in ARMS:
                press["choice"] = {"chose": "back"}
                with contextlib.suppress(aiohttp.ClientError):
                    async with web.post(f"{self.base}/api/act", json=press, headers=self.headers):
                        pass
                return Acted(at, answered, moved=False)
            press["choice"] = chosen | {"end": rng.choice(asking["choices"])}
