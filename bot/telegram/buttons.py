"""Every inline button's data (`CallbackData` factories, ≤ 64 bytes) and the one codec
between the hand's buttons and a person's choice (`bot.game.choosing`): a move or a
question's answer into a button, a pressed button into the `Choice` it carries.

Formats are kept across versions: a button sent by an older version either still works
or is answered as outdated (`is_ours`)."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Annotated

from aiogram.filters.callback_data import CallbackData
from pydantic import Field

from bot.ai import Level
from bot.game.choosing import Choice, Chose, Placed
from bot.game.moves import Draw, Pass, Play, PlayDoubles
from bot.game.tiles import Tile
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
    """A page of a chat's all-time leaderboard (0 is the first)."""

    page: Annotated[int, Field(ge=0, le=MOST_PAGES)]


class SeasonPage(CallbackData, prefix="sp"):
    """A page (0 is the first) of a chat's season table: `season` is its number, 0 the
    season running now."""

    season: Annotated[int, Field(ge=0, le=MOST_PAGES)]
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
        SeasonPage,
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


# -- the hand's buttons as a person's choice ----------------------------------------------

_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
_CHOSE = {
    MoveKind.TILE: Chose.TILE,
    MoveKind.DRAW: Chose.DRAW,
    MoveKind.PASS: Chose.PASS,
    MoveKind.PAIR: Chose.PAIR,
    MoveKind.BACK: Chose.BACK,
}


def choice_of(button: MoveButton | DoublesButton) -> Choice:
    """What a pressed hand button chose (`bot.game.choosing` says what it means)."""
    if isinstance(button, MoveButton):
        return Choice(_CHOSE[button.kind], button.tile, button.end)
    chose = Chose.DONE if button.act is BuildAct.DONE else Chose.PLACE
    closed = None if button.face < 0 else button.face == 1
    return Choice(chose, button.tile, button.arm, closed, unpacked(button.placed))


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
