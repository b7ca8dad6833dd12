"""Inline buttons: `CallbackData` factories (game id and move number inside, ≤ 64 bytes)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup
from aiogram.utils.keyboard import InlineKeyboardBuilder

from bot import texts
from bot.game.moves import Draw, Move, Play, PlayDoubles
from bot.game.rules import PRESETS, RuleSet
from bot.game.tiles import Tile
from bot.i18n import LANGUAGES, Texts, texts_for

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


class ChatOption(CallbackData, prefix="c"):
    """A /settings button: set the chat's `key` (an option, `preset`, `language`,
    `computers`) to `value`."""

    key: str
    value: str


class LanguageChoice(CallbackData, prefix="g"):
    """/language in private: a language code, or "" to follow Telegram."""

    language: str


class RatingPage(CallbackData, prefix="r"):
    """A page of a chat's leaderboard (0 is the first)."""

    page: int


def lobby_keyboard(t: Texts, game_id: int, join_url: str, computers: bool) -> InlineKeyboardMarkup:
    builder = InlineKeyboardBuilder()
    builder.button(text=t("join"), url=join_url)
    for action in ("leave", "start", "settings", "cancel"):
        builder.button(text=t(action), callback_data=LobbyAction(game=game_id, action=action))
    levels = texts.ROBOT_LEVELS if computers else ()
    for level in levels:
        builder.button(
            text=t("add-robot", level=texts.robot_level(t, level)),
            callback_data=LobbyAction(game=game_id, action=f"robot_{level}"),
        )
    builder.adjust(1, 2, 2, *([len(levels)] if levels else []))
    return builder.as_markup()


SETTINGS_CHOICES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("target", ("101", "125", "150")),
    ("fish", ("one", "all")),
    ("auto_draw", ("yes", "no")),
    ("turn_timeout", ("30", "60", "120", "0")),
)


def _marked(text: str, current: bool) -> str:
    return f"● {text}" if current else text


def _rule_buttons(
    t: Texts, builder: InlineKeyboardBuilder, rules: RuleSet, button: Callable[[str, str], Any]
) -> list[int]:
    """Presets, then the common options with the current value marked; the row sizes."""
    for name in PRESETS:
        builder.button(
            text=_marked(name, rules.preset == name), callback_data=button("preset", name)
        )
    sizes = [len(PRESETS)]
    options = rules.options()
    for key, values in SETTINGS_CHOICES:
        if key == "fish" and not rules.low_wins:
            continue
        for value in values:
            current = texts.option_value(options[key]) == value
            builder.button(
                text=_marked(texts.option_label(t, key, value), current),
                callback_data=button(key, value),
            )
        sizes.append(len(values))
    return sizes


def settings_keyboard(t: Texts, game_id: int, rules: RuleSet) -> InlineKeyboardMarkup:
    """The lobby's rules: presets and common options, then back to the lobby."""
    builder = InlineKeyboardBuilder()
    sizes = _rule_buttons(
        t, builder, rules, lambda key, value: LobbyOption(game=game_id, key=key, value=value)
    )
    builder.button(text=t("done"), callback_data=LobbyAction(game=game_id, action="back"))
    builder.adjust(*sizes, 1)
    return builder.as_markup()


def chat_settings_keyboard(
    t: Texts, rules: RuleSet, language: str, computers: bool
) -> InlineKeyboardMarkup:
    """/settings: the chat's default rules, its language and whether computers may play."""
    builder = InlineKeyboardBuilder()
    sizes = _rule_buttons(t, builder, rules, lambda key, value: ChatOption(key=key, value=value))
    for code in LANGUAGES:
        builder.button(
            text=_marked(texts_for(code)("language-name"), code == language),
            callback_data=ChatOption(key="language", value=code),
        )
    state = t("settings-on" if computers else "settings-off")
    builder.button(
        text=t("settings-computers-button", state=state),
        callback_data=ChatOption(key="computers", value="no" if computers else "yes"),
    )
    builder.adjust(*sizes, len(LANGUAGES), 1)
    return builder.as_markup()


def language_keyboard(t: Texts, chosen: str | None) -> InlineKeyboardMarkup:
    builder = InlineKeyboardBuilder()
    for code in LANGUAGES:
        builder.button(
            text=_marked(texts_for(code)("language-name"), code == chosen),
            callback_data=LanguageChoice(language=code),
        )
    builder.button(
        text=_marked(t("language-telegram"), chosen is None),
        callback_data=LanguageChoice(language=""),
    )
    builder.adjust(len(LANGUAGES), 1)
    return builder.as_markup()


def pages_keyboard(t: Texts, page: int, pages: int) -> InlineKeyboardMarkup | None:
    """◀ / ▶ under a leaderboard page, when there is more than one page."""
    builder = InlineKeyboardBuilder()
    if page > 0:
        builder.button(text=t("page-prev"), callback_data=RatingPage(page=page - 1))
    if page + 1 < pages:
        builder.button(text=t("page-next"), callback_data=RatingPage(page=page + 1))
    return builder.as_markup() if pages > 1 else None


def move_button(game_id: int, version: int, move: Move) -> MoveButton:
    """The button data that plays `move`."""
    if isinstance(move, Play):
        return MoveButton(game=game_id, version=version, kind="t", tile=move.tile, end=move.end)
    if isinstance(move, PlayDoubles):
        return MoveButton(game=game_id, version=version, kind="2")
    return MoveButton(game=game_id, version=version, kind="d" if isinstance(move, Draw) else "p")


def hand_keyboard(
    t: Texts,
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
                    text=t("end-left" if move.end == 0 else "end-right"),
                    callback_data=move_button(game_id, version, move),
                )
        builder.button(
            text=t("back"), callback_data=MoveButton(game=game_id, version=version, kind="b")
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
            text=texts.move_label(t, m, rules),
            callback_data=move_button(game_id, version, m).pack(),
        )
        for m in extras
    ]
    if row:
        builder.row(*row)
    return builder.as_markup()


def end_game_keyboard(t: Texts, game_id: int) -> InlineKeyboardMarkup:
    builder = InlineKeyboardBuilder()
    builder.button(text=t("end-yes"), callback_data=EndGame(game=game_id, confirm=True))
    builder.button(text=t("end-no"), callback_data=EndGame(game=game_id, confirm=False))
    return builder.as_markup()
