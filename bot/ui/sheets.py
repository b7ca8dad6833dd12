"""The score in words, by the kind of sheet the game keeps (`Sheet`): the scores line of
the table's caption and of /score, and a round's result (/score and the game's end are
`bot.ui.endings`). Each kind that differs has its function in the dicts below; the points
sheet is the default."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.game.engine import next_resting
from bot.game.events import (
    Event,
    RoundEnd,
    RoundEnded,
    SeatResult,
)
from bot.game.formats import Sheet
from bot.game.rules import DrawMode, RuleSet, Scoring
from bot.game.scoring import Tally
from bot.game.state import GameState, Phase
from bot.ui.games import preset_name
from bot.ui.i18n import Texts
from bot.ui.texts import side_name, tile_names, told

OUT_MARK = "🚪"
"""Marks a side that is out of the game (the room, Bykovo)."""
EVENT_LINES = 4
"""The last moves the table's caption tells."""


def team(t: Texts, rules: RuleSet, names: Sequence[str], side: int) -> str:
    """A side's name: its players («Маша и Оля»)."""
    return side_name(t, [names[s] for s in range(rules.players) if rules.side_of(s) == side])


# -- the scores line -------------------------------------------------------------------------


def _points_part(t: Texts, tally: Tally, side: int, who: str) -> str:
    """`Маша: 12 (+5)`, out of the game `Маша: 105 🚪`."""
    remembered = f" (+{tally.remembered[side]})" if tally.remembered[side] else ""
    out = f" {OUT_MARK}" if tally.out and tally.out[side] else ""
    return f"{who}: {tally.scores[side]}{remembered}{out}"


def _generals_part(t: Texts, tally: Tally, side: int, who: str) -> str:
    """`Маша и Оля: генералов 1, побед 3`."""
    return t("score-part-generals", name=who, generals=tally.scores[side], wins=tally.wins[side])


_PARTS = {Sheet.GENERALS: _generals_part}


def scores_line(t: Texts, state: GameState, names: Sequence[str]) -> str:
    """`Маша: 12 (+5) · Серёжа: 0 · 🥚 8`, per side (partners together)."""
    rules, tally = state.rules, state.tally
    part = _PARTS.get(rules.format.sheet, _points_part)
    parts = [part(t, tally, side, team(t, rules, names, side)) for side in range(rules.sides)]
    carry = [f"🥚 {tally.carry}"] if tally.carry else []
    return " · ".join([*parts, *carry])


# -- the table's caption ---------------------------------------------------------------------


def _sitting(t: Texts, state: GameState, names: Sequence[str]) -> list[str]:
    """Bykovo: who sits this round out (§4.2)."""
    return [t("event-resting", names=", ".join(names[s] for s in state.resting))]


def _waiting(t: Texts, state: GameState, names: Sequence[str]) -> list[str]:
    """«Генерал»: the teams waiting their turn (§8)."""
    rules = state.rules
    waiting = ", ".join(team(t, rules, names, side) for side in state.tally.queue)
    return [t("general-waiting", names=waiting)] if waiting else []


_RESTING = {Sheet.PLACES: _sitting, Sheet.GENERALS: _waiting}


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
    resting = _RESTING.get(state.rules.format.sheet)
    if state.resting and resting is not None:
        lines += resting(t, state, names)
    lines += told(t, events, state, names)[-EVENT_LINES:]
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


def _by_places(rules: RuleSet, result: SeatResult, ended: RoundEnded | None) -> bool:
    return ended is not None and result.seat not in ended.order


def _already_out(rules: RuleSet, result: SeatResult, ended: RoundEnded | None) -> bool:
    return result.score_before >= rules.goal


_SAT_OUT: dict[Sheet, Callable[[RuleSet, SeatResult, RoundEnded | None], bool]] = {
    Sheet.PLACES: _by_places,
    Sheet.OUT: _already_out,
}


def sat_out(rules: RuleSet, result: SeatResult, ended: RoundEnded | None = None) -> bool:
    """Whether the seat had no part in the round: already out of the room when it was
    dealt, or (Bykovo, given the round) out of the tournament or sitting the round out."""
    check = _SAT_OUT.get(rules.format.sheet)
    return check is not None and check(rules, result, ended)


def _head(t: Texts, ended: RoundEnded, rules: RuleSet, names: Sequence[str]) -> str:
    """How the round ended: eggs, the target reached in play, «сортир», a fish, who went out."""
    number, name = ended.round_no, names[ended.seat]
    if ended.eggs:
        return t("round-eggs", round=number, carry=ended.carry_after)
    if ended.reason is RoundEnd.TARGET:
        return t(
            "round-target", round=number, name=name, score=ended.results[ended.seat].score_after
        )
    if ended.reason is RoundEnd.SORTIR:
        return t("round-sortir", round=number, name=name)
    if ended.reason is RoundEnd.FISH:
        places = rules.format.sheet is Sheet.PLACES  # the last tile takes the fish (§4.1)
        return t("round-fish-places" if places else "round-fish", round=number, name=name)
    return t("round-out", round=number, name=name)


UNCOUNTED_HANDS = frozenset({Scoring.FIVES_THREES})
"""Games whose hands never count at a round's end (docs/RULES.md §11): their tiles are
shown without a value."""


def _hands(
    t: Texts, rules: RuleSet, names: Sequence[str], results: Sequence[SeatResult]
) -> list[str]:
    if rules.scoring in UNCOUNTED_HANDS:
        left = [
            t("round-hand-left", name=names[r.seat], tiles=tile_names(rules, r.hand))
            for r in results
        ]
        return [t("round-hands-uncounted"), *left]
    return [
        t("round-hand", name=names[r.seat], tiles=tile_names(rules, r.hand), value=r.hand_value)
        for r in results
    ]


