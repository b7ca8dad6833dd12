"""The games where the one who goes out collects the others' hands: «Морской козёл» (§3)
and classic draw dominoes (§9). Points are good; whoever has the most at the target wins,
the others are goats."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from bot.game.events import EndReason
from bot.game.formats.base import (
    TABLE_PLAYERS,
    ComputerSettings,
    Format,
    Options,
    Presets,
    Rules,
    Standing,
    option,
    own,
)
from bot.game.kinds import FirstLead, NextLead, RuleError
from bot.game.scoring import RoundScores, Tally, eggs, nothing, rated_places, unique_extreme

SEA_LONE_TOP = 50  # Sea Goat: a hand that is just the top double (6-6)
SEA_ZERO_AND_TOP = 75  # … just 0-0 and the top double


class Collect(Format):
    """One winner per round collects from the others (a blocked round: the lowest hand)."""

    higher_wins = True

    def settle(
        self, rules: Rules, values: Sequence[int], out_side: int | None, tally: Tally
    ) -> RoundScores:
        sides = range(len(values))
        winner = out_side if out_side is not None else unique_extreme(values, sides, lowest=True)
        if winner is None:
            return self.tie(tally, sum(values))
        won = sum(values) - values[winner] + tally.carry
        carry_taker = winner if tally.carry else None
        scores = list(tally.scores)
        points = [0] * len(values)
        written_off = False
        if won >= self.least_record(rules):
            if self.writes_off(rules) and any(scores[s] for s in sides if s != winner):
                scores = [0] * len(values)
                written_off = True
            else:
                scores[winner] += won
                points[winner] = won
        new = tally._replace(scores=tuple(scores), carry=0)
        return RoundScores(tuple(points), new, False, carry_taker, written_off)

    def tie(self, tally: Tally, total: int) -> RoundScores:
        """A blocked round with no single lowest hand: a draw."""
        return nothing(tally)

    def least_record(self, rules: Rules) -> int:
        """The smallest sum a winner may record."""
        return 0

    def writes_off(self, rules: Rules) -> bool:
        """Whether a new winner wipes the other sides' points instead of recording."""
        return False

    def ending(
        self, rules: Rules, tally: Tally, bald: int | None
    ) -> tuple[EndReason | None, tuple[int, ...]]:
        """Everyone but the bald goat's side, or once the target is reached everyone but
        the highest, is a goat (§3, §9)."""
        sides = range(len(tally.scores))
        if bald is not None:
            return EndReason.BALD_GOAT, tuple(s for s in sides if s != bald)
        top = max(tally.scores)
        if top < rules.target:
            return None, ()
        return EndReason.TARGET, tuple(s for s in sides if tally.scores[s] != top)

    def standings(
        self,
        rules: Rules,
        tally: Tally,
        goats: Sequence[int],
        leaver_sides: Sequence[int],
        lots: int,
    ) -> list[Standing]:
        return rated_places(tally, goats, leaver_sides, low_wins=False)


@dataclass(frozen=True, slots=True)
class SeaGoatOptions(Options):
    record_min: int = option(25, after="target", within=(0, 1_000))  # the least a winner records
    bald_goat: bool = option(False, after="closed_doubles")  # out with 0-0 (6-6) wins the game
    write_off: bool = option(False, after="closed_doubles")  # a new winner wipes the others


class SeaGoat(Collect):
    """«Морской козёл» (§3): the winner records only 25 or more, a fish nobody takes
    waits as eggs, a new winner may write the other side off, the bald goat ends it."""

    id = "sea_goat"
    options = SeaGoatOptions
    computers = ComputerSettings(valuation="record")
    presets: ClassVar[Presets] = {
        "sea_goat": {
            "players": 2,
            "lone_zero": 25,
            "target": 125,
            "double_pair": True,
            "bald_goat": True,
            "write_off": True,
        }
    }
    lengths = (75, 125, 150, 200)

    def validate(self, rules: Rules) -> None:
        if not (rules.players == 2 or rules.teams):
            raise RuleError(
                f"sea_goat is played by 2 players or by 4 in teams, not {rules.players} alone",
                "players",
                str(rules.players),
                f"2, {TABLE_PLAYERS} (teams=yes)",
            )

    def hand_value(self, rules: Rules, hand: int) -> int:
        """0-0 alone `lone_zero`, the top double alone 50, the two of them 75 (§3)."""
        tiles = rules.tiles
        zero, top = 1, 1 << tiles.tile(tiles.max_pip, tiles.max_pip)
        special = {zero: rules.lone_zero, top: SEA_LONE_TOP, zero | top: SEA_ZERO_AND_TOP}
        return special.get(hand, tiles.pip_sum(hand))

    def tie(self, tally: Tally, total: int) -> RoundScores:
        return eggs(tally, total)

    def least_record(self, rules: Rules) -> int:
        return own(rules, SeaGoatOptions).record_min

    def writes_off(self, rules: Rules) -> bool:
        return own(rules, SeaGoatOptions).write_off

    def is_bald(self, rules: Rules, placed: int, values: Sequence[int], seat: int) -> bool:
        """Out with 0-0, or with the top double while a loser holds ≥ 25 (§3)."""
        mine = own(rules, SeaGoatOptions)
        if not mine.bald_goat:
            return False
        if placed & 1:  # 0-0 is tile 0
            return True
        top = rules.tiles.tile(rules.tiles.max_pip, rules.tiles.max_pip)
        side = rules.side_of(seat)
        losers = (v for s, v in enumerate(values) if rules.side_of(s) != side)
        return bool(placed >> top & 1) and any(v >= mine.record_min for v in losers)


class Classic(Collect):
    """Classic draw dominoes (§9): 5 tiles each with 3–4 players, the highest double leads."""

    id = "classic"
    computers = ComputerSettings(valuation="record")
    presets: ClassVar[Presets] = {
        "classic": {
            "first_lead": FirstLead.HIGHEST_DOUBLE,
            "next_lead": NextLead.FIRST_RULE,
            "redeal_doubles": 0,
            "redeal_suit": 0,
            "lone_zero": 0,
            "target": 100,
        }
    }
    lengths = (50, 100, 150, 200)

    def hand_for(self, rules: Rules, players: int) -> int:
        return 5 if players > 2 else 7


SEA_GOAT = SeaGoat()
CLASSIC = Classic()
