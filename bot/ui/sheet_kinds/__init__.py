"""The kinds of score sheet, one class each: what the texts, the pictures and the hands say
of a game by the `Sheet` its format keeps. A new kind is a class (a `PointsSheet` that says
what it shows differently) and its line in `SHEETS`."""

from __future__ import annotations

from bot.game.formats import Sheet
from bot.game.rules import RuleSet
from bot.ui.sheet_kinds.generals import GeneralsSheet
from bot.ui.sheet_kinds.out import OutSheet
from bot.ui.sheet_kinds.places import PlacesSheet
from bot.ui.sheet_kinds.points import OUT_MARK, PointsSheet, team
from bot.ui.sheet_kinds.race import RaceSheet

SHEETS: dict[Sheet, PointsSheet] = {
    Sheet.POINTS: PointsSheet(),
    Sheet.RACE: RaceSheet(),
    Sheet.OUT: OutSheet(),
    Sheet.PLACES: PlacesSheet(),
    Sheet.GENERALS: GeneralsSheet(),
}
"""Each format's `Sheet`, the one place that says which kind is which."""

WAITING = frozenset(kind.hand_waiting for kind in SHEETS.values())
"""What a hand says while its seat waits for a round, by any kind."""


def sheet_of(rules: RuleSet) -> PointsSheet:
    """The kind of sheet the game keeps."""
    return SHEETS[rules.format.sheet]


__all__ = ["OUT_MARK", "SHEETS", "WAITING", "PointsSheet", "sheet_of", "team"]
