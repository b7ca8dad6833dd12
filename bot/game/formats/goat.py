"""«Козёл» (§2), its teams (§2.8) and «Осёл» (§5): points are bad, the account opens at
`open_threshold` (smaller sums are remembered), whoever reaches the target is the goat."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from bot.game.events import EndReason
from bot.game.formats.base import (
    ComputerSettings,
    Format,
    Options,
    Presets,
    Rules,
    Standing,
    option,
    own,
)
from bot.game.kinds import Spinner
from bot.game.scoring import RoundScores, Tally, eggs, rated_places, unique_extreme


class FishMode(StrEnum):
    """Who scores a fish in «Козёл» (§2.5)."""

    ALL = "all"  # «рыба на всех»
    ONE = "one"  # «рыба на одного»


@dataclass(frozen=True, slots=True)
class GoatOptions(Options):
    # a loser's account opens at this sum (0: at once)
    open_threshold: int = option(13, after="voluntary_pass", within=(0, 1_000))
    fish: FishMode = option(FishMode.ONE, after="lone_zero")


class Goat(Format):
    id = "goat"
    options = GoatOptions
    computers = ComputerSettings(valuation="penalty")
    presets: ClassVar[Presets] = {
        "goat": {},
        "goat_teams": {"teams": True},
        "donkey": {"spinner": Spinner.FOUR, "doubles": 4, "closed_doubles": True},
    }
    lengths = (51, 101, 125, 150)
    choices = (("fish", ("one", "all")),)

    def settle(
        self, rules: Rules, values: Sequence[int], out_side: int | None, tally: Tally
    ) -> RoundScores:
        """The losers score their hands (a fish: one or all, §2.5); a loser's account
        opens at `open_threshold`, smaller sums are remembered until it does (§2.4)."""
        mine = own(rules, GoatOptions)
        sides = range(len(values))
        points = [0] * len(values)
        cleared: list[int] = []
        if out_side is not None:
            losers = [s for s in sides if s != out_side]
            cleared = [out_side]
            for s in losers:
                points[s] = values[s]
        elif mine.fish is FishMode.ALL:
            losers = list(sides)
            points = list(values)
        else:
            taker = unique_extreme(values, sides, lowest=False)
            if taker is None:
                return eggs(tally, sum(values))
            losers = [taker]
            points[taker] = sum(values)
            cleared = [s for s in sides if s != taker]
        carry, carry_taker = tally.carry, None
        if carry:
            carry_taker = unique_extreme(points, losers, lowest=False)
            if carry_taker is not None:
                points[carry_taker] += carry
                carry = 0
        scores, remembered, opened = list(tally.scores), list(tally.remembered), list(tally.opened)
        for s in losers:
            p = points[s]
            if opened[s]:
                scores[s] += p
            elif mine.open_threshold and p < mine.open_threshold:
                remembered[s] += p
            else:
                scores[s] += p + remembered[s]
                remembered[s] = 0
                opened[s] = True
        for s in cleared:
            remembered[s] = 0
        new = Tally(tuple(scores), tuple(remembered), tuple(opened), carry)
        return RoundScores(tuple(points), new, False, carry_taker, False)

    def ending(
        self, rules: Rules, tally: Tally, bald: int | None
    ) -> tuple[EndReason | None, tuple[int, ...]]:
        """Whoever has reached the target is a goat (§2.6)."""
        goats = tuple(s for s, score in enumerate(tally.scores) if score >= rules.target)
        return (EndReason.TARGET if goats else None), goats

    def standings(
        self,
        rules: Rules,
        tally: Tally,
        goats: Sequence[int],
        leaver_sides: Sequence[int],
        lots: int,
    ) -> list[Standing]:
        return rated_places(tally, goats, leaver_sides, low_wins=True)


GOAT = Goat()
