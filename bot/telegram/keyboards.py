"""Inline keyboards: the lobby and its rules, the chat's settings, languages, leaderboard
pages, the private hand and /endgame's confirmation."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup
from aiogram.utils.keyboard import InlineKeyboardBuilder

from bot.ai import Level
from bot.core.rows import ChatSettings, GameRow
from bot.core.teams import team_slots
from bot.game.choosing import Asking, Query
from bot.game.engine import legal_moves
from bot.game.moves import Draw, Move, Pass, Play, PlayDoubles
from bot.game.rules import PRESETS, RuleSet, Spinner
from bot.game.state import GameState
from bot.game.tiles import Tile, tiles_of
from bot.telegram.buttons import (
    AddComputer,
    BuildAct,
    ChatOption,
    ChatView,
    DoublesButton,
    EndGame,
    KickSeat,
    LanguageChoice,
    LobbyAct,
    LobbyAction,
    LobbyOption,
    LobbyTeam,
    PlayAgain,
    RatingPage,
    SeasonPage,
    back_button,
    doubles_button,
    move_button,
    tile_button,
    whole_move_button,
)
from bot.telegram.record_buttons import HistoryGame, RecordFile, Replay, ReviewGame
from bot.telegram.season_keys import season_settings
from bot.ui import hand as hand_words
from bot.ui import texts
from bot.ui.games import option_choices, option_label, option_value, preset_name
from bot.ui.i18n import LANGUAGES, Texts, texts_for

TILES_PER_ROW = 4

Button = Callable[[str, str], CallbackData]
"""The data of a rules button that sets option `key` to `value`."""


def lobby_keyboard(
    t: Texts, game: GameRow, join_url: str, computers: bool, app_url: str | None = None
) -> InlineKeyboardMarkup:
    """Sit down (and the table app, with one); leave, start, the rules, cancel; pick a team
    (with teams); seat computers."""
    game_id = game.id
    builder = InlineKeyboardBuilder()
    builder.button(text=t("join"), url=join_url)
    if app_url is not None:
        builder.button(text=t("open-table-app"), url=app_url)
    for action in (LobbyAct.LEAVE, LobbyAct.START, LobbyAct.SETTINGS, LobbyAct.CANCEL):
        builder.button(text=t(action), callback_data=LobbyAction(game=game_id, action=action))
    teams = team_slots(game.rules) if game.rules.teams else 0
    for team in range(teams):
        builder.button(
            text=t("team-button", number=team + 1), callback_data=LobbyTeam(game=game_id, team=team)
        )
    levels = list(Level) if computers else []
    for level in levels:
        builder.button(
            text=t("add-computer", level=texts.computer_level(t, level)),
            callback_data=AddComputer(game=game_id, level=level),
        )
    first = 1 if app_url is None else 2
    builder.adjust(first, 2, 2, *([teams] if teams else []), *([len(levels)] if levels else []))
    return builder.as_markup()


def app_keyboard(t: Texts, app_url: str | None) -> InlineKeyboardMarkup | None:
    """The table message's «📱 За стол», when there is a table app."""
    if app_url is None:
        return None
    button = InlineKeyboardButton(text=t("open-table-app"), url=app_url)
    return InlineKeyboardMarkup(inline_keyboard=[[button]])


def _marked(text: str, current: bool) -> str:
    return f"● {text}" if current else text


def _rule_buttons(
    t: Texts, builder: InlineKeyboardBuilder, rules: RuleSet, button: Button, presets: CallbackData
) -> list[int]:
    """The preset (a button to the list of presets), then the options that apply to it with
    the current value marked; the row sizes."""
    builder.button(
        text=t("preset-button", name=preset_name(t, rules.preset)), callback_data=presets
    )
    sizes = [1]
    options = rules.options()
    for key, values in option_choices(rules):
        for value in values:
            current = option_value(options[key]) == value
            builder.button(
                text=_marked(option_label(t, key, value, rules), current),
                callback_data=button(key, value),
            )
        sizes.append(len(values))
    return sizes


def _preset_buttons(
    t: Texts, builder: InlineKeyboardBuilder, rules: RuleSet, button: Button, back: CallbackData
) -> InlineKeyboardMarkup:
    """One preset a row (its description is in the message), then back."""
    for name in PRESETS:
        text = _marked(preset_name(t, name), rules.preset == name)
        builder.button(text=text, callback_data=button("preset", name))
    builder.button(text=t("back"), callback_data=back)
    builder.adjust(1)
    return builder.as_markup()


def settings_keyboard(t: Texts, game_id: int, rules: RuleSet) -> InlineKeyboardMarkup:
    """The lobby's rules, then back to the lobby."""
    builder = InlineKeyboardBuilder()

    def button(key: str, value: str) -> CallbackData:
        return LobbyOption(game=game_id, key=key, value=value)

    presets = LobbyAction(game=game_id, action=LobbyAct.PRESETS)
    sizes = _rule_buttons(t, builder, rules, button, presets)
    builder.button(text=t("done"), callback_data=LobbyAction(game=game_id, action=LobbyAct.BACK))
    builder.adjust(*sizes, 1)
    return builder.as_markup()


