"""How a refused press is answered: a toast that goes by on its own, or an alert the
person has to close. An alert is kept for what a person must read once — who may do
something, what the rules forbid, what to do first; a press that simply did not count (a
double tap, a stale button, not your turn, a round already over) is a toast."""

from __future__ import annotations

from enum import StrEnum

from bot.game.engine import Illegal


class Shown(StrEnum):
    """How a press's answer is shown."""

    TOAST = "toast"  # a short word at the top of the chat that goes by
    ALERT = "alert"  # a window with an OK button: read it once


PASSING_ILLEGAL = (
    Illegal.NOT_YOUR_TURN,
    Illegal.ROUND_OVER,
    Illegal.GAME_OVER,
    Illegal.NOT_ROUND_OVER,
    Illegal.UNKNOWN_MOVE,
    Illegal.NOT_IN_HAND,
    Illegal.DOES_NOT_FIT,
)
"""The engine's refusals of a press that only came too late, too early or from an odd
client: nothing to learn from them."""

TOASTS = frozenset(
    {
        "not-your-turn",
        "stale",
        "no-such-game",
        "game-started",
        "does-not-fit",
        "unknown-button",
        "outdated-button",
        *(f"illegal-{reason}" for reason in PASSING_ILLEGAL),
    }
)
"""The refusals (catalog keys) answered with a toast; every other one is an alert."""


def shown_as(key: str) -> Shown:
    """How the refusal worded by catalog key `key` is shown on a pressed button."""
    return Shown.TOAST if key in TOASTS else Shown.ALERT
