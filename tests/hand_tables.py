"""Two hands at a table where a press asks something: the tests of the hand's questions
(`bot.game.choosing`) and of its buttons share them."""

from __future__ import annotations

from bot.game.moves import Move, PlayDoubles
from bot.game.state import GameState
from bot.game.typed import parse_rules
from tests.helpers import crafted, play_chain

DONKEY = parse_rules("donkey", players=2)
SEA_GOAT = parse_rules("sea_goat", players=2)


def donkey_table() -> GameState:
    """5-5 leads as the spinner; 5-3 west, 5-1 east: the ends are ⬅ 3, ➡ 1, ⬆ 5, ⬇ 5, and
    the second seat holds 3-3 and 1-1 (they go down together) and 5-6 (north or south)."""
    state = crafted(
        DONKEY,
        [["5-5", "5-1", "6-6", "0-1", "2-2", "0-3"], ["5-3", "3-3", "1-1", "5-6", "2-4", "0-0"]],
    )
    state, _ = play_chain(state, [("5-5", 0), ("5-3", 0), ("5-1", 1)])
    assert state.to_move == 1
    return state


def sea_goat_table() -> GameState:
    """2-4 leads, 4-1 goes east: the ends are 2 and 1, and the first seat holds the pair
    2-2 and 1-1, and 1-2 that fits both ends."""
    state = crafted(SEA_GOAT, [["2-4", "2-2", "1-1", "1-2", "0-5"], ["4-1", "0-3", "6-6"]])
    state, _ = play_chain(state, [("2-4", 0), ("4-1", 1)])
    assert state.to_move == 0
    return state


def in_order(move: Move) -> Move:
    """A move of doubles as the engine lists it: by arm (the order they were placed in
    matters only for which one becomes the spinner)."""
    if not isinstance(move, PlayDoubles):
        return move
    closed = move.closed or (False,) * len(move.tiles)
    tiles, ends, faces = zip(
        *sorted(zip(move.tiles, move.ends, closed, strict=True), key=lambda p: p[1]), strict=True
    )
    return PlayDoubles(tiles, ends, faces if any(faces) else ())
