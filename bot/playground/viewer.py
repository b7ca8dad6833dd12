"""The playground's record viewer: a finished game's record (docs/RECORD.md) step by step,
every table picture drawn by the bot's own renderer.

Served beside the page (`run.py` adds the routes; the page's part is `web/static/viewer.js`):

* `GET /viewer/words` the viewer's own words, in the page's language (the bot's catalogs,
  `bot/ui/locales/*/viewer.ftl`);
* `POST /viewer/open` a record (JSON, one game) → its id, kept in memory while the
  playground runs (the last `KEPT`), with each round's steps: after the deal, then after
  each move, in words of the page's language, every seat's hand face up, and the record's
  review marks;
* `GET /viewer/{id}/frame/{round}/{step}.png` the table at that step, as the group saw it
  (`bot.ui.scenes.table_scene` → `render.render_table`).

The page (`bot.playground.web`) knows nothing of the bot; this module is the bot's side.
Like the page's own requests, these refuse (403) a request another site's page makes.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from bot.game import record as records
from bot.game.record import Record
from bot.game.state import GameState, Phase
from bot.game.tiles import tiles_of
from bot.playground.web.front import own
from bot.ui.history import ARROWS
from bot.ui.i18n import Texts, texts_for
from bot.ui.scenes import table_scene
from render import render_table

KEPT = 32
"""Records kept open at once; opening one more forgets the oldest."""
ENDINGS = {
    "out": "round-out",
    "fish": "round-fish",
    "target": "viewer-target",
    "sortir": "round-sortir",
}
"""A round's `result.reason` in words (`seat` is who went out, or the fisherman)."""
DONE = {
    "draw": "viewer-draws",
    "pass": "event-passed",
    "leaves": "viewer-leaves",
    "abandons": "viewer-abandons",
}
"""The moves of one word (docs/RECORD.md), as done by their seat."""
WORDS = (
    *("title", "file", "empty", "several", "round", "open", "table", "no-picture"),
    *("first", "prev", "next", "last", "close"),  # its buttons' titles
)
"""The page's words of the viewer (`viewer-…`); those with `{name}`-like holes follow."""
HOLES = {
    "rounds": ("rounds",),
    "not-json": ("name", "error"),
    "no-game": ("name",),
    "no-answer": ("error",),
}


class RecordError(ValueError):
    """A body that is not a game record this bot can replay (the reason, in words)."""


@dataclass(frozen=True)
class Opened:
    """A record open in the viewer: its seats' names and each round's states, by number
    (after the deal, then after each move)."""

    record: Record
    names: tuple[str, ...]
    states: dict[int, list[GameState]]


def open_record(record: Any) -> Opened:
    """`record` replayed round by round; RecordError if it cannot be."""
    if not isinstance(record, dict) or record.get("record") != records.RECORD:
        raise RecordError(f"not a game record of version {records.RECORD} (docs/RECORD.md)")
    try:
        names = tuple(str(seat["name"]) for seat in record["seats"])
        states = {round_["round"]: states for round_, states in records.every_round(record)}
    except Exception as error:  # any fault of a record is the reader's to see
        raise RecordError(f"the record does not replay: {type(error).__name__} {error}") from None
    if not states:
        raise RecordError("the record has no rounds")
    return Opened(record, names, states)


def words(t: Texts) -> dict[str, str]:
    """The viewer's words for the page, a hole left as `{hole}` for it to fill."""
    shown = {word: t(f"viewer-{word}") for word in WORDS}
    for word, holes in HOLES.items():
        shown[word] = t(f"viewer-{word}", **{hole: f"{{{hole}}}" for hole in holes})
    return shown


def outline(t: Texts, opened: Opened) -> dict[str, Any]:
    """What the page shows of an open record besides its pictures, in `t`'s words."""
    record, names = opened.record, opened.names
    marks = review_marks(t, record, names)
    return {
        "game": record.get("game"),
        "preset": record.get("preset"),
        "ended_at": record.get("ended_at"),
        "seats": list(names),
        "rounds": [
            {
                "round": round_["round"],
                "code": (round_.get("deal") or {}).get("code"),
                "result": ending(t, round_, names),
                "steps": steps(t, round_, opened.states[round_["round"]], names, marks),
            }
            for round_ in record["rounds"]
        ],
    }


def steps(
    t: Texts,
    round_: Record,
    states: Sequence[GameState],
    names: Sequence[str],
    marks: dict[tuple[int, int], list[str]],
) -> list[dict[str, Any]]:
    """A round's steps: the deal, then each move, with the hands after it."""
    shown = []
    moves = len(states) - 1
    for number, state in enumerate(states):
        if number == 0:
            said, review = dealt(t, round_, names), []
            label = t("viewer-step-deal", moves=moves)
        else:
            before = states[number - 1]
            said = move_words(t, round_["moves"][number - 1], names, before.on_table == 0)
            review = marks.get((round_["round"], number - 1), [])
            label = t("viewer-step", move=number, moves=moves)
        shown.append(
            {
                "label": label,
                "words": said,
                "hands": hands(state),
                "to_move": state.to_move if state.phase is Phase.PLAYING else None,
                "review": review,
            }
        )
    return shown


def hands(state: GameState) -> list[list[str]]:
    """Every seat's hand, face up: `"a-b"`, the lower half first."""
    pips = state.rules.tiles.pips
    return [["{}-{}".format(*pips[t]) for t in tiles_of(hand)] for hand in state.hands]


def dealt(t: Texts, round_: Record, names: Sequence[str]) -> str:
    """The deal in words: who leads, with which tile."""
    deal = round_.get("deal") or {}
    leader, lead = _name(names, deal.get("leader")), deal.get("lead")
    return t("viewer-deal-lead", name=leader, tile=lead) if lead else t("viewer-deal", name=leader)


