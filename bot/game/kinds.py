"""The kinds every rule option chooses from, and the error a bad choice raises.

Their own module so that the formats (`bot.game.formats`) and the rule set
(`bot.game.rules`) both build on them without importing each other.
"""

from __future__ import annotations

from enum import StrEnum


class Scoring(StrEnum):
    """How a round is scored and who loses the game."""

    GOAT = "goat"  # points are bad; remembered points; goats at the target (§2)
    SEA_GOAT = "sea_goat"  # the winner records ≥ 25; write-off; bald goat (§3)
    CLASSIC = "classic"  # the winner collects the others' pips (§9)
    ROOM = "room"  # each scores their own pips; the limit puts a side out (§9, game room)
    TELEPHONE = "telephone"  # ends that make a multiple of 5 score sum/5; highest wins (§6)
    MUGGINS = "muggins"  # ends that make a multiple of 5 score the sum; highest wins (§7)
    BYKOVO = "bykovo"  # 4 of 4–7 play a round; hands add up; the limit eliminates (§4)
    GENERAL = "general"  # two teams of a queue play; out on 0-0 / 6-6 is a General (§8)
    FIVES_THREES = "fives_threes"  # ends that divide by 5 or 3 score; to 61, highest wins (§11)


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


class FishMode(StrEnum):
    """Who scores a fish in «Козёл» (§2.5)."""

    ALL = "all"  # «рыба на всех»
    ONE = "one"  # «рыба на одного»


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
