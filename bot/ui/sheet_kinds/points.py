"""The points sheet (Козёл, classic): previous / round / total and remembered points. It is
every other kind's base: a kind of sheet says only what it shows differently."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from bot.game.engine import next_resting
from bot.game.events import EndReason, GameEnded, Place, RoundEnd, RoundEnded, SeatResult
from bot.game.rules import RuleSet
from bot.game.scoring import Tally
from bot.game.state import GameState
from bot.ui.i18n import Texts
from bot.ui.texts import side_name
from render.scene import ScoreRow, SheetKind

OUT_MARK = "🚪"
"""Marks a side that is out of the game (the room, Bykovo)."""


def team(t: Texts, rules: RuleSet, names: Sequence[str], side: int) -> str:
    """A side's name: its players («Маша и Оля»)."""
    return side_name(t, [names[s] for s in range(rules.players) if rules.side_of(s) == side])


def sides(playing: Sequence[SeatResult]) -> list[SeatResult]:
    """One result per side that played (its first seat's), in seat order."""
    first: dict[int, SeatResult] = {}
    for r in playing:
        first.setdefault(r.side, r)
    return list(first.values())


def scored_place(t: Texts, place: Place, names: Sequence[str], tally: Tally) -> str:
    """A place with its score alone (no goats, no rating points)."""
    return t("game-place-race", place=place.place, name=names[place.seat], score=place.score)


