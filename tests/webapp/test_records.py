"""«🎞 Повтор» and «🔍 Разбор» asked in the app (`POST /api/record`) under Telegram's rules:
anyone in the game's chat may ask a finished round's replay, only a seat its review of a
finished game, once at a time; the pass's own game only; what is asked goes to the private
chat (the Telegram side), a refusal sends nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.core.guarded import game_state
from bot.core.rows import GameRow, GameStatus, Player
from bot.game.engine import legal_moves
from tests.webapp.harness import CHAT, AppUnderTest, app_under_test, started


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[AppUnderTest]:
    async for under_test in app_under_test(tmp_path, tmp_path):
        yield under_test


async def finished(app: AppUnderTest) -> GameRow:
    """A game of users 1 and 2 in `CHAT` played to its end (a target of 25: a few rounds)."""
    for user in (1, 2):
        await app.service.storage.people.remember_user(user, f"P{user}", None)
        await app.service.storage.people.set_started(user)
    game, _ = await app.service.new_lobby(CHAT, 0, Player(0, 1, "P1"), "goat target=25")
    await app.service.join(game.id, Player(0, 2, "P2"))
    await app.service.start(game.id, 1)
    game = await app.stored(game)
    while game.status is GameStatus.ACTIVE:
        state = game_state(game)
        mover = game.players[state.to_move].user_id
        await app.service.play(game.id, mover, game.version, legal_moves(state)[0])
        game = await app.stored(game)
    assert game.status is GameStatus.FINISHED
    return game


async def ask(
    app: AppUnderTest, user: int, game: GameRow, **body: object
) -> tuple[int, dict[str, Any]]:
    answer = await app.client.post("/api/record", json=body, headers=await app.bearer(user, game))
    return answer.status, await answer.json()


async def test_a_seat_gets_a_replay_and_its_review_in_private(app: AppUnderTest) -> None:
    game = await finished(app)
    status, body = await ask(app, 2, game, ask="replay", round=1)
    assert status == 200 and body["asked"] == "replay"
    assert "private chat" in body["text"]  # the pass's language: en
    status, body = await ask(app, 2, game, ask="review")
    assert status == 200 and body["asked"] == "review"
    assert app.telegram.sent == [("replay", 2, game.id, 1), ("review", 2, game.id, 1)]


async def test_a_watcher_gets_a_replay_but_no_review(app: AppUnderTest) -> None:
    game = await finished(app)
    app.telegram.members.add(7)
    await app.service.storage.people.remember_user(7, "P7", None)
    await app.service.storage.people.set_started(7)
    status, body = await ask(app, 7, game, ask="review")
    assert status == 409 and body["error"] == "not-yours" and body["text"]
    assert app.telegram.sent == []
    status, _ = await ask(app, 7, game, ask="replay", round=1)
    assert status == 200 and app.telegram.sent == [("replay", 7, game.id, 1)]


async def test_a_round_not_over_or_a_running_game_is_refused(app: AppUnderTest) -> None:
    game = await started(app.service)
    for round_no in (1, 0, 2**31 - 1):
        status, body = await ask(app, 1, game, ask="replay", round=round_no)
        assert status == 409 and body["error"] == "not-over"
    status, body = await ask(app, 1, game, ask="review")
    assert status == 409 and body["error"] == "not-yours"
    assert app.telegram.sent == []


async def test_another_game_s_pass_asks_only_of_its_own_game(app: AppUnderTest) -> None:
    over = await finished(app)
    running = await started(app.service)  # the same two, in another game not over yet
    assert running.id != over.id
    status, body = await ask(app, 1, running, ask="review")
    assert status == 409 and body["error"] == "not-yours"
    status, body = await ask(app, 1, running, ask="replay", round=1)
    assert status == 409 and body["error"] == "not-over"
    assert app.telegram.sent == []


async def test_a_review_asked_twice_is_refused_while_the_first_is_under_way(
    app: AppUnderTest,
) -> None:
    game = await finished(app)
    assert (await ask(app, 1, game, ask="review"))[0] == 200
    status, body = await ask(app, 1, game, ask="review")  # not let go yet: being made
    assert status == 409 and body["error"] == "review-busy" and body["text"]
    assert app.telegram.sent == [("review", 1, game.id, 0)]


async def test_a_person_who_never_opened_the_bot_is_told_to(app: AppUnderTest) -> None:
    game = await finished(app)
    app.telegram.members.add(8)
    status, body = await ask(app, 8, game, ask="replay", round=1)
    assert status == 409 and body["error"] == "not-started"
    assert app.telegram.sent == []


@pytest.mark.parametrize(
    "body", [{"ask": "replay"}, {"ask": "replay", "round": "1"}, {"ask": "replay", "round": True},
             {"ask": "replay", "round": -1}, {"ask": "record"}, {}],
)  # fmt: skip
async def test_a_malformed_ask_is_a_400(app: AppUnderTest, body: dict[str, object]) -> None:
    game = await finished(app)
    status, answer = await ask(app, 1, game, **body)
    assert status == 400 and answer == {"error": "bad-request"} and app.telegram.sent == []