def _sides(playing: Sequence[SeatResult]) -> list[SeatResult]:
    """One result per side that played (its first seat's), in seat order."""
    first: dict[int, SeatResult] = {}
    for r in playing:
        first.setdefault(r.side, r)
    return list(first.values())


def _points_sheet(
    t: Texts, ended: RoundEnded, rules: RuleSet, names: Sequence[str], playing: Sequence[SeatResult]
) -> list[str]:
    """The sheet's head (with the target or limit), then previous → round → total, "+N"
    remembered, 🔓 opened, 🥚 the eggs taken."""
    lines = [t(f"round-sheet-{rules.format.sheet}", goal=rules.goal)]
    for r in _sides(playing):
        remembered = f" (+{r.remembered_after})" if r.remembered_after else ""
        opened = " 🔓" if r.opened and not rules.format.higher_wins else ""
        carry = " 🥚" if r.took_carry else ""
        lines.append(
            t(
                "round-line",
                name=team(t, rules, names, r.side),
                before=r.score_before,
                points=f"{r.round_points:+d}",
                after=r.score_after,
                marks=f"{remembered}{opened}{carry}",
            )
        )
    return lines


def _race_sheet(
    t: Texts, ended: RoundEnded, rules: RuleSet, names: Sequence[str], playing: Sequence[SeatResult]
) -> list[str]:
    """Previous → in play → round → total, up to the target."""
    lines = [t("round-sheet-race", goal=rules.goal)]
    lines += [
        t(
            "round-line-race",
            name=team(t, rules, names, r.side),
            before=r.score_before,
            play=f"{r.play_points:+d}",
            points=f"{r.round_points:+d}",
            after=r.score_after,
        )
        for r in _sides(playing)
    ]
    return lines


def _places_sheet(
    t: Texts, ended: RoundEnded, rules: RuleSet, names: Sequence[str], playing: Sequence[SeatResult]
) -> list[str]:
    """Bykovo: the round's places (🎲 where the lot decided, §4.1), then the sheet."""
    places = ", ".join(
        f"{place}. {names[seat]}{' 🎲' if seat in ended.lots else ''}"
        for place, seat in enumerate(ended.order, start=1)
    )
    lots = [t("round-lots")] if ended.lots else []
    return [
        t("round-places", places=places),
        *lots,
        *_points_sheet(t, ended, rules, names, playing),
    ]


_ROUND_SHEETS = {Sheet.RACE: _race_sheet, Sheet.PLACES: _places_sheet}


def _scored_round(
    t: Texts, ended: RoundEnded, rules: RuleSet, names: Sequence[str], closed: GameState | None
) -> list[str]:
    """The head, the sides put out, who sits the next round out, every hand and the sheet."""
    lines = [_head(t, ended, rules, names)]
    for side in ended.out:  # first: a long caption is cut at its end
        members = [r for r in ended.results if r.side == side]
        who, score = team(t, rules, names, side), members[0].score_after
        lines.append(t("round-side-out", name=who, score=score, members=len(members)))
    over = closed is None or closed.outcome is not None
    resting_next = () if over or closed is None else next_resting(closed)
    if resting_next:
        lines.append(t("round-next", names=", ".join(names[s] for s in resting_next)))
    playing = [r for r in ended.results if not sat_out(rules, r, ended)]
    lines += _hands(t, rules, names, playing)
    sheet = _ROUND_SHEETS.get(rules.format.sheet, _points_sheet)
    return lines + sheet(t, ended, rules, names, playing)


def _general_round(
    t: Texts, ended: RoundEnded, rules: RuleSet, names: Sequence[str], closed: GameState | None
) -> list[str]:
    """«Генерал»'s round (§8): who won (and a General), or a fish replayed; the hands; the
    teams' Generals and rounds won, the queue and the next pairing."""
    if ended.reason is RoundEnd.FISH:
        lines = [t("round-general-fish", round=ended.round_no)]
    else:
        winner = team(t, rules, names, rules.side_of(ended.seat))
        lines = [t("round-general-won", round=ended.round_no, name=winner)]
        if ended.results[ended.seat].round_points:
            lines.append(t("round-general-made", name=names[ended.seat]))
    seated = [r for r in ended.results if closed is None or r.seat not in closed.resting]
    lines += _hands(t, rules, names, seated)
    if closed is not None:
        lines += general_standing(t, closed, names) + general_queue(t, closed, names)
    return lines


_ROUNDS = {Sheet.GENERALS: _general_round}


def round_result(
    t: Texts,
    ended: RoundEnded,
    rules: RuleSet,
    names: Sequence[str],
    closed: GameState | None = None,
) -> str:
    """Every hand revealed and the score sheet of the game's kind; `closed` is the state the
    round ended in (gone after a restart: then the text says less)."""
    write = _ROUNDS.get(rules.format.sheet, _scored_round)
    return "\n".join(write(t, ended, rules, names, closed))


def general_standing(t: Texts, state: GameState, names: Sequence[str]) -> list[str]:
    """Every team's Generals and rounds won (§8)."""
    rules, tally = state.rules, state.tally
    return [
        t(
            "general-standing",
            name=team(t, rules, names, side),
            generals=tally.scores[side],
            wins=tally.wins[side],
        )
        for side in range(rules.sides)
    ]


def general_queue(t: Texts, state: GameState, names: Sequence[str]) -> list[str]:
    """Who waits, and who plays next (§8)."""
    rules, queue = state.rules, state.tally.queue
    if not queue or state.outcome is not None:
        return []
    first, second = (team(t, rules, names, s) for s in range(rules.sides) if s not in queue)
    return [*_waiting(t, state, names), t("general-next", first=first, second=second)]