def move_words(t: Texts, move: Record, names: Sequence[str], leads: bool) -> str:
    """A record's move in words: «Аня: 3-5 ➡ · +10» (`leads`: the round's first tile)."""
    who = _name(names, move.get("seat"))
    if "play" in move:
        tile = move["play"]
        placed = _placed(t, tile, move.get("end"), bool(move.get("closed")))
        said = t("viewer-leads", name=who, tile=tile) if leads else f"{who}: {placed}"
    elif "doubles" in move:
        doubles = _doubles(t, move)
        said = t("event-doubles", name=who, count=len(doubles), tiles=", ".join(doubles))
    elif move.get("time_up"):
        said = t("viewer-time-up")
    elif "edition" in move:
        said = t("viewer-edition", edition=str(move["edition"]))
    else:
        done = next((key for word, key in DONE.items() if move.get(word)), None)
        said = t(done, name=who) if done else f"{who}: ?"
    scored = move.get("scored")
    return f"{said} · +{scored}" if scored else said


def _placed(t: Texts, tile: str, end: Any, closed: bool) -> str:
    """A tile with its arm, and its face if closed (Осёл's closed doubles)."""
    arm = _arm(end)
    return t("hand-placed-closed", tile=tile, arm=arm) if closed else f"{tile} {arm}"


def _doubles(t: Texts, move: Record) -> list[str]:
    """Several doubles at once, each with its arm (and face)."""
    ends, closed = move.get("ends") or [], move.get("closed") or []
    return [
        _placed(t, tile, ends[k] if k < len(ends) else None, k < len(closed) and bool(closed[k]))
        for k, tile in enumerate(move["doubles"])
    ]


def _arm(end: Any) -> str:
    return ARROWS[end] if isinstance(end, int) and 0 <= end < len(ARROWS) else "?"


def _name(names: Sequence[str], seat: Any) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"


def ending(t: Texts, round_: Record, names: Sequence[str]) -> str | None:
    """A round's end in words, if it ended (the game may have ended inside it)."""
    result = round_.get("result")
    if not result:
        return None
    name, number = _name(names, result.get("seat")), round_["round"]
    said = t(ENDINGS.get(result.get("reason", ""), "viewer-ended"), round=number, name=name)
    return f"{said} · {t('viewer-eggs')}" if result.get("eggs") else said


def review_marks(
    t: Texts, record: Record, names: Sequence[str]
) -> dict[tuple[int, int], list[str]]:
    """The record's review marks (optional `review`) in words, by round and move (0-based);
    a mark that names no round and move is left out."""
    marks: dict[tuple[int, int], list[str]] = {}
    review = record.get("review")
    for mark in review if isinstance(review, list) else []:
        if not isinstance(mark, dict):
            continue
        round_no, move = mark.get("round"), mark.get("move")
        if not isinstance(round_no, int) or not isinstance(move, int):
            continue
        seat, better, cost = mark.get("seat"), mark.get("better", "?"), mark.get("cost", "?")
        said = t("viewer-review", name=_name(names, seat), better=str(better), cost=str(cost))
        marks.setdefault((round_no, move), []).append(said)
    return marks


def picture(t: Texts, opened: Opened, round_no: int, step: int) -> bytes:
    """The table at `step` of round `round_no`, as the group saw it; LookupError if there
    is no such step."""
    states = opened.states[round_no]
    if not 0 <= step < len(states):
        raise IndexError(step)
    return render_table(table_scene(t, states[step], opened.names))


class RecordViewer:
    """The viewer's routes and the records open in it."""

    def __init__(self, language: str = "ru") -> None:
        self.t = texts_for(language)
        self.opened: OrderedDict[str, Opened] = OrderedDict()

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/viewer/words", own(self._words))
        app.router.add_post("/viewer/open", own(self._open))
        app.router.add_get(r"/viewer/{id}/frame/{round:\d+}/{step:\d+}.png", own(self._frame))

    def keep(self, opened: Opened) -> str:
        """Keep `opened` (the oldest forgotten past `KEPT`); its id."""
        key = secrets.token_hex(6)
        self.opened[key] = opened
        while len(self.opened) > KEPT:
            self.opened.popitem(last=False)
        return key

    async def _open(self, request: web.Request) -> web.Response:
        if request.content_type != "application/json":
            return _refused("send the record as application/json")
        try:
            body = await request.json()
        except (ValueError, UnicodeDecodeError):
            return _refused("not JSON")
        try:
            opened = await asyncio.to_thread(open_record, body)
            shown = await asyncio.to_thread(outline, self.t, opened)
        except RecordError as error:
            return _refused(str(error))
        return web.json_response({"ok": True, "id": self.keep(opened), **shown})

    async def _words(self, request: web.Request) -> web.Response:
        return web.json_response(words(self.t))

    async def _frame(self, request: web.Request) -> web.Response:
        opened = self.opened.get(request.match_info["id"])
        if opened is None:
            raise web.HTTPNotFound(text="no such record open: open it again")
        round_no, step = int(request.match_info["round"]), int(request.match_info["step"])
        try:
            data = await asyncio.to_thread(picture, self.t, opened, round_no, step)
        except LookupError:
            raise web.HTTPNotFound() from None
        headers = {"Cache-Control": "max-age=86400"}  # an id is never reused
        return web.Response(body=data, content_type="image/png", headers=headers)


def _refused(why: str) -> web.Response:
    return web.json_response({"ok": False, "error": why}, status=400)
