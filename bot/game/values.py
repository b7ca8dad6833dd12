"""An option's value: read from what a user typed or JSON held, checked against the
option's type, and shown as a user types it."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from bot.game.kinds import RuleError


def show_value(value: object) -> str:
    """`yes`/`no` for a flag, else the value as text."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def check_type(name: str, value: object, default: object) -> None:
    """`RuleError` unless `value` has the type of the option's `default`."""
    expected: tuple[type, ...]
    if isinstance(default, StrEnum):
        expected = (type(default),)
    elif default is None:
        expected = (int, type(None))
    else:
        expected = (type(default),)
    if not isinstance(value, expected) or (isinstance(value, bool) and bool not in expected):
        raise RuleError(f"{name}={value!r} has the wrong type", name, repr(value))


TRUE = {"yes", "y", "true", "on", "1", "да"}
FALSE = {"no", "n", "false", "off", "0", "нет"}


def coerce(name: str, raw: object, default: object) -> Any:
    """A JSON or typed value as the option's type; `RuleError` naming the valid values."""
    text = str(raw).strip().lower() if not isinstance(raw, bool) else ("yes" if raw else "no")
    if isinstance(default, StrEnum):
        enum = type(default)
        try:
            return enum(text)
        except ValueError:
            valid = ", ".join(e.value for e in enum)
            raise RuleError(f"{name}={raw}: choose one of {valid}", name, str(raw), valid) from None
    if isinstance(default, bool):
        if text in TRUE:
            return True
        if text in FALSE:
            return False
        raise RuleError(f"{name}={raw}: say yes or no", name, str(raw), "yes, no")
    if isinstance(default, str):
        return text
    if default is None and text in {"auto", "none", ""}:
        return None
    try:
        return int(text)
    except ValueError:
        raise RuleError(
            f"{name}={raw}: expected a whole number", name, str(raw), number=True
        ) from None
