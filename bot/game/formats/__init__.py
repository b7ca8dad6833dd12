"""Every game of the family, one `Format` each: the one place that says which game is
which. A new game is a module here, its texts and its section in docs/RULES.md (see
docs/adding-a-format.md)."""

from __future__ import annotations

from bot.game.formats.base import Format, Length, RoundFacts, RoundOutcome, Sheet
from bot.game.formats.bykovo import BYKOVO
from bot.game.formats.collect import CLASSIC, SEA_GOAT
from bot.game.formats.fives import MUGGINS, TELEPHONE
from bot.game.formats.fives_threes import FIVES_THREES
from bot.game.formats.general import GENERAL
from bot.game.formats.goat import GOAT
from bot.game.formats.room import ROOM
from bot.game.kinds import RuleError

FORMATS: dict[str, Format] = {
    f.id: f
    for f in (GOAT, SEA_GOAT, CLASSIC, ROOM, TELEPHONE, MUGGINS, BYKOVO, GENERAL, FIVES_THREES)
}
"""By their ids, in the order /help lists their presets."""


def game_of(scoring: str) -> Format:
    """The game `scoring` names, or `RuleError` listing the games."""
    if scoring not in FORMATS:
        valid = ", ".join(FORMATS)
        raise RuleError(f"scoring={scoring}: choose one of {valid}", "scoring", scoring, valid)
    return FORMATS[scoring]


__all__ = ["FORMATS", "Format", "Length", "RoundFacts", "RoundOutcome", "Sheet", "game_of"]
