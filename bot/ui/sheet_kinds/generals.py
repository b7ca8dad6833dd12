"""«Генерал»'s sheet (§8): each team's Generals and rounds won, the teams waiting their turn
in the queue and the next pairing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from bot.game.events import GameEnded, Place, RoundEnd, RoundEnded, SeatResult
from bot.game.rules import RuleSet
from bot.game.scoring import Tally
from bot.game.state import GameState
from bot.ui.i18n import Texts
from bot.ui.sheet_kinds.points import PointsSheet, team
from render.scene import ScoreRow, SheetKind


class GeneralsSheet(PointsSheet):
    kind: ClassVar[SheetKind] = SheetKind.GENERALS
    hand_waiting: ClassVar[str] = "hand-queued"  # their team waits in the queue

    def part(self, t: Texts, tally: Tally, side: int, who: str) -> str:
        """`Маша и Оля: генералов 1, побед 3`."""
        return t(
            "score-part-generals", name=who, generals=tally.scores[side], wins=tally.wins[side]
        )

    def resting(self, t: Texts, state: GameState, names: Sequence[str]) -> list[str]:
        """The teams waiting their turn."""
        rules = state.rules
        waiting = ", ".join(team(t, rules, names, side) for side in state.tally.queue)
        return [t("general-waiting", names=waiting)] if waiting else []

    def round_head(
        self,
        t: Texts,
        ended: RoundEnded,
        rules: RuleSet,
        names: Sequence[str],
        closed: GameState | None,
    ) -> list[str]:
        """Who won the round (and a General), or a fish replayed."""
        if ended.reason is RoundEnd.FISH:
            return [t("round-general-fish", round=ended.round_no)]
        winner = team(t, rules, names, rules.side_of(ended.seat))
        lines = [t("round-general-won", round=ended.round_no, name=winner)]
        if ended.results[ended.seat].round_points:
            lines.append(t("round-general-made", name=names[ended.seat]))
        return lines

    def round_seats(
        self, ended: RoundEnded, rules: RuleSet, closed: GameState | None
    ) -> list[SeatResult]:
        """The teams that played the round (not known after a restart: every seat)."""
        return [r for r in ended.results if closed is None or r.seat not in closed.resting]

    def round_sheet(
        self,
        t: Texts,
        ended: RoundEnded,
        rules: RuleSet,
        names: Sequence[str],
        shown: Sequence[SeatResult],
        closed: GameState | None,
    ) -> list[str]:
        """The teams' Generals and rounds won, the queue and the next pairing."""
        if closed is None:
            return []
        return self._standing(t, closed, names) + self.score_extras(t, closed, names)

    def _standing(self, t: Texts, state: GameState, names: Sequence[str]) -> list[str]:
        """Every team's Generals and rounds won."""
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

    def score_extras(self, t: Texts, state: GameState, names: Sequence[str]) -> list[str]:
        """Who waits, and who plays next."""
        rules, queue = state.rules, state.tally.queue
        if not queue or state.outcome is not None:
            return []
        first, second = (team(t, rules, names, s) for s in range(rules.sides) if s not in queue)
        return [*self.resting(t, state, names), t("general-next", first=first, second=second)]

    def end(
        self, t: Texts, ended: GameEnded, names: Sequence[str], rules: RuleSet, tally: Tally
    ) -> list[str]:
        """The winning team, then each team's place, Generals and rounds won."""
        order = list(dict.fromkeys(p.side for p in ended.places))
        lines = [t("game-over-generals", name=team(t, rules, names, order[0]))]
        if ended.leaver is not None:
            lines.append(t("game-over-left-race", name=names[ended.leaver]))
        for side in order:
            place = next(p for p in ended.places if p.side == side)
            lines.append(
                t(
                    "game-place-generals",
                    place=place.place,
                    name=team(t, rules, names, side),
                    generals=place.score,
                    wins=tally.wins[side],
                )
            )
        return lines

    def farewell(self, t: Texts, game: str, place: Place, total: int) -> str:
        """… and the Generals their team made."""
        return t(
            "game-over-you-generals",
            game=game,
            place=place.place,
            total=total,
            generals=place.score,
        )

    def rows(self, t: Texts, state: GameState, names: Sequence[str]) -> tuple[ScoreRow, ...]:
        """One row per team, the round's winner with 1 (and its General), the Generals and
        the rounds won."""
        ended = state.last_round
        assert ended is not None
        rules, tally = state.rules, state.tally
        winner = rules.side_of(ended.seat) if ended.reason is RoundEnd.OUT else None
        made = winner is not None and bool(ended.results[ended.seat].round_points)
        return tuple(
            ScoreRow(
                name=team(t, rules, names, side),
                previous=tally.scores[side] - int(made and side == winner),
                round_points=int(side == winner),
                total=tally.scores[side],
                remembered=0,
                opened=False,
                goat=False,
                wins=tally.wins[side],
                general=made and side == winner,
            )
            for side in range(rules.sides)
        )
