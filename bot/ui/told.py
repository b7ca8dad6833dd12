"""What the group reads about a round's moves: a line for each public event (the table
picture's caption and the table app's list of the last moves)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.game.events import (
    DoublesPlayed,
    Event,
    Knocked,
    Passed,
    RoundStarted,
    Scored,
    TilePlayed,
    TilesDrawn,
    WentOut,
)
from bot.game.rules import RuleSet, Spinner
from bot.game.state import GameState
from bot.ui.hand import ARROWS
from bot.ui.i18n import Texts

_PLAYED_AT = {0: "event-played-left", 1: "event-played-right"}
_SPINNER_AT = ("event-played-west", "event-played-east", "event-played-up", "event-played-down")


def _placed(t: Texts, rules: RuleSet, tile: int, closed: bool) -> str:
    name = rules.tiles.name(tile)
    return t("event-closed", tile=name) if closed else name


def describe(
    t: Texts, event: Event, rules: RuleSet, names: Sequence[str], lead: Event | None = None
) -> str | None:
    """One line about a public event for the group, or None for the silent ones; `lead`,
    the round's first tile, lies on no arm."""
    if isinstance(event, TilePlayed):
        at = _SPINNER_AT if rules.spinner is not Spinner.NONE else _PLAYED_AT
        key = at[event.end] if event.end < len(at) and event != lead else "event-played"
        tile = _placed(t, rules, event.tile, event.closed)
        return t(key, name=names[event.seat], tile=tile)
    if isinstance(event, DoublesPlayed):
        closed = event.closed or (False,) * len(event.tiles)
        spinner = rules.spinner is not Spinner.NONE
        tiles = ", ".join(
            f"{_placed(t, rules, tile, face_down)}{f' {ARROWS[end]}' if spinner else ''}"
            for tile, end, face_down in zip(event.tiles, event.ends, closed, strict=True)
        )
        return t("event-doubles", name=names[event.seat], tiles=tiles, count=len(event.tiles))
    if isinstance(event, Scored):
        return t("event-scored", sum=event.ends_sum, points=event.points)
    if isinstance(event, TilesDrawn):
        return t("event-drawn", name=names[event.seat], number=event.number)
    if isinstance(event, Knocked):
        return t("event-knocked", name=names[event.seat])
    if isinstance(event, Passed):
        return t("event-passed", name=names[event.seat])
    if isinstance(event, WentOut):
        return t("event-went-out", name=names[event.seat], last=names[event.last])
    if isinstance(event, RoundStarted) and event.redeals:
        return t("event-redeal", number=len(event.redeals))
    return None


def of_round(events: Sequence[Event], round_no: int) -> list[Event]:
    """The events of round `round_no`: one turn may end a round and deal the next (a
    `RoundStarted` opens it), so the new round's table tells nothing of the last one's
    moves, and the closed round's table nothing of the new deal."""
    starts = [e.round_no for e in events if isinstance(e, RoundStarted)]
    current = starts[0] - 1 if starts else round_no
    kept = []
    for event in events:
        if isinstance(event, RoundStarted):
            current = event.round_no
        if current == round_no:
            kept.append(event)
    return kept


def told(
    t: Texts, events: Sequence[Event], state: GameState, names: Sequence[str], last: int
) -> list[str]:
    """The last `last` lines the group reads about `events` of `state`'s round; what a move
    scored joins the move's line («Маша: 5-5 вверх · концы 20 → +4»). Read from the end, so
    only the events those lines tell are put in words."""
    lead = next((e for e in state.history if isinstance(e, TilePlayed)), None)
    lines: list[str] = []
    scored: list[str] = []  # what the moves after the line being read scored
    for event in reversed(of_round(events, state.round_no)):
        if len(lines) == last:
            return lines
        line = describe(t, event, state.rules, names, lead)
        if line is None:
            continue
        if isinstance(event, Scored):
            scored.insert(0, line)
        else:
            lines.insert(0, " · ".join([line, *scored]))
            scored = []
    if scored and len(lines) < last:  # scores before the round's first move: their own line
        lines.insert(0, " · ".join(scored))
    return lines
