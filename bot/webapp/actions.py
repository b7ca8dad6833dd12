"""`POST /api/act`, `POST /api/lobby` and `POST /api/record`: a press in the app, through the
same core calls as a press in Telegram — the hand's one door (`GameService.act`), the
lobby's seats and ▶, «🎞 Повтор» and «🔍 Разбор» (`History.ask_replay`, `ask_review`) —
each person at most `limits.PRESSES_PER_SECOND` a second."""

from __future__ import annotations

import logging
from functools import partial

from aiohttp import web

from bot.ai import Level
from bot.core.errors import GameError, NotOfferedError
from bot.core.history import Asked, History
from bot.core.rows import GameRow, Player
from bot.core.tables import Moved, Pending, Returned
from bot.ui import texts
from bot.ui.i18n import texts_for
from bot.ui.table_app import lobby_choices
from bot.webapp.backstage import BACKSTAGE, Backstage, body_of, refused
from bot.webapp.codec import BadChoiceError, asking_json, choice_of
from bot.webapp.passes import Grant

log = logging.getLogger(__name__)
ROUNDS = 2**31  # past any round number
ASKED = {
    Asked.REPLAY: (200, "app-replay-sent"),
    Asked.REVIEW: (200, "app-review-sent"),
    Asked.REVIEW_AGAIN: (200, "app-review-again"),
    Asked.NOT_OVER: (409, "replay-not-over"),
    Asked.NOT_STARTED: (409, "replay-open-private"),
    Asked.REVIEW_BUSY: (409, "app-review-busy"),
    Asked.NOT_YOURS: (409, "review-not-yours"),
}
"""An ask's answer in the app: its status and words."""


async def _pressing(request: web.Request) -> tuple[Backstage, Grant, dict[str, object]]:
    """The request's pass and body, if the person may press now (else 401, 429 or 400)."""
    backstage = request.app[BACKSTAGE]
    grant = backstage.admitted(request)
    if not backstage.presses.allow(grant.user_id):
        raise web.HTTPTooManyRequests(text='{"error": "too-fast"}', content_type="application/json")
    return backstage, grant, await body_of(request)


def _refusal(grant: Grant, error: GameError) -> web.Response:
    return refused(409, error.key, texts.refusal(texts_for(grant.language), error))


async def act(request: web.Request) -> web.Response:
    """A choice at the hand: `{"version", "choice"}` → `{"result", "asking"}`."""
    backstage, grant, body = await _pressing(request)
    version = body.get("version")
    try:
        choice = choice_of(body.get("choice"))
    except BadChoiceError:
        return refused(400, "bad-request")
    if type(version) is not int:
        return refused(400, "bad-request")
    service = backstage.service
    try:  # the game is read once, by the core: a press is the busiest path
        acted = await service.act(grant.game_id, grant.user_id, version, choice)
    except GameError as error:
        game = await service.game(grant.game_id)
        if game is None:
            return refused(404, "no-such-game")
        if game.seat_of(grant.user_id) is None:
            return refused(403, "watcher")
        return _refusal(grant, error)
    if isinstance(acted, Returned):
        backstage.shell.back(acted.game, grant.user_id)
        return web.json_response({"result": "returned", "asking": None})
    if isinstance(acted, Moved):
        return web.json_response({"result": "moved", "asking": None})
    assert isinstance(acted, Pending)
    return web.json_response({"result": "pending", "asking": asking_json(acted.asking)})


async def lobby(request: web.Request) -> web.Response:
    """`{"action": "sit"}`; the creator's `{"action": "computer", "level"}`,
    `{"action": "option", "key", "value"}` (one the lobby offers) and `{"action": "start"}`;
    in a team game, a seat's `{"action": "team", "team"}` (0-based) → `{}`."""
    backstage, grant, body = await _pressing(request)
    action, level = body.get("action"), body.get("level")
    if action == "computer" and level not in set(Level):
        return refused(400, "bad-request")
    try:
        if action == "sit":
            changed = await backstage.service.join(
                grant.game_id, Player(0, grant.user_id, grant.name)
            )
        elif action == "computer":
            changed = await _computer(backstage, grant, Level(str(level)))
        elif action == "option":
            key, value = body.get("key"), body.get("value")
            if not isinstance(key, str) or not isinstance(value, str):
                return refused(400, "bad-request")
            changed = await backstage.service.set_option(
                grant.game_id, grant.user_id, key, value, lobby_choices
            )
        elif action == "team":
            team = body.get("team")
            if type(team) is not int:  # one its table has not: the core refuses it
                return refused(400, "bad-request")
            changed = await backstage.service.pick_team(grant.game_id, grant.user_id, team)
        elif action == "start":
            await backstage.service.start(grant.game_id, grant.user_id)
            return web.json_response({})
        else:
            return refused(400, "bad-request")
    except NotOfferedError:
        return refused(400, "bad-request")
    except GameError as error:
        return _refusal(grant, error)
    backstage.shell.lobby_changed(changed)
    return web.json_response({})


async def record(request: web.Request) -> web.Response:
    """`{"ask": "replay", "round"}` (anyone) or `{"ask": "review"}` (a seat) of the pass's
    game → `{"asked", "text"}`, sent to the person's private chat as Telegram sends it; a
    refusal is 409 `{"error", "text"}`."""
    backstage, grant, body = await _pressing(request)
    ask, round_no = body.get("ask"), body.get("round")
    history = History(backstage.service.storage)
    if ask == "replay" and type(round_no) is int and 0 <= round_no < ROUNDS:
        asked = await history.ask_replay(grant.game_id, round_no, grant.user_id)
        if asked.record is not None:
            backstage.shell.send_replay(grant.user_id, asked.record, round_no)
    elif ask == "review":
        asked = await history.ask_review(grant.game_id, grant.user_id)
        if asked.record is not None:
            backstage.shell.send_review(grant.user_id, asked.record, asked.seat)
    else:
        return refused(400, "bad-request")
    status, key = ASKED[asked.asked]
    text = texts_for(grant.language)(key, round=str(round_no))
    if asked.record is None:
        return refused(status, asked.asked.value, text)
    log.info("table app: user %s asks %s of game %s", grant.user_id, asked.asked, grant.game_id)
    return web.json_response({"asked": asked.asked.value, "text": text}, status=status)


async def _computer(backstage: Backstage, grant: Grant, chosen: Level) -> GameRow:
    """A computer seated by the creator, named in the chat's language (as its lobby is)."""
    service = backstage.service
    game = await service.lobby_of(grant.game_id, grant.user_id)
    t = texts_for((await service.storage.people.chat_settings(game.chat_id)).language)
    naming = partial(texts.computer_name, t, chosen)
    return await service.add_computer(game.id, grant.user_id, chosen, naming)
