"""The table app over HTTP against a real `GameService` on SQLite: the page and who may
frame it, a session for a seat or a watcher and every way in refused, the table, a press
through the core's one door, the lobby, the limit of presses."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.guarded import game_state
from bot.core.rows import Player
from bot.game.engine import legal_moves
from bot.game.moves import Play
from bot.game.state import Phase
from bot.webapp.init_data import signed
from tests.webapp.harness import (
    CHAT,
    PLAYGROUND,
    TOKEN,
    AppUnderTest,
    app_under_test,
    lobby,
    started,
)

DAY = 86400


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[AppUnderTest]:
    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>стол</title>", encoding="utf-8")
    (static / "table.js").write_text("export {};\n", encoding="utf-8")
    (tmp_path / "secret.txt").write_text("not for the page", encoding="utf-8")
    async for under_test in app_under_test(tmp_path, static):
        yield under_test


async def test_the_page_is_framed_only_by_telegram_web_and_the_playground(
    app: AppUnderTest,
) -> None:
    for path in ("/app/", "/app/static/table.js", "/api/table"):
        answer = await app.client.get(path)
        csp = answer.headers["Content-Security-Policy"]
        assert csp == f"frame-ancestors https://web.telegram.org {PLAYGROUND}", path
        assert "Set-Cookie" not in answer.headers, path  # no cookies, ever
    index = await app.client.get("/app/")
    assert index.status == 200 and "стол" in await index.text()
    for path in ("/app/static/..%2Fsecret.txt", "/app/static/.hidden", "/app/static/none.js"):
        assert (await app.client.get(path)).status == 404, path


async def test_a_seat_and_a_member_get_a_pass_and_a_stranger_does_not(app: AppUnderTest) -> None:
    game = await started(app.service)
    seat = await app.session(2, game)
    assert seat["seat"] == 1 and seat["user_id"] == 2 and seat["language"] == "en"
    assert seat["expires"] == int(app.clock.time) + 3600

    app.telegram.members.add(7)
    watcher = await app.session(7, game)
    assert watcher["seat"] is None
    table = await app.client.get(
        "/api/table", headers={"Authorization": f"Bearer {watcher['token']}"}
    )
    data = await table.json()
    assert data["version"] == game.version and data["view"]["seat"] is None

    stranger = await app.client.post("/api/session", json={"init_data": app.init_data(8, game)})
    assert stranger.status == 403 and await stranger.json() == {"error": "not-in-chat"}
    unknown = app.init_data(2, game, start_param="gNoSuchGameToken1")
    nowhere = await app.client.post("/api/session", json={"init_data": unknown})
    assert nowhere.status == 404 and await nowhere.json() == {"error": "no-such-game"}


async def test_forged_another_bots_old_userless_or_missing_init_data_gets_401_and_nothing_is_kept(
    app: AppUnderTest, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "bot.webapp")
    game = await started(app.service)
    app.telegram.members.add(9)
    good = app.init_data(9, game)
    fields = {"chat_type": "supergroup", "start_param": f"g{game.join_token}"}
    old = str(int(app.clock.time) - DAY - 1)
    user = '{"id": 9, "first_name": "Z"}'
    refused = {
        "wrong hash": good.replace("supergroup", "group"),
        "another bot": signed({**fields, "user": user, "auth_date": old[:-1] + "9"}, "1:other"),
        "too old": signed({**fields, "user": user, "auth_date": old}, TOKEN),
        "missing user": signed({**fields, "auth_date": str(int(app.clock.time))}, TOKEN),
        "missing": "",
    }
    for why, init_data in refused.items():
        answer = await app.client.post("/api/session", json={"init_data": init_data})
        assert answer.status == 401, why
        assert await answer.json() == {"error": "unauthorized"}, why
    missing = await app.client.post("/api/session", json={})
    assert missing.status == 401
    assert await app.service.storage.rows("SELECT id FROM users WHERE id = 9") == []
    assert await app.stored(game) == game
    refusals = [r.getMessage() for r in caplog.records if "initData refused" in r.getMessage()]
    assert refusals == [  # one short line each, with the reason and nothing of the data
        f"table app: initData refused ({why})"
        for why in ("forged", "forged", "too-old", "no-user", "missing", "missing")
    ]
    assert good not in caplog.text and "hash=" not in caplog.text


async def test_a_bad_expired_or_absent_pass_is_refused(app: AppUnderTest) -> None:
    game = await started(app.service)
    headers = await app.bearer(1, game)
    assert (await app.client.get("/api/table", headers=headers)).status == 200
    for wrong in ({}, {"Authorization": "Bearer junk"}, {"Authorization": "Basic x"}):
        answer = await app.client.get("/api/table", headers=wrong)
        assert answer.status == 401 and await answer.json() == {"error": "unauthorized"}
    app.clock.time += 3600
    assert (await app.client.get("/api/table", headers=headers)).status == 401
    app.clock.time -= 3600
    version = game.version
    act = {"version": version, "choice": {"chose": "draw"}}
    expired_act = await app.client.post("/api/act", json=act, headers={"Authorization": "Bearer"})
    assert expired_act.status == 401 and (await app.stored(game)).version == version


async def test_a_pass_for_one_game_reaches_only_that_game(app: AppUnderTest) -> None:
    first = await started(app.service)
    await app.service.storage.people.remember_user(3, "P3", None)
    other, _ = await app.service.new_lobby(CHAT, 5, Player(0, 3, "P3"), "goat")
    headers = await app.bearer(1, first)
    sat = await app.client.post("/api/lobby", json={"action": "sit"}, headers=headers)
    assert sat.status == 409  # it is game one's pass: its game has started, game two is left
    stored = await app.service.game(other.id)
    assert stored is not None and [p.user_id for p in stored.players] == [3]


def lobby_creator(user_id: int):
    from bot.core.rows import Player

    return Player(0, user_id, f"P{user_id}")


async def test_a_press_goes_through_the_core_and_only_for_its_own_seat(
    app: AppUnderTest,
) -> None:
    game = await started(app.service)
    state = game_state(game)
    mover = game.players[state.to_move].user_id
    other = game.players[1 - state.to_move].user_id
    app.telegram.members.add(7)
    move = next(m for m in legal_moves(state) if isinstance(m, Play))
    choice = {"chose": "tile", "tile": move.tile, "end": move.end}

    watcher = await app.client.post(
        "/api/act",
        json={"version": game.version, "choice": choice},
        headers=await app.bearer(7, game),
    )
    assert watcher.status == 403 and await watcher.json() == {"error": "watcher"}
    for_another = await app.client.post(
        "/api/act",
        json={"version": game.version, "choice": choice},
        headers=await app.bearer(other, game),
    )
    refusal = await for_another.json()
    assert for_another.status == 409 and refusal["error"] == "not-your-turn" and refusal["text"]
    bad = await app.client.post(
        "/api/act",
        json={"version": game.version, "choice": {"chose": "steal"}},
        headers=await app.bearer(mover, game),
    )
    assert bad.status == 400
    assert await app.stored(game) == game

    headers = await app.bearer(mover, game)
    back = await app.client.post(
        "/api/act", json={"version": game.version, "choice": {"chose": "back"}}, headers=headers
    )
    assert await back.json() == {
        "result": "pending",
        "asking": {"query": "tiles", "placed": [], "tile": -1, "arm": -1, "choices": []},
    }
    moved = await app.client.post(
        "/api/act", json={"version": game.version, "choice": choice}, headers=headers
    )
    assert await moved.json() == {"result": "moved", "asking": None}
    assert (await app.stored(game)).version == game.version + 1
    stale = await app.client.post(
        "/api/act", json={"version": game.version, "choice": choice}, headers=headers
    )
    assert stale.status == 409 and (await stale.json())["error"] in {"stale", "not-your-turn"}


async def test_more_than_five_presses_a_second_are_refused_and_change_nothing(
    app: AppUnderTest,
) -> None:
    game = await started(app.service)
    mover = game.players[game_state(game).to_move].user_id
    headers = await app.bearer(mover, game)
    press = {"version": game.version, "choice": {"chose": "back"}}
    answers = [
        (await app.client.post("/api/act", json=press, headers=headers)).status for _ in range(6)
    ]
    assert answers == [200] * 5 + [429]
    state = game_state(game)
    move = next(m for m in legal_moves(state) if isinstance(m, Play))
    play = {
        "version": game.version,
        "choice": {"chose": "tile", "tile": move.tile, "end": move.end},
    }
    assert (await app.client.post("/api/act", json=play, headers=headers)).status == 429
    assert await app.stored(game) == game
    app.clock.time += 1  # a second later: five more
    assert (await app.client.post("/api/act", json=play, headers=headers)).status == 200


async def test_the_lobby_in_the_app_seats_adds_computers_and_starts(app: AppUnderTest) -> None:
    game = await lobby(app.service)
    app.telegram.members.update({2, 3})
    sit = await app.client.post(
        "/api/lobby", json={"action": "sit"}, headers=await app.bearer(2, game)
    )
    assert sit.status == 200 and await sit.json() == {}
    not_creator = await app.client.post(
        "/api/lobby",
        json={"action": "computer", "level": "easy"},
        headers=await app.bearer(3, game),
    )
    assert not_creator.status == 409 and (await not_creator.json())["error"] == "not-creator"
    creator = await app.bearer(1, game)
    bad_level = await app.client.post(
        "/api/lobby", json={"action": "computer", "level": "god"}, headers=creator
    )
    assert bad_level.status == 400
    computer = await app.client.post(
        "/api/lobby", json={"action": "computer", "level": "easy"}, headers=creator
    )
    assert computer.status == 200
    seated = await app.stored(game)
    assert [p.user_id for p in seated.players][:2] == [1, 2]
    assert seated.players[2].computer == "easy"
    assert app.telegram.lobbies == [game.id, game.id]
    start = await app.client.post("/api/lobby", json={"action": "start"}, headers=creator)
    refusal = await start.json()  # as in Telegram: whoever sits must have opened the bot
    assert start.status == 409 and refusal["error"] == "waiting-for" and "P2" in refusal["text"]
    await app.service.storage.people.set_started(2)
    start = await app.client.post("/api/lobby", json={"action": "start"}, headers=creator)
    assert start.status == 200 and await start.json() == {}
    assert (await app.stored(game)).state is not None


async def test_the_creator_chooses_the_rules_the_lobby_offers_and_nobody_else_does(
    app: AppUnderTest,
) -> None:
    """As the lobby's ⚙ buttons: a length, then a preset; a value the lobby does not offer,
    a key that is not an option and another person's choice change nothing."""
    game = await lobby(app.service, 2)
    creator = await app.bearer(1, game)

    async def choose(body: dict[str, object], headers: dict[str, str] = creator) -> int:
        app.clock.time += 1  # not pressed too fast
        answer = await app.client.post(
            "/api/lobby", json={"action": "option", **body}, headers=headers
        )
        return answer.status

    assert await choose({"key": "target", "value": "51"}) == 200
    assert (await app.stored(game)).rules.goal == 51
    assert await choose({"key": "preset", "value": "telephone"}) == 200
    chosen = await app.stored(game)
    assert chosen.rules.preset == "telephone"
    assert app.telegram.lobbies == [game.id, game.id]  # the group's lobby message follows
    for bad in (
        {"key": "target", "value": "52"},  # not one the lobby offers
        {"key": "target", "value": "51 players=9"},
        {"key": "seed", "value": "1"},
        {"key": "preset", "value": "chess"},
        {"key": ["target"], "value": "51"},
        {"key": "target"},
    ):
        assert await choose(bad) == 400, bad
    assert await choose({"key": "target", "value": "51"}, await app.bearer(2, game)) == 409
    assert await app.stored(game) == chosen
    assert app.telegram.lobbies == [game.id, game.id]


