"""The room's sheet: the points sheet, up to the limit that puts a side out of the game."""

from __future__ import annotations

from typing import ClassVar

from bot.game.events import RoundEnded, SeatResult
from bot.game.rules import RuleSet
from bot.ui.sheet_kinds.points import PointsSheet
from render.scene import SheetKind


class OutSheet(PointsSheet):
    kind: ClassVar[SheetKind] = SheetKind.OUT

    def sat_out(self, rules: RuleSet, result: SeatResult, ended: RoundEnded | None) -> bool:
        """Already out of the room when the round was dealt."""
        return result.score_before >= rules.goal
