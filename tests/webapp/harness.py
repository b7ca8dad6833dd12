"""The table app's server on a real `GameService` over a temporary SQLite file, a test
double for the view, the Telegram side and the time: what the HTTP tests share."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from bot.core.rows import GameRow, Player
from bot.core.service import GameService
from bot.core.storage import Storage
from bot.game.record import Record
from bot.ui.i18n import Texts
from bot.webapp.backstage import Backstage, Views
from bot.webapp.init_data import signed
from bot.webapp.server import table_app

TOKEN = "123456:ABC-the-bots-token"
START = 1_800_000_000.0
PLAYGROUND = "http://127.0.0.1:8080"
CHAT = -100


def _shared(t: Texts, game: GameRow, now: float, code: str | None) -> dict[str, Any]:
    return {
        "phase": game.status.value,
        "code": code,
        "players": [p.name for p in game.players],
        "language": t.language,
    }


def _seat(t: Texts, game: GameRow, shared: dict[str, Any], seat: int | None) -> dict[str, Any]:
    return {"seat": seat}


VIEWS = Views(_shared, _seat)
"""A stand-in for `bot.ui.table_app`'s views: whose view it is, of what."""


@dataclass
class Telegram:
    """The Telegram side: who is in the chat, and what the app asked it to show."""

    members: set[int] = field(default_factory=set)
    lobbies: list[int] = field(default_factory=list)
    returned: list[tuple[int, int]] = field(default_factory=list)
    sent: list[tuple[str, int, int, int]] = field(default_factory=list)  # (what, user, game, …)

    async def is_member(self, chat_id: int, user_id: int) -> bool:
        return chat_id == CHAT and user_id in self.members

    def lobby_changed(self, game: GameRow) -> None:
        self.lobbies.append(game.id)

    def back(self, game: GameRow, user_id: int) -> None:
        self.returned.append((game.id, user_id))

    def send_replay(self, user_id: int, record: Record, round_no: int) -> None:
        assert record["rounds"][-1]["round"] == round_no  # nothing of a later round
        self.sent.append(("replay", user_id, record["game"], round_no))

    def send_review(self, user_id: int, record: Record, seat: int) -> None:
        self.sent.append(("review", user_id, record["game"], seat))


@dataclass
class Clock:
    time: float = START

    def __call__(self) -> float:
        return self.time


@dataclass
class AppUnderTest:
    client: TestClient[Any, Any]
    service: GameService
    telegram: Telegram
    clock: Clock
    backstage: Backstage

    def init_data(self, user_id: int, game: GameRow, **changed: str) -> str:
        """`initData` as Telegram signs it for this bot, opened from `game`'s button."""
        fields = {
            "user": json.dumps({"id": user_id, "first_name": f"P{user_id}", "language_code": "en"}),
            "chat_instance": "-555",
            "chat_type": "supergroup",
            "start_param": f"g{game.join_token}",
            "auth_date": str(int(self.clock.time) - 5),
        }
        return signed({**fields, **changed}, TOKEN)

    async def session(self, user_id: int, game: GameRow) -> dict[str, Any]:
        answer = await self.client.post(
            "/api/session", json={"init_data": self.init_data(user_id, game)}
        )
        assert answer.status == 200, await answer.text()
        data: dict[str, Any] = await answer.json()
        return data

    async def bearer(self, user_id: int, game: GameRow) -> dict[str, str]:
        return {"Authorization": f"Bearer {(await self.session(user_id, game))['token']}"}

    async def stored(self, game: GameRow) -> GameRow:
        row = await self.service.game(game.id)
        assert row is not None
        return row


async def app_under_test(tmp_path: Path, static: Path) -> AsyncIterator[AppUnderTest]:
    storage = await Storage.open(tmp_path / "kozel.sqlite3")
    service = GameService(storage)
    telegram, clock = Telegram(), Clock()
    backstage = Backstage(
        service=service, views=VIEWS, shell=telegram, bot_token=TOKEN, clock=clock
    )
    listening = await storage.games.changes.listen(backstage.hub)
    client = TestClient(TestServer(table_app(backstage, static, framer=PLAYGROUND)))
    await client.start_server()
    try:
        yield AppUnderTest(client, service, telegram, clock, backstage)
    finally:
        await client.close()
        await listening.release()
        await storage.close()


async def lobby(service: GameService, *others: int) -> GameRow:
    """A lobby of user 1 in `CHAT`, with `others` seated; everyone has opened the bot."""
    for user in (1, *others):
        await service.storage.people.remember_user(user, f"P{user}", None)
        await service.storage.people.set_started(user)
    game, _ = await service.new_lobby(CHAT, 0, Player(0, 1, "P1"), "goat turn_timeout=0")
    for user in others:
        game = await service.join(game.id, Player(0, user, f"P{user}"))
    return game


async def started(service: GameService) -> GameRow:
    """A two-person game of users 1 and 2, dealt."""
    game = await lobby(service, 2)
    await service.start(game.id, 1)
    row = await service.game(game.id)
    assert row is not None
    return row
