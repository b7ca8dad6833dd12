"""Every inline button's data (`CallbackData` factories, ≤ 64 bytes) and the one codec that
turns a move into a hand button and a pressed hand button back into a move.

Formats are kept across versions: a button sent by an older version either still works
or is answered as outdated (`is_ours`)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from aiogram.filters.callback_data import CallbackData
from pydantic import Field

from bot.ai import Level
from bot.core.errors import GameError
from bot.game.engine import DRAW, PASS, legal_moves
from bot.game.moves import Draw, Move, Play, PlayDoubles
from bot.game.state import GameState
from bot.game.tiles import Tile

Id = Annotated[int, Field(ge=0, le=2**63 - 1)]
"""A game id, move number or page parsed from a button: bounded like the database's ids
(a forged number past 64 bits is an unknown button, not an overflow)."""
TileNumber = Annotated[int, Field(ge=-1, le=255)]


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

    page: Id


OURS = {
    factory.__prefix__
    for factory in (
        LobbyAction,
        AddComputer,
        LobbyOption,
        MoveButton,
        EndGame,
        KickSeat,
        ChatOption,
        LanguageChoice,
        RatingPage,
    )
}


def is_ours(data: str) -> bool:
    """Whether button data has one of our prefixes (then a press that nothing took is a
    button of an older version, or forged)."""
    return data.split(":", 1)[0] in OURS


def move_button(game_id: int, version: int, move: Move) -> MoveButton:
    """The button that plays `move`."""
    if isinstance(move, Play):
        return MoveButton(
            game=game_id, version=version, kind=MoveKind.TILE, tile=move.tile, end=move.end
        )
    if isinstance(move, PlayDoubles):
        return MoveButton(game=game_id, version=version, kind=MoveKind.PAIR)
    kind = MoveKind.DRAW if isinstance(move, Draw) else MoveKind.PASS
    return MoveButton(game=game_id, version=version, kind=kind)


def tile_button(game_id: int, version: int, tile: Tile) -> MoveButton:
    """A tile of the hand, its end chosen on the press."""
    return MoveButton(game=game_id, version=version, kind=MoveKind.TILE, tile=tile)


def back_button(game_id: int, version: int) -> MoveButton:
    return MoveButton(game=game_id, version=version, kind=MoveKind.BACK)


def pressed_move(button: MoveButton, state: GameState) -> Move | None:
    """The move a hand button means, or None when the player must say more: the tile fits
    two ends differently (or the button goes back to the tiles)."""
    if button.kind is MoveKind.BACK:
        return None
    if button.kind is MoveKind.DRAW:
        return DRAW
    if button.kind is MoveKind.PASS:
        return PASS
    legal = legal_moves(state)
    if button.kind is MoveKind.PAIR:
        return next((m for m in legal if isinstance(m, PlayDoubles)), PlayDoubles((), ()))
    if button.end >= 0:
        return Play(button.tile, button.end)
    plays = [m for m in legal if isinstance(m, Play) and m.tile == button.tile]
    if not plays:
        raise GameError("does-not-fit")
    same_ends = len(set(state.ends)) == 1
    return plays[0] if len(plays) == 1 or same_ends else None
