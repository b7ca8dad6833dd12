"""Whose turn: the seats still in play, the next one, and Bykovo's circle after the first
goes out (RULES §4.1)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.game.events import (
    WentOut,
)
from bot.game.state import GameState


def seats_in(state: GameState) -> Sequence[int]:
    """The seats that play this round (all of them, unless the room or Bykovo has put some
    out, or they sit this round out)."""
    if not state.resting and not any(state.tally.out):
        return range(state.rules.players)
    return [s for s in range(state.rules.players) if not state.sits_out(s)]


def next_seat(state: GameState, seat: int) -> int:
    """The next seat clockwise that plays this round."""
    players = state.rules.players
    seat = seat + 1 if seat + 1 < players else 0
    if not state.resting and not any(state.tally.out):  # everyone plays: the hot path
        return seat
    while state.sits_out(seat):
        seat = seat + 1 if seat + 1 < players else 0
    return seat


def gone_out(state: GameState) -> WentOut | None:
    """The first player out this round, whose circle is being finished."""
    return next((e for e in state.history if isinstance(e, WentOut)), None)


def next_in_circle(state: GameState, seat: int) -> int:
    """The next seat that plays this round and still holds tiles."""
    following = next_seat(state, seat)
    while not state.hands[following] and following != seat:
        following = next_seat(state, following)
    return following
