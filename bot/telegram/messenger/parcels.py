"""A message job's payload as JSON for the `outbox` table, and back: the messenger's news,
game states (in their stored format), events, keyboards and lobby views; lists come back
as tuples. A payload it cannot read (a newer version's) raises `ValueError`."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from aiogram.types import InlineKeyboardMarkup

from bot.game.serial import decode, encode, state_from_json, state_to_json
from bot.game.state import GameState
from bot.telegram.messenger.hand_news import HandNews
from bot.telegram.messenger.lobby import LobbyView
from bot.telegram.messenger.table import TableNews

NEWS: dict[str, type[TableNews | HandNews]] = {"table": TableNews, "hand": HandNews}


def pack(value: Any) -> Any:
    """`value` as JSON values; what is not plain carries its tag under `$`."""
    if isinstance(value, LobbyView):
        return {"$": "view", "v": value.value}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, GameState):
        return {"$": "state", "v": state_to_json(value)}
    if isinstance(value, InlineKeyboardMarkup):
        return {"$": "keyboard", "v": value.model_dump(mode="json", exclude_none=True)}
    if isinstance(value, (TableNews, HandNews)):
        tag = next(tag for tag, news in NEWS.items() if isinstance(value, news))
        return {"$": tag, "v": {f.name: pack(getattr(value, f.name)) for f in fields(value)}}
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return {"$": "event", "v": encode(value)}
    if isinstance(value, (tuple, list)):
        return [pack(item) for item in value]
    if isinstance(value, dict):
        return {"$": "dict", "v": {key: pack(item) for key, item in value.items()}}
    raise TypeError(f"cannot keep {type(value).__name__} in the outbox")


def unpack(data: Any) -> Any:
    """The inverse of `pack`."""
    if isinstance(data, list):
        return tuple(unpack(item) for item in data)
    if not isinstance(data, dict):
        return data
    tag = data.get("$")
    value: Any = data.get("v")
    try:
        if tag == "view":
            return LobbyView(value)
        if tag == "state":
            return state_from_json(value)
        if tag == "keyboard":
            return InlineKeyboardMarkup.model_validate(value)
        if tag in NEWS:
            return NEWS[tag](**{key: unpack(item) for key, item in value.items()})
        if tag == "event":
            return decode(value)
        if tag == "dict":
            return {key: unpack(item) for key, item in value.items()}
    except (KeyError, TypeError) as error:
        raise ValueError(f"unreadable {tag} in the outbox: {error}") from error
    raise ValueError(f"unknown payload tag {tag!r} in the outbox")
