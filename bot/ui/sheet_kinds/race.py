"""The race's sheet (Телефон, Muggins, Fives and Threes): the points scored in play and for
the round, up to the target; the most wins, with neither goats nor rating points."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from bot.game.events import Place, RoundEnded, SeatResult
from bot.game.rules import RuleSet
from bot.game.scoring import Tally
from bot.game.state import GameState
from bot.ui.i18n import Texts
from bot.ui.sheet_kinds.points import PointsSheet, scored_place, sides, team
from render.scene import SheetKind


class RaceSheet(PointsSheet):
    kind: ClassVar[SheetKind] = SheetKind.RACE
    won: ClassVar[str] = "game-over-race"
    left: ClassVar[str] = "game-over-left-race"

    def round_sheet(
        self,
        t: Texts,
        ended: RoundEnded,
        rules: RuleSet,
        names: Sequence[str],
        shown: Sequence[SeatResult],
        closed: GameState | None,
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
            for r in sides(shown)
        ]
        return lines

    def place(self, t: Texts, place: Place, names: Sequence[str], tally: Tally) -> str:
        return scored_place(t, place, names, tally)
