"""The kinds every rule option chooses from, and the error a bad choice raises.

Their own module so that the formats (`bot.game.formats`) and the rule set
(`bot.game.rules`) both build on them without importing each other.
"""

from __future__ import annotations

from enum import StrEnum


class Spinner(StrEnum):
    """Whether the first open double opens four arms (§5–§7)."""

    NONE = "none"  # a line: two ends only
    FOUR = "four"  # all four sides at once (Осёл, Телефон)
    SIDES = "sides"  # its two other sides once both long sides hold a tile (All Fives)


class FirstLead(StrEnum):
    """Who leads the first round, and with which tile."""

    ONE_ONE = "one_one"  # 1-1, 2-2 … 6-6, 0-0, then the highest tile (§2.2)
    HIGHEST_DOUBLE = "highest_double"  # 6-6, 5-5 … 0-0, then the highest tile (§9)
    ZERO_ZERO = "zero_zero"  # 0-0 first, then as one_one (§4.1)
    LOT = "lot"  # a seat drawn by lot leads with any tile (§7)


class NextLead(StrEnum):
    """Who leads the later rounds."""

    WINNER = "winner"  # the player who went out, or the fisherman, with any tile (§1.7)
    FIRST_RULE = "first_rule"  # the first-lead rule again


class DrawMode(StrEnum):
    """What a player who cannot play does with the bazaar (§1.5)."""

    UNTIL_PLAYABLE = "until_playable"
    ONE = "one"
    NONE = "none"


class RuleError(ValueError):
    """A bad option value or combination; `key` names the option, `valid` the choices."""

    def __init__(
        self,
        message: str,
        key: str = "",
        value: str = "",
        valid: str = "",
        number: bool = False,
        game: str = "",
    ) -> None:
        super().__init__(message)
        self.key = key
        self.value = value
        self.valid = valid  # option values, numbers, ranges: no words of any language
        self.number = number  # the option takes a whole number
        self.game = game  # the game does not play it: `valid` is what it plays (or its options)
