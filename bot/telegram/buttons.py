"""Every inline button's data (`CallbackData` factories, ≤ 64 bytes) and the one codec that
turns a move into a hand button and a pressed hand button back into a move — or into what
the hand must ask first (`Ask`): which end, open or closed, which doubles to put down.

Formats are kept across versions: a button sent by an older version either still works
or is answered as outdated (`is_ours`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, NamedTuple

from aiogram.filters.callback_data import CallbackData
from pydantic import Field

from bot.ai import Level
from bot.core.errors import GameError
from bot.game.engine import DRAW, PASS, legal_moves
from bot.game.moves import Draw, Move, Pass, Play, PlayDoubles
from bot.game.rules import Spinner
from bot.game.state import GameState
from bot.game.tiles import Tile, tiles_of
from bot.telegram.record_buttons import HistoryGame, RecordFile, Replay, ReviewGame

Id = Annotated[int, Field(ge=0, le=2**63 - 1)]
"""A game id, move number or page parsed from a button: bounded like the database's ids
(a forged number past 64 bits is an unknown button, not an overflow)."""
TileNumber = Annotated[int, Field(ge=-1, le=255)]
ArmNumber = Annotated[int, Field(ge=-1, le=3)]
FaceNumber = Annotated[int, Field(ge=-1, le=1)]
"""Open (0) or closed (1); -1: still to ask."""
MOST_PAGES = 10**6
"""A leaderboard page past this is forged (its offset would not fit the database's integers)."""
MOST_PLACED = 4
PLACED_WIDTH = 2
"""Base-36 digits per placed double: tile · 8 + arm · 2 + closed < 91 · 8 ≤ 36²."""
Packed = Annotated[str, Field(pattern=rf"^(?:[0-9a-z]{{{PLACED_WIDTH}}}){{0,{MOST_PLACED}}}$")]


class LobbyAct(StrEnum):
    LEAVE = "leave"
    START = "start"
    SETTINGS = "settings"  # the lobby's rules, for its creator
    PRESETS = "presets"  # the list of presets, each with its description
    BACK = "back"  # from the rules back to the lobby
    CANCEL = "cancel"


class LobbyAction(CallbackData, prefix="l"):
    game: Id
    action: LobbyAct


class AddComputer(CallbackData, prefix="a"):
    """The creator seats a computer player at `level`."""

    game: Id
    level: Level


class LobbyTeam(CallbackData, prefix="tm"):
    """A seated person picks a team (0-based; the same again: back to joining order)."""

    game: Id
    team: Annotated[int, Field(ge=0, le=9)]


class LobbyOption(CallbackData, prefix="o"):
    """A lobby rules button: set option `key` to `value` (`preset` switches presets)."""

    game: Id
    key: str
    value: str


class MoveKind(StrEnum):
    TILE = "t"  # a tile, at `end` (-1: ask which end when it matters)
    DRAW = "d"
    PASS = "p"
    PAIR = "2"  # Sea Goat's two doubles at once
    BACK = "b"  # from the choice of ends back to the tiles


class MoveButton(CallbackData, prefix="m"):
    """A hand button, valid at move `version` of `game`."""

    game: Id
    version: Id
    kind: MoveKind
    tile: TileNumber = -1
    end: TileNumber = -1


class BuildAct(StrEnum):
    ADD = "a"  # pick a double (no `tile`), place `tile` (asking its arm and face if unset)
    DONE = "d"  # put the placed doubles down


class DoublesButton(CallbackData, prefix="h"):
    """A step of a move built in the hand (several doubles, or one to place open or closed),
    valid at move `version` of `game`: the doubles `placed` so far, then `tile` at `arm` with
    `face` (-1: still to ask). The button carries the whole partial move: nothing is kept
    between presses, and nothing is played before «done»."""

    game: Id
    version: Id
    act: BuildAct
    tile: TileNumber = -1
    arm: ArmNumber = -1
    face: FaceNumber = -1
    placed: Packed = ""


class PlayAgain(CallbackData, prefix="ag"):
    """«🔁 Ещё партию» under a finished game's end: a new lobby with its rules."""

    game: Id


class EndGame(CallbackData, prefix="e"):
    game: Id
    confirm: bool


class KickSeat(CallbackData, prefix="k"):
    """/kick of a name two players share: which seat."""

    game: Id
    seat: Annotated[int, Field(ge=0, le=15)]


class ChatView(StrEnum):
    MAIN = "main"
    PRESETS = "presets"
    CLOSE = "close"  # the settings message goes away (a value added later: old data parses)


class ChatOption(CallbackData, prefix="c"):
    """A /settings button: set the chat's `key` (an option, `preset`, `language`,
    `computers`) to `value`; `view` switches between the settings and the presets."""

    key: str
    value: str


class LanguageChoice(CallbackData, prefix="g"):
    """/language in private: a language code, or "" to follow Telegram."""

    language: str


class RatingPage(CallbackData, prefix="r"):
    """A page of a chat's leaderboard (0 is the first)."""

    page: Annotated[int, Field(ge=0, le=MOST_PAGES)]


OURS = {
    factory.__prefix__
    for factory in (
        LobbyAction,
        AddComputer,
        LobbyTeam,
        LobbyOption,
        MoveButton,
        DoublesButton,
        EndGame,
        KickSeat,
        ChatOption,
        LanguageChoice,
        RatingPage,
        HistoryGame,
        Replay,
        RecordFile,
        ReviewGame,
    )
}


def is_ours(data: str) -> bool:
    """Whether button data has one of our prefixes (then a press that nothing took is a
    button of an older version, or forged)."""
    return data.split(":", 1)[0] in OURS


def move_button(game_id: int, version: int, move: Play | Draw | Pass) -> MoveButton:
    """The button that makes `move` (a tile at its end, open)."""
    if isinstance(move, Play):
        return MoveButton(
            game=game_id, version=version, kind=MoveKind.TILE, tile=move.tile, end=move.end
        )
    kind = MoveKind.DRAW if isinstance(move, Draw) else MoveKind.PASS
    return MoveButton(game=game_id, version=version, kind=kind)


def tile_button(game_id: int, version: int, tile: Tile) -> MoveButton:
    """A tile of the hand, its end chosen on the press."""
    return MoveButton(game=game_id, version=version, kind=MoveKind.TILE, tile=tile)


def back_button(game_id: int, version: int) -> MoveButton:
    """Back to the hand's tiles: a half-built move is dropped."""
    return MoveButton(game=game_id, version=version, kind=MoveKind.BACK)


# -- a move built step by step ------------------------------------------------------------


class Placed(NamedTuple):
    """A double placed in a move being built: on `arm`, face down if `closed`."""

    tile: Tile
    arm: int
    closed: bool = False


_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def packed(placed: Sequence[Placed]) -> str:
    """The placed doubles, two base-36 digits each."""
    codes = (p.tile * 8 + p.arm * 2 + p.closed for p in placed)
    return "".join(_DIGITS[code // 36] + _DIGITS[code % 36] for code in codes)


def unpacked(text: str) -> tuple[Placed, ...]:
    codes = (int(text[i : i + PLACED_WIDTH], 36) for i in range(0, len(text), PLACED_WIDTH))
    return tuple(Placed(code // 8, code % 8 // 2, bool(code % 2)) for code in codes)


def doubles_button(
    game_id: int,
    version: int,
    placed: Sequence[Placed],
    tile: Tile = -1,
    arm: int = -1,
    face: int = -1,
    act: BuildAct = BuildAct.ADD,
) -> DoublesButton:
    return DoublesButton(
        game=game_id,
        version=version,
        act=act,
        tile=tile,
        arm=arm,
        face=face,
        placed=packed(placed),
    )


def whole_move_button(game_id: int, version: int, move: PlayDoubles) -> DoublesButton:
    """Sea Goat's pair (a move with nothing left to choose): shown placed, «done» plays it."""
    closed = move.closed or (False,) * len(move.tiles)
    *placed, last = map(Placed, move.tiles, move.ends, closed)
    return doubles_button(game_id, version, placed, last.tile, last.arm, int(last.closed))


class Asked(StrEnum):
    TILES = "tiles"  # back to the hand's tiles
    END = "end"  # which end for `tile` (not a double being placed): `choices` are arms
    DOUBLE = "double"  # which double joins the move: `choices` are tiles
    ARM = "arm"  # which arm for the double `tile`: `choices` are arms
    FACE = "face"  # the double `tile` on `arm`: open or closed
    READY = "ready"  # the move as placed: done, cancel, or another of the doubles `choices`


@dataclass(frozen=True, slots=True)
class Ask:
    """What the hand asks before a press makes a move."""

    asked: Asked
    placed: tuple[Placed, ...] = ()
    tile: Tile = -1
    arm: int = -1
    choices: tuple[int, ...] = ()


def pressed_move(button: MoveButton, state: GameState) -> Move | Ask:
    """The move a hand button means, or what the hand must ask first: the end of a tile
    that fits several differently; the arm and face of a double, or the rest of a move of
    several doubles, when those are possible."""
    if button.kind is MoveKind.BACK:
        return Ask(Asked.TILES)
    if button.kind is MoveKind.DRAW:
        return DRAW
    if button.kind is MoveKind.PASS:
        return PASS
    legal = legal_moves(state)
    if button.kind is MoveKind.PAIR:  # an older version's pair button
        return next((m for m in legal if isinstance(m, PlayDoubles)), PlayDoubles((), ()))
    if button.end >= 0:
        return Play(button.tile, button.end)
    plays = [m for m in legal if isinstance(m, Play) and m.tile == button.tile]
    if not plays:
        raise GameError("does-not-fit")
    if _builds(state, button.tile, legal):
        return _place(state, (), button.tile, -1, -1)
    arms = tuple(dict.fromkeys(m.end for m in plays))
    if len(arms) > 1 and (state.rules.spinner is not Spinner.NONE or len(set(state.ends)) > 1):
        return Ask(Asked.END, tile=button.tile, choices=arms)
    return plays[0]


def built_move(button: DoublesButton, state: GameState) -> Move | Ask:
    """A step of a move being built: the move once «done» (or once a lone double has
    nothing left to ask and nothing could join it), else the next question."""
    placed = _checked(state, unpacked(button.placed))
    if button.act is BuildAct.DONE:
        return _move_of(placed)
    if button.tile < 0:
        return Ask(Asked.DOUBLE, placed, choices=_joining(state, placed))
    return _place(state, placed, button.tile, button.arm, button.face)


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
    """The placed doubles of a button, each one still possible after those before it."""
    for i, p in enumerate(placed):
        before = placed[:i]
        if (
            p.tile not in _joining(state, before)
            or p.arm not in _free_arms(state, before, p.tile)
            or (p.closed and not state.rules.closed_doubles)
        ):
            raise GameError("does-not-fit")
    return placed


def _place(
    state: GameState, placed: tuple[Placed, ...], tile: Tile, arm: int, face: int
) -> Move | Ask:
    """Place `tile`, asking its arm and face when they are open; then the move, if nothing
    else could join a lone double, or the move as placed."""
    if tile not in _joining(state, placed):  # a tile of the hand: only then read its pips
        raise GameError("does-not-fit")
    arms = _free_arms(state, placed, tile)
    if arm >= 0 and arm not in arms:
        raise GameError("does-not-fit")
    if arm < 0 and len(arms) > 1:
        return Ask(Asked.ARM, placed, tile, choices=arms)
    arm = arm if arm >= 0 else arms[0]
    if face < 0 and state.rules.closed_doubles:
        return Ask(Asked.FACE, placed, tile, arm)
    now = (*placed, Placed(tile, arm, face == 1))
    more = _joining(state, now)
    if len(now) == 1 and not more:
        return _move_of(now)
    return Ask(Asked.READY, now, choices=more)


def _move_of(placed: Sequence[Placed]) -> Move:
    if not placed:
        raise GameError("does-not-fit")
    if len(placed) == 1:
        (one,) = placed
        return Play(one.tile, one.arm, one.closed)
    closed = tuple(p.closed for p in placed)
    return PlayDoubles(
        tuple(p.tile for p in placed), tuple(p.arm for p in placed), closed if any(closed) else ()
    )
