"""The playground's record viewer: a finished game's record (docs/RECORD.md) step by step,
every table picture drawn by the bot's own renderer.

Served beside the page (`run.py` adds the routes; the page's part is `web/static/viewer.js`):

* `POST /viewer/open` a record (JSON, one game) → its id, kept in memory while the
  playground runs (the last `KEPT`), with each round's steps: after the deal, then after
  each move, in words, every seat's hand face up, and the record's review marks;
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
"""A move's `end` (docs/RECORD.md): west, east, north, south."""
ENDINGS = {
    "out": "{name} went out",
    "fish": "fish («рыба»), placed by {name}",
    "target": "{name} reached the target",
    "sortir": "sortir: {name}",
}
"""A round's `result.reason` in words (`seat` is who went out, or the fisherman)."""
DONE = {
    "draw": "draws from the bazaar",
    "pass": "passes",
    "leaves": "leaves: a computer plays on",
    "abandons": "leaves: the game ends",
}
"""The moves of one word (docs/RECORD.md), as done by their seat."""


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


def outline(opened: Opened) -> dict[str, Any]:
    """What the page shows of an open record besides its pictures."""
    record, names = opened.record, opened.names
    marks = review_marks(record)
    return {
        "game": record.get("game"),
        "preset": record.get("preset"),
        "ended_at": record.get("ended_at"),
        "seats": list(names),
        "rounds": [
            {
                "round": round_["round"],
                "code": (round_.get("deal") or {}).get("code"),
                "result": ending(round_.get("result"), names),
                "steps": steps(round_, opened.states[round_["round"]], names, marks),
            }
            for round_ in record["rounds"]
        ],
    }


def steps(
    round_: Record,
    states: Sequence[GameState],
    names: Sequence[str],
    marks: dict[tuple[int, int], list[dict[str, Any]]],
) -> list[dict[str, Any]]:
    """A round's steps: the deal, then each move, with the hands after it."""
    shown = []
    for number, state in enumerate(states):
        if number == 0:
            words, review = dealt(round_, names), []
        else:
            before = states[number - 1]
            words = move_words(round_["moves"][number - 1], names, before.on_table == 0)
            review = marks.get((round_["round"], number - 1), [])
        shown.append(
            {
                "words": words,
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


def dealt(round_: Record, names: Sequence[str]) -> str:
    """The deal in words: who leads, with which tile."""
    deal = round_.get("deal") or {}
    leader, lead = deal.get("leader"), deal.get("lead")
    return f"The deal: {_name(names, leader)} leads" + (f" with {lead}" if lead else "")


def move_words(move: Record, names: Sequence[str], leads: bool) -> str:
    """A record's move in words: «Аня: 3-5 ➡ · scored 10» (`leads`: the round's first
    tile)."""
    who = _name(names, move.get("seat"))
    if "play" in move:
        closed = " face down" if move.get("closed") else ""
        tile = move["play"]
        words = f"{who} leads {tile}" if leads else f"{who}: {tile} {_arm(move.get('end'))}"
        words += closed
    elif "doubles" in move:
        words = f"{who}: doubles " + ", ".join(_doubles(move))
    elif move.get("time_up"):
        words = "Time is up"
    elif "edition" in move:
        words = f"From here on: rules edition {move['edition']}"
    else:
        done = next((w for key, w in DONE.items() if move.get(key)), "?")
        words = f"{who} {done}"
    scored = move.get("scored")
    return f"{words} · scored {scored}" if scored else words


def _doubles(move: Record) -> list[str]:
    """Several doubles at once, each with its arm (and face, Осёл's closed ones)."""
    ends, closed = move.get("ends") or [], move.get("closed") or []
    return [
        f"{tile} {_arm(ends[k] if k < len(ends) else None)}"
        + (" face down" if k < len(closed) and closed[k] else "")
        for k, tile in enumerate(move["doubles"])
    ]


def _arm(end: Any) -> str:
    return ARROWS[end] if isinstance(end, int) and 0 <= end < len(ARROWS) else "?"


def _name(names: Sequence[str], seat: Any) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"


def ending(result: Record | None, names: Sequence[str]) -> str | None:
    """A round's end in words, if it ended (the game may have ended inside it)."""
    if not result:
        return None
    name = _name(names, result.get("seat"))
    words = ENDINGS.get(result.get("reason", ""), "{name}").format(name=name)
    return f"Round over: {words}" + (" · eggs («яйца»)" if result.get("eggs") else "")


def review_marks(record: Record) -> dict[tuple[int, int], list[dict[str, Any]]]:
    """The record's review marks (optional `review`) by round and move (0-based); a mark
    that names no round and move is left out."""
    marks: dict[tuple[int, int], list[dict[str, Any]]] = {}
    review = record.get("review")
    for mark in review if isinstance(review, list) else []:
        if not isinstance(mark, dict):
            continue
        round_no, move = mark.get("round"), mark.get("move")
        if not isinstance(round_no, int) or not isinstance(move, int):
            continue
        shown = {key: mark.get(key) for key in ("seat", "better", "cost")}
        marks.setdefault((round_no, move), []).append(shown)
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
            shown = await asyncio.to_thread(outline, opened)
        except RecordError as error:
            return _refused(str(error))
        return web.json_response({"ok": True, "id": self.keep(opened), **shown})

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
