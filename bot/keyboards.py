"""Inline buttons: `CallbackData` factories (game id and move number inside, ≤ 64 bytes)."""

from __future__ import annotations

from collections.abc import Sequence

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup
from aiogram.utils.keyboard import InlineKeyboardBuilder

from bot import texts
from bot.game.moves import Draw, Move, Play, PlayDoubles
from bot.game.rules import PRESETS, RuleSet
from bot.game.tiles import Tile

TILES_PER_ROW = 4


class LobbyAction(CallbackData, prefix="l"):
    """A lobby button: `leave`, `start`, `cancel`, `settings`, `back`, `robot_<level>`."""

    game: int
    action: str


class LobbyOption(CallbackData, prefix="o"):
    """A settings button: set option `key` to `value` (`preset` switches presets)."""

    game: int
    key: str
    value: str


class MoveButton(CallbackData, prefix="m"):
    """A hand button. `kind`: t = tile (at `end`, -1 = ask), d = draw, p = pass, 2 = pair."""

    game: int
    version: int
    kind: str
    tile: int = -1
    end: int = -1


class EndGame(CallbackData, prefix="e"):
    game: int
    confirm: bool


def lobby_keyboard(game_id: int, join_url: str) -> InlineKeyboardMarkup:
    builder = InlineKeyboardBuilder()
    builder.button(text=texts.JOIN, url=join_url)
    builder.button(text=texts.LEAVE, callback_data=LobbyAction(game=game_id, action="leave"))
    builder.button(text=texts.START, callback_data=LobbyAction(game=game_id, action="start"))
    builder.button(text=texts.SETTINGS, callback_data=LobbyAction(game=game_id, action="settings"))
    builder.button(text=texts.CANCEL, callback_data=LobbyAction(game=game_id, action="cancel"))
    for level, name in texts.ROBOT_LEVELS.items():
        builder.button(
            text=texts.ADD_ROBOT.format(level=name),
            callback_data=LobbyAction(game=game_id, action=f"robot_{level}"),
        )
    builder.adjust(1, 2, 2, len(texts.ROBOT_LEVELS))
    return builder.as_markup()


SETTINGS_CHOICES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("target", ("101", "125", "150")),
    ("fish", ("one", "all")),
    ("auto_draw", ("yes", "no")),
)


def settings_keyboard(game_id: int, rules: RuleSet) -> InlineKeyboardMarkup:
    """Presets on top, then the common options with the current value marked."""
    builder = InlineKeyboardBuilder()
    for name in PRESETS:
        mark = "● " if rules.preset == name else ""
        builder.button(
            text=f"{mark}{name}", callback_data=LobbyOption(game=game_id, key="preset", value=name)
        )
    sizes = [len(PRESETS)]
    options = rules.options()
    for key, values in SETTINGS_CHOICES:
        if key == "fish" and not rules.low_wins:
            continue
        for value in values:
            current = texts.option_value(options[key]) == value
            builder.button(
                text=f"{'● ' if current else ''}{texts.option_label(key, value)}",
                callback_data=LobbyOption(game=game_id, key=key, value=value),
            )
        sizes.append(len(values))
    builder.button(text=texts.DONE, callback_data=LobbyAction(game=game_id, action="back"))
    sizes.append(1)
    builder.adjust(*sizes)
    return builder.as_markup()


def move_button(game_id: int, version: int, move: Move) -> MoveButton:
    """The button data that plays `move`."""
    if isinstance(move, Play):
        return MoveButton(game=game_id, version=version, kind="t", tile=move.tile, end=move.end)
    if isinstance(move, PlayDoubles):
        return MoveButton(game=game_id, version=version, kind="2")
    return MoveButton(game=game_id, version=version, kind="d" if isinstance(move, Draw) else "p")


def hand_keyboard(
    game_id: int,
    version: int,
    rules: RuleSet,
    hand: Sequence[Tile],
    legal: Sequence[Move],
    choosing: Tile | None = None,
) -> InlineKeyboardMarkup:
    """One button per tile (legal ones marked), then draw / pass / double pair if legal.

    With `choosing`, that tile fits two ends differently: the keyboard asks which end.
    """
    tiles = rules.tiles
    builder = InlineKeyboardBuilder()
    if choosing is not None:
        for move in legal:
            if isinstance(move, Play) and move.tile == choosing:
                builder.button(
                    text=texts.END_CHOICE[move.end],
                    callback_data=move_button(game_id, version, move),
                )
        builder.button(
            text=texts.BACK, callback_data=MoveButton(game=game_id, version=version, kind="b")
        )
        builder.adjust(2, 1)
        return builder.as_markup()
    playable = {m.tile for m in legal if isinstance(m, Play)}
    for tile in hand:
        mark = texts.PLAYABLE if tile in playable else ""
        builder.button(
            text=f"{mark}{tiles.name(tile)}",
            callback_data=MoveButton(game=game_id, version=version, kind="t", tile=tile),
        )
    extras = [m for m in legal if not isinstance(m, Play)]
    builder.adjust(TILES_PER_ROW)
    row = [
        InlineKeyboardButton(
            text=texts.move_label(m, rules), callback_data=move_button(game_id, version, m).pack()
        )
        for m in extras
    ]
    if row:
        builder.row(*row)
    return builder.as_markup()


def end_game_keyboard(game_id: int) -> InlineKeyboardMarkup:
    builder = InlineKeyboardBuilder()
    builder.button(text=texts.END_YES, callback_data=EndGame(game=game_id, confirm=True))
    builder.button(text=texts.END_NO, callback_data=EndGame(game=game_id, confirm=False))
    return builder.as_markup()
