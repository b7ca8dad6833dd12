"""The private hand's words for a move built step by step: the arms by their direction
and open value, and the move as placed so far."""

from __future__ import annotations

from collections.abc import Sequence

from bot.game.rules import Spinner
from bot.game.state import GameState
from bot.game.tiles import Tile
from bot.ui.i18n import Texts

ARROWS = ("⬅", "➡", "⬆", "⬇")
"""Each arm by the direction it starts in (west, east, north, south), as the buttons, the
group's lines and the table picture name it."""
CLOSED_MARK = "✕"


def arm(end: int, value: int) -> str:
    """An arm as its button names it: «⬆ 4», or «⬆ ✕» once a closed double ends it."""
    return f"{ARROWS[end]} {CLOSED_MARK if value < 0 else value}"


def ends_shown(t: Texts, state: GameState) -> str:
    """The open ends in the words of the hand: «5 и 3», or the arms («⬅ 5 · ➡ 3 · ⬆ 6»)."""
    ends = state.ends
    if state.rules.spinner is not Spinner.NONE:
        return " · ".join(arm(end, value) for end, value in enumerate(ends))
    if len(ends) == 2:
        return t("hand-ends", first=ends[0], second=ends[1])
    return ", ".join(map(str, ends))


def building(
    t: Texts, state: GameState, placed: Sequence[tuple[Tile, int, bool]], pending: Tile = -1
) -> str:
    """The move as built so far: each placed double at its arm (closed, or the spinner it
    becomes), then the double still being placed."""
    tiles = state.rules.tiles
    house = state.rules.spinner is not Spinner.NONE and state.spread.spinner is None
    parts = []
    for tile, end, closed in placed:
        key = "hand-placed-closed" if closed else "hand-placed-house" if house else "hand-placed"
        house = house and closed
        parts.append(t(key, tile=tiles.name(tile), arm=ARROWS[end]))
    if pending >= 0:
        parts.append(t("hand-pending", tile=tiles.name(pending)))
    return t("hand-building", move=", ".join(parts))