async def test_a_seat_picks_its_team_in_the_app(app: AppUnderTest) -> None:
    """As the lobby's 👥 buttons: a seat picks a team and, picking it again, lets it go; a
    watcher, a team the table has not, or no number change nothing."""
    game = await lobby(app.service, 2)
    await app.service.set_option(game.id, 1, "preset", "goat_teams")
    app.telegram.members.add(3)

    async def pick(body: dict[str, object], user: int = 2) -> int:
        app.clock.time += 1  # not pressed too fast
        answer = await app.client.post(
            "/api/lobby", json={"action": "team", **body}, headers=await app.bearer(user, game)
        )
        return answer.status

    assert await pick({"team": 1}) == 200
    assert [p.team for p in (await app.stored(game)).players] == [None, 1]
    picked = await app.stored(game)
    for bad, status in (({"team": 1}, 409), ({"team": 5}, 409), ({"team": "1"}, 400), ({}, 400)):
        assert await pick(bad, 3 if bad == {"team": 1} else 2) == status, bad
    assert await app.stored(game) == picked
    assert await pick({"team": 1}) == 200
    assert [p.team for p in (await app.stored(game)).players] == [None, None]


async def test_a_finished_game_s_view_is_given_its_last_round_s_deal_code(
    app: AppUnderTest,
) -> None:
    game = await started(app.service)
    while game.state is not None and game.state.phase is Phase.PLAYING:
        state = game_state(game)
        mover = game.players[state.to_move].user_id
        await app.service.play(game.id, mover, game.version, legal_moves(state)[0])
        game = await app.stored(game)
    assert game.state is not None and game.state.last_round is not None
    code = await app.service.storage.archive.code(game.id, game.state.last_round.round_no)
    table = await app.client.get("/api/table", headers=await app.bearer(2, game))
    assert code and (await table.json())["view"]["code"] == code
