"""What a person chose at the hand (`Choice`), and the move it means — or what the hand must
ask first (`Asking`): which end, which arm, open or closed, which doubles to put down.

Any shell alike: the Telegram buttons carry a choice whole (nothing is kept between two
presses), and whatever else shows a hand would send the same. A choice that cannot be
made in the state is refused (`IllegalMoveError`); nothing is played before the move."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from bot.game.engine import DRAW, PASS, legal_moves
from bot.game.illegal import Illegal, IllegalMoveError
from bot.game.moves import Move, Play, PlayDoubles
from bot.game.rules import Spinner
from bot.game.state import GameState
from bot.game.tiles import Tile, tiles_of


class Placed(NamedTuple):
    """A double placed in a move being built: on `arm`, face down if `closed`."""

    tile: Tile
    arm: int
    closed: bool = False


class Chose(StrEnum):
    """What the person pressed."""

    TILE = "tile"  # a tile of the hand, at `end` (-1: ask which end when it matters)
    DRAW = "draw"
    PASS = "pass"
    PAIR = "pair"  # an older version's button for Sea Goat's two doubles at once
    BACK = "back"  # from a question back to the tiles: a half-built move is dropped
    PLACE = "place"  # a step of a built move: the doubles `placed`, then `tile` (-1: which?)
    DONE = "done"  # «готово»: the doubles `placed` go down


@dataclass(frozen=True, slots=True)
class Choice:
    """A person's choice at the hand. For `PLACE`, `tile` goes on arm `end` (-1: still to
    ask), face down if `closed` (None: still to ask), after the doubles `placed`."""

    chose: Chose
    tile: Tile = -1
    end: int = -1
    closed: bool | None = None
    placed: tuple[Placed, ...] = ()


class Query(StrEnum):
    """What the hand asks."""

    TILES = "tiles"  # back to the hand's tiles
    END = "end"  # which end for `tile` (not a double being placed): `choices` are arms
    DOUBLE = "double"  # which double joins the move: `choices` are tiles
    ARM = "arm"  # which arm for the double `tile`: `choices` are arms
    FACE = "face"  # the double `tile` on `arm`: open or closed
    READY = "ready"  # the move as placed: done, cancel, or another of the doubles `choices`


@dataclass(frozen=True, slots=True)
class Asking:
    """What the hand asks before a choice makes a move, with the move as built so far."""

    query: Query
    placed: tuple[Placed, ...] = ()
    tile: Tile = -1
    arm: int = -1
    choices: tuple[int, ...] = ()


def meaning(state: GameState, choice: Choice) -> Move | Asking:
    """The move a choice means for the person to move, or what the hand must ask first: the
    end of a tile that fits several differently; the arm and face of a double, or the rest
    of a move of several doubles, when those are possible. A built move is played once
    «done», or once a lone double has nothing left to ask and nothing could join it."""
    chose = choice.chose
    if chose is Chose.BACK:
        return Asking(Query.TILES)
    if chose is Chose.DRAW:
        return DRAW
    if chose is Chose.PASS:
        return PASS
    if chose is Chose.TILE:
        return _tile(state, choice.tile, choice.end)
    if chose is Chose.PAIR:
        pairs = (m for m in legal_moves(state) if isinstance(m, PlayDoubles))
        return next(pairs, PlayDoubles((), ()))
    placed = _checked(state, choice.placed)
    if chose is Chose.DONE:
        return _move_of(placed)
    if choice.tile < 0:
        return Asking(Query.DOUBLE, placed, choices=_joining(state, placed))
    return _place(state, placed, choice.tile, choice.end, choice.closed)


def _tile(state: GameState, tile: Tile, end: int) -> Move | Asking:
    if end >= 0:
        return Play(tile, end)
    legal = legal_moves(state)
    plays = [m for m in legal if isinstance(m, Play) and m.tile == tile]
    if not plays:
        raise _unfit()
    if _builds(state, tile, legal):
        return _place(state, (), tile, -1, None)
    arms = tuple(dict.fromkeys(m.end for m in plays))
    if len(arms) > 1 and (state.rules.spinner is not Spinner.NONE or len(set(state.ends)) > 1):
        return Asking(Query.END, tile=tile, choices=arms)
    return plays[0]


def _unfit() -> IllegalMoveError:
    return IllegalMoveError(Illegal.DOES_NOT_FIT, "the choice does not fit the hand")


def _builds(state: GameState, tile: Tile, legal: Sequence[Move]) -> bool:
    """Whether a pressed tile starts a built move: a double, after the lead, that may lie
    closed (Осёл) or go down with other doubles."""
    rules = state.rules
    if not (state.ends and rules.tiles.is_double(tile)):
        return False
    return rules.closed_doubles or any(
        isinstance(m, PlayDoubles) and tile in m.tiles for m in legal
    )


def _free_arms(state: GameState, placed: Sequence[Placed], tile: Tile) -> tuple[int, ...]:
    """The open arms that the double `tile` matches and no placed double took."""
    value, taken = state.rules.tiles.pips[tile][0], {p.arm for p in placed}
    return tuple(arm for arm, end in enumerate(state.ends) if end == value and arm not in taken)


def _joining(state: GameState, placed: Sequence[Placed]) -> tuple[Tile, ...]:
    """The doubles of the hand that may still join the move (one per open end, at most
    `most_doubles`)."""
    rules = state.rules
    if len(placed) >= rules.most_doubles:
        return ()
    doubles = state.hands[state.to_move] & rules.tiles.doubles_mask
    taken = {p.tile for p in placed}
    return tuple(
        tile for tile in tiles_of(doubles) if tile not in taken and _free_arms(state, placed, tile)
    )


def _checked(state: GameState, placed: tuple[Placed, ...]) -> tuple[Placed, ...]:
    """The placed doubles of a choice, each one still possible after those before it."""
    for i, p in enumerate(placed):
        before = placed[:i]
        if (
            p.tile not in _joining(state, before)
            or p.arm not in _free_arms(state, before, p.tile)
            or (p.closed and not state.rules.closed_doubles)
        ):
            raise _unfit()
    return placed


def _place(
    state: GameState, placed: tuple[Placed, ...], tile: Tile, arm: int, closed: bool | None
) -> Move | Asking:
    """Place `tile`, asking its arm and face when they are open; then the move, if nothing
    else could join a lone double, or the move as placed."""
    if tile not in _joining(state, placed):  # a tile of the hand: only then read its pips
        raise _unfit()
    arms = _free_arms(state, placed, tile)
    if arm >= 0 and arm not in arms:
        raise _unfit()
    if arm < 0 and len(arms) > 1:
        return Asking(Query.ARM, placed, tile, choices=arms)
    arm = arm if arm >= 0 else arms[0]
    if closed is None and state.rules.closed_doubles:
        return Asking(Query.FACE, placed, tile, arm)
    now = (*placed, Placed(tile, arm, bool(closed)))
    more = _joining(state, now)
    if len(now) == 1 and not more:
        return _move_of(now)
    return Asking(Query.READY, now, choices=more)


def _move_of(placed: Sequence[Placed]) -> Move:
    if not placed:
        raise _unfit()
    if len(placed) == 1:
        (one,) = placed
        return Play(one.tile, one.arm, one.closed)
    closed = tuple(p.closed for p in placed)
    return PlayDoubles(
        tuple(p.tile for p in placed), tuple(p.arm for p in placed), closed if any(closed) else ()
    )
