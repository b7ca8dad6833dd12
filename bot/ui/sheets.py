"""The score in words: the scores line of the table's caption and of /score, and a round's
result (/score and the game's end are `bot.ui.endings`), as the game's kind of sheet
(`bot.ui.sheet_kinds`) says them."""

from __future__ import annotations

from collections.abc import Sequence

from bot.game.events import Event, RoundEnded, SeatResult
from bot.game.rules import DrawMode, RuleSet
from bot.game.state import GameState, Phase
from bot.ui.games import preset_name
from bot.ui.i18n import Texts
from bot.ui.sheet_kinds import sheet_of, team
from bot.ui.texts import tile_names
from bot.ui.told import told

EVENT_LINES = 4
"""The last moves the table's caption tells."""


def scores_line(t: Texts, state: GameState, names: Sequence[str]) -> str:
    """`Маша: 12 (+5) · Серёжа: 0 · 🥚 8`, per side (partners together)."""
    rules, tally = state.rules, state.tally
    part = sheet_of(rules).part
    parts = [part(t, tally, side, team(t, rules, names, side)) for side in range(rules.sides)]
    carry = [f"🥚 {tally.carry}"] if tally.carry else []
    return " · ".join([*parts, *carry])


# -- the table's caption ---------------------------------------------------------------------


def round_line(t: Texts, state: GameState) -> str:
    """The game, the round and (where the game has one) the bazaar."""
    rules = state.rules
    key = "caption-round-no-bazaar" if rules.draw is DrawMode.NONE else "caption-round"
    game = preset_name(t, rules.preset)
    return t(key, game=game, round=state.round_no, bazaar=len(state.bazaar))


def table_caption(
    t: Texts,
    state: GameState,
    names: Sequence[str],
    events: Sequence[Event],
    notes: Sequence[str] = (),
    ended: str | None = None,
    clock: str = "",
) -> str:
    """The table picture's caption: the game and round, the score, who sits out, the last
    moves, `notes`, whose turn — or, for a game that ended without being played out, why
    (`ended`, a catalog text)."""
    lines = [round_line(t, state), scores_line(t, state, names)]
    if clock:  # «Генерал»: the match's time (§8)
        lines.append(clock)
    if state.resting:
        lines += sheet_of(state.rules).resting(t, state, names)
    lines += told(t, events, state, names, EVENT_LINES)
    lines += notes
    if ended is not None:
        lines.append(t(ended))
    elif state.phase is Phase.PLAYING:
        lines.append(t("caption-to-move", name=names[state.to_move]))
    return "\n".join(lines)


def match_clock(t: Texts, seconds_left: float) -> str:
    """«Генерал»'s clock: the minutes left, or that the round under way is the last."""
    if seconds_left <= 0:
        return t("clock-over")
    return t("clock-left", minutes=-int(-seconds_left // 60))


# -- a round's result ------------------------------------------------------------------------


def _hands(
    t: Texts, rules: RuleSet, names: Sequence[str], results: Sequence[SeatResult]
) -> list[str]:
    if not rules.format.hands_count:  # their tiles are shown without a value (§11)
        left = [
            t("round-hand-left", name=names[r.seat], tiles=tile_names(rules, r.hand))
            for r in results
        ]
        return [t("round-hands-uncounted"), *left]
    return [
        t("round-hand", name=names[r.seat], tiles=tile_names(rules, r.hand), value=r.hand_value)
        for r in results
    ]


def round_result(
    t: Texts,
    ended: RoundEnded,
    rules: RuleSet,
    names: Sequence[str],
    closed: GameState | None = None,
) -> str:
    """How the round ended, every hand revealed and the score sheet of the game's kind;
    `closed` is the state the round ended in (gone after a restart: then the text says
    less)."""
    kind = sheet_of(rules)
    shown = kind.round_seats(ended, rules, closed)
    lines = kind.round_head(t, ended, rules, names, closed) + _hands(t, rules, names, shown)
    return "\n".join(lines + kind.round_sheet(t, ended, rules, names, shown, closed))
