"""A choice at the hand (`Choice`) and the hand's question (`Asking`) as JSON: what the page
sends to the core's one door and what it is asked back — one codec for both ways."""

from __future__ import annotations

from typing import Any

from bot.game.choosing import Asking, Choice, Chose, Placed

MOST_PLACED = 8  # more doubles than any set's arms: a longer list is no choice at the hand
FARTHEST = 10_000  # no tile, arm or end is numbered beyond this


class BadChoiceError(ValueError):
    """JSON that is no `Choice`."""


def _number(value: Any) -> int:
    if type(value) is not int or not -1 <= value <= FARTHEST:
        raise BadChoiceError("not a small number")
    return value


def choice_of(data: Any) -> Choice:
    """The `Choice` the JSON object `data` stands for: `{"chose", "tile", "end", "closed",
    "placed": [[tile, arm, closed], …]}`, all but `chose` optional."""
    if not isinstance(data, dict):
        raise BadChoiceError("not an object")
    try:
        chose = Chose(str(data.get("chose")))
    except ValueError:
        raise BadChoiceError("no such choice") from None
    closed = data.get("closed")
    if closed is not None and type(closed) is not bool:
        raise BadChoiceError("closed: true, false or null")
    placed = data.get("placed", [])
    if not isinstance(placed, list) or len(placed) > MOST_PLACED:
        raise BadChoiceError("placed: a short list")
    return Choice(
        chose,
        _number(data.get("tile", -1)),
        _number(data.get("end", -1)),
        closed,
        tuple(_placed(item) for item in placed),
    )


def _placed(item: Any) -> Placed:
    if not isinstance(item, list) or len(item) != 3 or type(item[2]) is not bool:
        raise BadChoiceError("a placed double: [tile, arm, closed]")
    return Placed(_number(item[0]), _number(item[1]), item[2])


def asking_json(asking: Asking) -> dict[str, Any]:
    """What the hand asks, as JSON: `{"query", "placed": [[tile, arm, closed], …], "tile",
    "arm", "choices"}`."""
    return {
        "query": asking.query.value,
        "placed": [[p.tile, p.arm, p.closed] for p in asking.placed],
        "tile": asking.tile,
        "arm": asking.arm,
        "choices": list(asking.choices),
    }