def presets_keyboard(t: Texts, game_id: int, rules: RuleSet) -> InlineKeyboardMarkup:
    """The lobby's choice of preset; back to its rules."""

    def button(key: str, value: str) -> CallbackData:
        return LobbyOption(game=game_id, key=key, value=value)

    back = LobbyAction(game=game_id, action=LobbyAct.SETTINGS)
    return _preset_buttons(t, InlineKeyboardBuilder(), rules, button, back)


def _chat_button(key: str, value: str) -> CallbackData:
    return ChatOption(key=key, value=value)


def chat_settings_keyboard(t: Texts, rules: RuleSet, seasons: ChatSettings) -> InlineKeyboardMarkup:
    """/settings: the chat's default rules, its language, whether computers may play,
    whether /deal shows its names, its rating seasons; close."""
    language, computers, shows_deals = seasons.language, seasons.computers, seasons.shows_deals
    builder = InlineKeyboardBuilder()
    presets = ChatOption(key="view", value=ChatView.PRESETS)
    sizes = _rule_buttons(t, builder, rules, _chat_button, presets)
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
    builder.button(
        text=t("settings-deals-button", state=t("settings-on" if shows_deals else "settings-off")),
        callback_data=ChatOption(key="deals", value="no" if shows_deals else "yes"),
    )
    season_settings(t, builder, seasons)
    builder.button(text=t("close"), callback_data=ChatOption(key="view", value=ChatView.CLOSE))
    builder.adjust(*sizes, len(LANGUAGES), 1, 1, 2, 1)
    return builder.as_markup()


def chat_presets_keyboard(t: Texts, rules: RuleSet) -> InlineKeyboardMarkup:
    """/settings: the choice of the chat's default preset; back to the settings."""
    back = ChatOption(key="view", value=ChatView.MAIN)
    return _preset_buttons(t, InlineKeyboardBuilder(), rules, _chat_button, back)


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


def pages_keyboard(t: Texts, page: int, pages: int) -> InlineKeyboardMarkup:
    """◀ / ▶ under an all-time leaderboard page, when there is more than one page; the
    season running now."""
    builder = InlineKeyboardBuilder()
    if page > 0:
        builder.button(text=t("page-prev"), callback_data=RatingPage(page=page - 1))
    if page + 1 < pages:
        builder.button(text=t("page-next"), callback_data=RatingPage(page=page + 1))
    builder.button(text=t("season-now-button"), callback_data=SeasonPage(season=0, page=0))
    turns = (page > 0) + (page + 1 < pages)
    builder.adjust(*[size for size in (turns,) if size], 1)
    return builder.as_markup()


def hand_keyboard(
    t: Texts,
    game_id: int,
    version: int,
    rules: RuleSet,
    hand: Sequence[Tile],
    legal: Sequence[Move],
) -> InlineKeyboardMarkup:
    """One button per tile (legal ones marked), then draw / pass if legal, and the doubles
    that may go down together (Sea Goat's pair at once; else a button to pick them)."""
    tiles, playable = rules.tiles, {m.tile for m in legal if isinstance(m, Play)}
    # built directly, not with the builder: it deep-copies its rows on every button it
    # adds, and a hand is drawn on every move of every game
    tile_buttons = [
        InlineKeyboardButton(
            text=f"{texts.PLAYABLE if tile in playable else ''}{tiles.name(tile)}",
            callback_data=tile_button(game_id, version, tile).pack(),
        )
        for tile in hand
    ]
    rows = [tile_buttons[i : i + TILES_PER_ROW] for i in range(0, len(tile_buttons), TILES_PER_ROW)]
    extras = [
        InlineKeyboardButton(
            text=texts.move_label(t, m, rules),
            callback_data=move_button(game_id, version, m).pack(),
        )
        for m in legal
        if isinstance(m, Draw | Pass)
    ]
    doubles = [m for m in legal if isinstance(m, PlayDoubles)]
    if len(doubles) == 1:
        (move,) = doubles
        data = whole_move_button(game_id, version, move)
        extras.append(_button(texts.move_label(t, move, rules), data))
    elif doubles:
        extras.append(_button(t("hand-doubles"), doubles_button(game_id, version, ())))
    if extras:
        rows.append(extras)
    return InlineKeyboardMarkup(inline_keyboard=rows)


def _button(text: str, data: CallbackData) -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, callback_data=data.pack())


def _rows(buttons: list[InlineKeyboardButton], width: int) -> list[list[InlineKeyboardButton]]:
    return [buttons[i : i + width] for i in range(0, len(buttons), width)]


def end_label(t: Texts, rules: RuleSet, ends: Sequence[int], end: int) -> str:
    """An end's button with the number it shows: «⬅ 3» / «5 ➡» on a line, the arm and its
    value («⬆ 4») in the spinner games."""
    if rules.spinner is Spinner.NONE:
        return t("end-left" if end == 0 else "end-right", value=ends[end])
    return hand_words.arm(end, ends[end])


