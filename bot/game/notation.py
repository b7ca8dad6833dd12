"""How a game's record (docs/RECORD.md) writes tiles, deals, moves, round results and
places, and how it reads them back for the engine."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.game import serial
from bot.game.deal import Dealt
from bot.game.events import Event, GameEnded, Place, Redeal, RoundEnded, Scored, SeatResult
from bot.game.rules import RuleSet
from bot.game.state import GameState
from bot.game.tiles import Tile, TileSet, tiles_of

Record = dict[str, Any]


def dealt_of(rules: RuleSet, deal: Record) -> Dealt:
    """A record's deal (a round's `deal`) as the engine deals it."""
    tiles = rules.tiles
    return Dealt(
        hands=tuple(tiles.mask(map(tile_of(tiles), hand)) for hand in deal["hands"]),
        bazaar=tuple(map(tile_of(tiles), deal["bazaar"])),
        leader=deal["leader"],
        lead_tile=None if deal["lead"] is None else tile_of(tiles)(deal["lead"]),
        redeals=tuple(map(Redeal, deal["redeals"])),
        resting=tuple(deal["resting"]),
    )


def pips(tiles: TileSet, tile: Tile) -> str:
    """A tile as the record writes it, lower half first: `"3-5"`."""
    a, b = tiles.pips[tile]
    return f"{a}-{b}"


def tile_of(tiles: TileSet) -> Any:
    """The reader of a record's tiles (`"3-5"` or `"5-3"`) for this set."""

    def read(text: str) -> Tile:
        a, _, b = text.partition("-")
        return tiles.by_pips[int(a), int(b)]

    return read


def _hand(tiles: TileSet, hand: int | Sequence[Tile]) -> list[str]:
    held = tiles_of(hand) if isinstance(hand, int) else hand
    return [pips(tiles, t) for t in held]


def round_of(tiles: TileSet, number: int, deal: Dealt, code: str | None) -> Record:
    return {
        "round": number,
        "deal": {
            "code": code,
            "hands": [_hand(tiles, hand) for hand in deal.hands],
            "bazaar": _hand(tiles, deal.bazaar),
            "leader": deal.leader,
            "lead": None if deal.lead_tile is None else pips(tiles, deal.lead_tile),
            "redeals": [r.value for r in deal.redeals],
            "resting": list(deal.resting),
        },
        "moves": [],
        "result": None,
    }


def move_of(
    tiles: TileSet,
    before: GameState,
    entry: serial.JSON,
    events: Sequence[Event],
    at: str | None,
) -> Record:
    """One log entry as the record's move: who, what, when, and what it scored."""
    kind = entry["type"]
    item: Record
    if kind == "Play":
        item = {"seat": before.to_move, "play": pips(tiles, entry["tile"]), "end": entry["end"]}
        if entry.get("closed"):
            item["closed"] = True
    elif kind == "PlayDoubles":
        item = {"seat": before.to_move, "doubles": _hand(tiles, entry["tiles"])}
        item["ends"] = list(entry["ends"])
        if any(entry.get("closed", ())):
            item["closed"] = list(entry["closed"])
    elif kind in ("Draw", "Pass"):
        item = {"seat": before.to_move, kind.lower(): True}
    elif kind in ("Leave", "Abandon"):
        item = {"seat": entry["seat"], {"Leave": "leaves", "Abandon": "abandons"}[kind]: True}
    elif kind == "TimeUp":
        item = {"time_up": True}
    elif kind == "Rules":
        item = {"edition": entry["edition"]}
    else:
        raise ValueError(f"not a log entry: {entry!r}")
    scored = sum(e.points for e in events if isinstance(e, Scored))
    if scored:
        item["scored"] = scored
    if at is not None:
        item["at"] = at
    return item


def entry_of(tiles: TileSet, item: Record) -> serial.JSON:
    """The log entry a record's move stands for."""
    read = tile_of(tiles)
    if "play" in item:
        return {"type": "Play", "tile": read(item["play"]), "end": item["end"],
                "closed": item.get("closed", False)}  # fmt: skip
    if "doubles" in item:
        return {"type": "PlayDoubles", "tiles": [read(t) for t in item["doubles"]],
                "ends": item["ends"], "closed": item.get("closed", [])}  # fmt: skip
    if item.get("draw"):
        return {"type": "Draw"}
    if item.get("pass"):
        return {"type": "Pass"}
    if item.get("leaves"):
        return serial.leave_entry(item["seat"])
    if item.get("abandons"):
        return serial.abandon_entry(item["seat"])
    if item.get("time_up"):
        return serial.TIME_UP
    return {"type": "Rules", "edition": item["edition"]}


def result_of(tiles: TileSet, ended: RoundEnded) -> Record:
    return {
        "reason": ended.reason.value,
        "seat": ended.seat,
        "eggs": ended.eggs,
        "written_off": ended.written_off,
        "carry_before": ended.carry_before,
        "carry_after": ended.carry_after,
        "seats": [_seat_result(tiles, r) for r in ended.results],
        "out": list(ended.out),
        "order": list(ended.order),
        "lots": list(ended.lots),
    }


def _seat_result(tiles: TileSet, result: SeatResult) -> Record:
    line = result._asdict()
    line["hand"] = _hand(tiles, result.hand)
    return line


def end_of(outcome: GameEnded | None) -> Record | None:
    if outcome is None:
        return None
    return {
        "reason": outcome.reason.value,
        "leaver": outcome.leaver,
        "places": [_place(p) for p in outcome.places],
    }


def _place(place: Place) -> Record:
    return dict(place._asdict())