class PointsSheet:
    """What the texts, the pictures and the hands say of a game by its kind of sheet: the
    scores line, the caption, a round's result, the game's end, the picture's rows."""

    kind: ClassVar[SheetKind] = SheetKind.POINTS
    """The picture's columns."""
    fish: ClassVar[str] = "round-fish"
    """A round's head when it ends in a fish."""
    won: ClassVar[str] = "game-over"
    left: ClassVar[str] = "game-over-left"
    """The game's end: who won, and who left."""
    hand_out: ClassVar[str] = "hand-out"
    """What the hand of someone put out of the game says from then on …"""
    hand_waiting: ClassVar[str] = "hand-resting"
    """… and of someone who waits while a round is played without them."""

    def part(self, t: Texts, tally: Tally, side: int, who: str) -> str:
        """A side in the scores line: `Маша: 12 (+5)`, out of the game `Маша: 105 🚪`."""
        remembered = f" (+{tally.remembered[side]})" if tally.remembered[side] else ""
        out = f" {OUT_MARK}" if tally.out and tally.out[side] else ""
        return f"{who}: {tally.scores[side]}{remembered}{out}"

    def resting(self, t: Texts, state: GameState, names: Sequence[str]) -> list[str]:
        """The caption's words for who waits while the round is played."""
        return []

    def sat_out(self, rules: RuleSet, result: SeatResult, ended: RoundEnded | None) -> bool:
        """Whether the seat had no part in the round (`ended`, if given)."""
        return False

    # -- a round's result: its head, every hand shown, the sheet ------------------------------

    def round_head(
        self,
        t: Texts,
        ended: RoundEnded,
        rules: RuleSet,
        names: Sequence[str],
        closed: GameState | None,
    ) -> list[str]:
        """How the round ended, the sides put out, who sits the next round out."""
        lines = [self._how(t, ended, names)]
        for side in ended.out:  # first: a long caption is cut at its end
            members = [r for r in ended.results if r.side == side]
            who, score = team(t, rules, names, side), members[0].score_after
            lines.append(t("round-side-out", name=who, score=score, members=len(members)))
        over = closed is None or closed.outcome is not None
        resting_next = () if over or closed is None else next_resting(closed)
        if resting_next:
            lines.append(t("round-next", names=", ".join(names[s] for s in resting_next)))
        return lines

    def _how(self, t: Texts, ended: RoundEnded, names: Sequence[str]) -> str:
        """Eggs, the target reached in play, «сортир», a fish, who went out."""
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
            return t(self.fish, round=number, name=name)
        return t("round-out", round=number, name=name)

    def round_seats(
        self, ended: RoundEnded, rules: RuleSet, closed: GameState | None
    ) -> list[SeatResult]:
        """The seats whose hands the round's result shows: those who played it."""
        return [r for r in ended.results if not self.sat_out(rules, r, ended)]

    def round_sheet(
        self,
        t: Texts,
        ended: RoundEnded,
        rules: RuleSet,
        names: Sequence[str],
        shown: Sequence[SeatResult],
        closed: GameState | None,
    ) -> list[str]:
        """The sheet's head (with the target or limit), then previous → round → total, "+N"
        remembered, 🔓 opened, 🥚 the eggs taken."""
        lines = [t(f"round-sheet-{rules.format.sheet}", goal=rules.goal)]
        for r in sides(shown):
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

    # -- the game: /score and its end ----------------------------------------------------------

    def score_extras(self, t: Texts, state: GameState, names: Sequence[str]) -> list[str]:
        """/score's lines after how the game is won."""
        return []

    def end(
        self, t: Texts, ended: GameEnded, names: Sequence[str], rules: RuleSet, tally: Tally
    ) -> list[str]:
        """Why the game ended and every place with its score (`tally`: the final sheet)."""
        lines = [self._winner(t, ended, names)]
        if ended.reason is not EndReason.TIMEOUT and ended.leaver is not None:
            lines.append(t(self.left, name=names[ended.leaver]))
        return lines + [self.place(t, p, names, tally) for p in ended.places]

    def _winner(self, t: Texts, ended: GameEnded, names: Sequence[str]) -> str:
        """Why the game ended: a leaver, the bald goat, the last one in, the target."""
        winners = [names[p.seat] for p in ended.places if p.side == ended.places[0].side]
        if ended.reason is EndReason.TIMEOUT and ended.leaver is not None:
            return t("game-over-timeout", name=names[ended.leaver])
        if ended.reason is EndReason.BALD_GOAT:
            return t("game-over-bald")
        if ended.reason is EndReason.LAST_IN:
            return t("game-over-last-in", name=side_name(t, winners))
        return t(self.won, name=side_name(t, winners), score=ended.places[0].score)

    def place(self, t: Texts, place: Place, names: Sequence[str], tally: Tally) -> str:
        """A place with its score, the goat or (below the winner) out of the room, and the
        rating points."""
        goat = t("game-place-goat") if place.goat else ""
        out = f" {OUT_MARK}" if place.place > 1 and tally.out and tally.out[place.side] else ""
        return t(
            "game-place",
            place=place.place,
            name=names[place.seat],
            score=place.score,
            mark=f"{goat}{out}",
            points=place.rating_points,
        )

    def farewell(self, t: Texts, game: str, place: Place, total: int) -> str:
        """The last word of a finished game's private hand: the reader's place among the
        `total` sides and their score, a goat said so."""
        goat = t("game-over-you-goat") if place.goat else ""
        return t(
            "game-over-you", game=game, place=place.place, total=total, score=place.score, goat=goat
        )

    # -- the picture -----------------------------------------------------------------------------

    def rows(self, t: Texts, state: GameState, names: Sequence[str]) -> tuple[ScoreRow, ...]:
        """The score sheet's rows after the last round: one per side (partners together):
        previous, round, total, remembered points, goats once the game is over, out of the
        game."""
        ended = state.last_round
        assert ended is not None
        goats = {p.side for p in state.outcome.places if p.goat} if state.outcome else set()
        rows = []
        for side in range(state.rules.sides):
            members = [r for r in ended.results if r.side == side]
            first = members[0]
            rows.append(
                ScoreRow(
                    name=side_name(t, [names[r.seat] for r in members]),
                    previous=first.score_before,
                    round_points=first.round_points,
                    play_points=first.play_points,
                    total=first.score_after,
                    remembered=first.remembered_after,
                    opened=first.opened,
                    goat=side in goats,
                    out=bool(state.tally.out) and bool(state.tally.out[side]),
                )
            )
        return tuple(rows)
