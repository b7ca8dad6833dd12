"""Finished games as records (docs/RECORD.md) built by hand for the achievements' tests:
only what a record holds, the fields the judges read filled in as the bot writes them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.core.achievements.facts import Game
from bot.game.rules import PRESETS

Record = dict[str, Any]
HANDS = ("0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "1-2")


def line(seat: int, score: int = 0, *, side: int | None = None, carry: bool = False) -> Record:
    """A seat's line of a round's result; `score` its side's total after the round."""
    return {
        "seat": seat,
        "side": seat if side is None else side,
        "hand": [],
        "hand_value": 0,
        "round_points": 0,
        "remembered_before": 0,
        "remembered_after": 0,
        "score_before": 0,
        "score_after": score,
        "opened": True,
        "took_carry": carry,
        "play_points": 0,
    }


def result(reason: str, seat: int, lines: Sequence[Record]) -> Record:
    return {
        "reason": reason,
        "seat": seat,
        "eggs": False,
        "written_off": False,
        "carry_before": 0,
        "carry_after": 0,
        "seats": list(lines),
        "out": [],
        "order": [],
        "lots": [],
    }


def round_(
    moves: Sequence[Record] = (),
    outcome: Record | None = None,
    *,
    players: int = 2,
    bazaar: Sequence[str] = (),
) -> Record:
    return {
        "round": 1,
        "deal": {
            "code": "K7QF2M",
            "hands": [list(HANDS) for _ in range(players)],
            "bazaar": list(bazaar),
            "leader": 0,
            "lead": None,
            "redeals": [],
            "resting": [],
        },
        "moves": list(moves),
        "result": outcome,
    }


def out_round(seat: int, players: int = 2, scores: Sequence[int] = ()) -> Record:
    """A round `seat` went out in, `scores` the sides' totals after it."""
    lines = [line(s, scores[s] if scores else 0) for s in range(players)]
    return round_([{"seat": seat, "play": "1-1", "end": 0}], result("out", seat, lines))


def game(
    preset: str = "goat",
    *,
    order: Sequence[int] = (0, 1),
    computers: Sequence[str | None] = (),
    rounds: Sequence[Record] = (),
    reason: str = "target",
    scores: Sequence[int] = (),
    teams: bool = False,
    **options: Any,
) -> Game:
    """A finished game of `preset`: `order` are the seats best first (the last the goat,
    partners sitting opposite in 2×2), `scores` each seat's side's final score."""
    players = len(order)
    rules = PRESETS[preset].rules

    def side(seat: int) -> int:
        return seat % 2 if teams else seat

    computer = list(computers) or [None] * players
    place = {s: (1 if teams and side(s) == side(order[0]) else i + 1) for i, s in enumerate(order)}
    last = max(place.values())
    record = {
        "record": 1,
        "game": 1,
        "format": rules.scoring,
        "preset": preset,
        "rules": {**rules.options(), "players": players, "teams": teams, **options},
        "started_at": None,
        "ended_at": None,
        "seats": [
            {"seat": s, "name": f"Игрок {s}", "computer": computer[s], "side": side(s)}
            for s in range(players)
        ],
        "rounds": list(rounds),
        "end": {
            "reason": reason,
            "leaver": None,
            "places": [
                {
                    "seat": s,
                    "side": side(s),
                    "place": place[s],
                    "score": scores[s] if scores else 0,
                    "goat": place[s] == last,
                    "rating_points": 0,
                }
                for s in order
            ],
        },
    }
    return Game(record)