def ask_keyboard(
    t: Texts, game_id: int, version: int, state: GameState, ask: Asking
) -> InlineKeyboardMarkup:
    """The hand's buttons while it asks `ask` (the tiles again, for back or cancel): the
    choices, then done / cancel as they apply (back to the tiles for a lone tile's end)."""
    rules, placed = state.rules, ask.placed
    if ask.query is Query.TILES:
        hand = list(tiles_of(state.hands[state.to_move]))
        return hand_keyboard(t, game_id, version, rules, hand, legal_moves(state))

    def step(tile: Tile = -1, arm: int = -1, face: int = -1) -> DoublesButton:
        return doubles_button(game_id, version, placed, tile, arm, face)

    choices: list[InlineKeyboardButton]
    if ask.query is Query.END:
        plays = (Play(ask.tile, end) for end in ask.choices)
        labels = (end_label(t, rules, state.ends, end) for end in ask.choices)
        choices = [
            _button(label, move_button(game_id, version, m))
            for label, m in zip(labels, plays, strict=True)
        ]
    elif ask.query is Query.DOUBLE:
        choices = [_button(rules.tiles.name(tile), step(tile)) for tile in ask.choices]
    elif ask.query is Query.ARM:
        choices = [
            _button(end_label(t, rules, state.ends, arm), step(ask.tile, arm))
            for arm in ask.choices
        ]
    elif ask.query is Query.FACE:
        choices = [
            _button(t("hand-open"), step(ask.tile, ask.arm, 0)),
            _button(t("hand-closed"), step(ask.tile, ask.arm, 1)),
        ]
    else:
        choices = [_button(t("hand-more"), step())] if ask.choices else []
    rows = _rows(choices, TILES_PER_ROW)
    done = doubles_button(game_id, version, placed, act=BuildAct.DONE)
    ending = placed and ask.query in {Query.DOUBLE, Query.READY}  # no double left half-placed
    closing = [_button(t("hand-done"), done)] if ending else []
    leave = t("back") if ask.query is Query.END else t("hand-cancel")
    closing.append(_button(leave, back_button(game_id, version)))
    return InlineKeyboardMarkup(inline_keyboard=[*rows, closing])


def end_game_keyboard(t: Texts, game_id: int) -> InlineKeyboardMarkup:
    builder = InlineKeyboardBuilder()
    builder.button(text=t("end-yes"), callback_data=EndGame(game=game_id, confirm=True))
    builder.button(text=t("end-no"), callback_data=EndGame(game=game_id, confirm=False))
    return builder.as_markup()


def kick_keyboard(t: Texts, game_id: int, seats: Sequence[tuple[int, str]]) -> InlineKeyboardMarkup:
    """/kick of a shared name: one button per seat that has it."""
    builder = InlineKeyboardBuilder()
    for seat, name in seats:
        builder.button(
            text=t("kick-seat", name=name, seat=seat + 1),
            callback_data=KickSeat(game=game_id, seat=seat),
        )
    builder.adjust(1)
    return builder.as_markup()


def again_keyboard(t: Texts, game_id: int) -> InlineKeyboardMarkup:
    """«🔁 Ещё партию» under a finished game's end."""
    button = InlineKeyboardButton(
        text=t("again-button"), callback_data=PlayAgain(game=game_id).pack()
    )
    return InlineKeyboardMarkup(inline_keyboard=[[button]])


# -- records ----------------------------------------------------------------------------


def history_keyboard(game_ids: Sequence[int]) -> InlineKeyboardMarkup:
    """/history: a button per game, by its number, its score sheet."""
    buttons = [_button(str(game_id), HistoryGame(game=game_id)) for game_id in game_ids]
    return InlineKeyboardMarkup(inline_keyboard=_rows(buttons, 5))


def record_keyboard(t: Texts, game_id: int, rounds: Sequence[int]) -> InlineKeyboardMarkup:
    """A game's score sheet: a replay per round, its record, back to the list."""
    replays = [_button(f"🎞 {n}", Replay(game=game_id, round=n)) for n in rounds]
    return InlineKeyboardMarkup(
        inline_keyboard=[
            *_rows(replays, 6),
            [
                _button(t("history-record-button"), RecordFile(game=game_id)),
                _button(t("history-back-button"), HistoryGame(game=0)),
            ],
        ]
    )


def replay_keyboard(t: Texts, game_id: int, round_no: int) -> InlineKeyboardMarkup:
    """A round's result: «🎞 Повтор»."""
    button = _button(t("replay-button"), Replay(game=game_id, round=round_no))
    return InlineKeyboardMarkup(inline_keyboard=[[button]])


def review_keyboard(t: Texts, game_id: int) -> InlineKeyboardMarkup:
    """A finished game's closed hand: «🔍 Разбор»."""
    return InlineKeyboardMarkup(
        inline_keyboard=[[_button(t("review-button"), ReviewGame(game=game_id))]]
    )
