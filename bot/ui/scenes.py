"""Engine state → the renderer's scenes: what the group's table picture shows."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.game.events import (
    DoublesPlayed,
    PublicEvent,
    RoundEnd,
    RoundEnded,
    Scored,
    TilePlayed,
    plays_of,
)
from bot.game.rules import DrawMode
from bot.game.state import GameState, Phase
from bot.game.table import Layout, ends_sum, oriented
from bot.ui.games import game_won
from bot.ui.i18n import Texts
from bot.ui.sheet_kinds import sheet_of
from render.scene import (
    EndsCount,
    ScoreSheet,
    SeatScene,
    SheetLabels,
    TableScene,
)

SHEET_WORDS = (
    "player",
    "previous",
    "round",
    "total",
    "fish",
    "goat",
    "eggs",
    "out",
    "play",
    "limit",
    "next",
    "plays",
    "sits",
    "generals",
    "wins",
    "general",
)


def table_scene(t: Texts, state: GameState, names: Sequence[str], clock: str = "") -> TableScene:
    """The table now; once the round is over every hand lies face up with its result;
    `clock`, «Генерал»'s time left, joins the header."""
    rules, tally, table = state.rules, state.tally, state.table
    tiles, kind = rules.tiles, sheet_of(rules)
    first, arms = oriented(table, tiles)
    over = state.phase is not Phase.PLAYING
    results = state.last_round.results if over and state.last_round else ()
    seats = []
    for seat, hand in enumerate(state.hands):
        side = rules.side_of(seat)
        resting = bool(results) and kind.sat_out(rules, results[seat], state.last_round)
        note = _note(state.last_round, seat) if results and not resting else ""
        if seat in state.resting and not state.is_out(seat):  # Bykovo (§4.2)
            note = t("sheet-sits")
        shown = tuple(tiles.pips[t] for t in results[seat].hand) if results else None
        seats.append(
            SeatScene(
                name=names[seat],
                tiles_left=hand.bit_count(),
                score=tally.scores[side],
                remembered=tally.remembered[side],
                opened=tally.opened[side],
                to_move=not over and seat == state.to_move,
                team=side if rules.teams else None,
                revealed=shown,
                note=note,
                out=state.is_out(seat),
            )
        )
    played = [tile for tile, _, _ in plays_of(state.history)]
    stock = rules.draw is not DrawMode.NONE
    return TableScene(
        first=None if table.first is None else first,
        arms=tuple(tuple(arm) for arm in arms),
        seats=tuple(seats),
        bazaar=len(state.bazaar) if stock else None,
        last_played=tiles.pips[played[-1]] if played else None,
        caption=" · ".join(filter(None, (_caption(t, state, names), clock))),
        max_pip=tiles.max_pip,
        bazaar_label=t("picture-bazaar") if stock else "",
        spinner=table.spread.spinner is not None,
        closed=_closed_arms(table),
        count=_ends_count(t, state, names)
        if rules.format.scores_in_play and table.first is not None
        else None,
    )


def _closed_arms(table: Layout) -> tuple[int, ...]:
    """The arms a double played face down ends (Осёл)."""
    return tuple(
        arm for arm, tiles in enumerate(table.arms) if tiles and table.closed >> tiles[-1] & 1
    )


def _ends_count(t: Texts, state: GameState, names: Sequence[str]) -> EndsCount:
    """The open ends added up, and what the last move scored (Телефон, Muggins)."""
    on_table = state.on_table
    lone = on_table.bit_length() - 1 if on_table.bit_count() == 1 else None
    total = ends_sum(state.rules.tiles, state.ends, state.spread, lone)
    scored = _last_scored(state.history)
    if scored is None:
        return EndsCount(t("picture-ends"), total)
    return EndsCount(t("picture-ends"), total, scored.points, names[scored.seat])


def _last_scored(history: Iterable[PublicEvent]) -> Scored | None:
    """The points the last tiles played scored, if they did."""
    scored = None
    for event in history:
        if isinstance(event, TilePlayed | DoublesPlayed):
            scored = None
        elif isinstance(event, Scored):
            scored = event
    return scored


def _caption(t: Texts, state: GameState, names: Sequence[str]) -> str:
    ended = state.last_round
    if state.phase is Phase.PLAYING or ended is None:
        return t("picture-round", round=state.round_no)
    if ended.eggs:
        return t("picture-eggs", round=ended.round_no, carry=ended.carry_after)
    if ended.reason is RoundEnd.TARGET:
        score = ended.results[ended.seat].score_after
        return t("picture-target", name=names[ended.seat], score=score)
    key = {RoundEnd.FISH: "picture-fish", RoundEnd.SORTIR: "picture-sortir"}.get(
        ended.reason, "picture-out"
    )
    return t(key, round=ended.round_no, name=names[ended.seat])


def _note(ended: RoundEnded | None, seat: int) -> str:
    if ended is None:
        return ""
    result = ended.results[seat]
    if result.round_points:
        fish = "🐟 " if ended.reason is RoundEnd.FISH else ""
        return f"{fish}+{result.round_points}"
    return "0" if ended.reason is RoundEnd.OUT and ended.seat == seat else ""


def _labels(t: Texts) -> SheetLabels:
    return SheetLabels(**{key: t(f"sheet-{key}") for key in SHEET_WORDS})


def score_sheet(t: Texts, state: GameState, names: Sequence[str]) -> ScoreSheet:
    """The score sheet after the last round, with the columns of the game's kind (the
    standings with their limit, in Bykovo) and, under it, what decides the game."""
    ended = state.last_round
    if ended is None:
        raise ValueError("no round has ended yet")
    rules = state.rules
    kind = sheet_of(rules)
    return ScoreSheet(
        rows=kind.rows(t, state, names),
        title=_caption(t, state, names),
        fish=ended.reason is RoundEnd.FISH,
        carry=ended.carry_after,
        labels=_labels(t),
        kind=kind.kind,
        limit=rules.goal,
        note=game_won(t, rules),
    )
