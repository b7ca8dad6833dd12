"""The races on a spinner where open ends that make a multiple of 5 score: «Телефон»
(§6, the sum / 5, to 72) and Muggins (§7, the sum itself, to 200 or 250). Going out wins
the others' pips; the highest score wins, no goats."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from bot.game.formats.base import ComputerSettings, Format, Presets, Rules, Sheet, Standing
from bot.game.kinds import FirstLead, Spinner
from bot.game.scoring import RoundScores, Tally, shared_places, unique_extreme

MUGGINS_TWO, MUGGINS_MORE = 250, 200


class Race(Format):
    """Points scored in play and at the round's end; whoever reaches the goal wins at
    once (the race Decision before §7); places by score, equal scores share one."""

    sheet = Sheet.RACE
    higher_wins = True
    scores_in_play = True

    def standings(
        self,
        rules: Rules,
        tally: Tally,
        goats: Sequence[int],
        leaver_sides: Sequence[int],
        lots: int,
    ) -> list[Standing]:
        return shared_places([(-score,) for score in tally.scores], leaver_sides)


class Fives(Race):
    """Who went out wins the others' pips; on a block the one lowest hand wins the
    differences to every other (nobody on a tie), rounded as the format rounds."""

    divisor: int

    def ends_points(self, total: int) -> int:
        """What open ends adding up to `total` score, when it is a multiple of 5."""
        if not total or total % 5:
            return 0
        return total // self.divisor

    def move_points(self, rules: Rules, score: int, total: int, out: bool) -> int:
        return self.ends_points(total)

    def rounded(self, pips: int) -> int:
        raise NotImplementedError

    def settle(
        self, rules: Rules, values: Sequence[int], out_side: int | None, tally: Tally
    ) -> RoundScores:
        sides = range(len(values))
        winner = unique_extreme(values, sides, lowest=True)
        points = [0] * len(values)
        if out_side is not None:
            points[out_side] = self.rounded(sum(values) - values[out_side])
        elif winner is not None:
            points[winner] = self.rounded(sum(v - values[winner] for v in values))
        scores = tuple(score + p for score, p in zip(tally.scores, points, strict=True))
        return RoundScores(tuple(points), tally._replace(scores=scores), False, None, False)


class Telephone(Fives):
    """«Телефон» (§6): the sum / 5 in play, the pips won / 5 rounded up, to 72."""

    id = "telephone"
    computers = ComputerSettings(valuation="race", heuristic="race")
    presets: ClassVar[Presets] = {
        "telephone": {
            "spinner": Spinner.FOUR,
            "redeal_doubles": 0,
            "redeal_suit": 0,
            "lone_zero": 0,
            "target": 72,
        }
    }
    lengths = (36, 72, 100, 150)
    divisor = 5

    def rounded(self, pips: int) -> int:
        return -(-pips // 5)


class Muggins(Fives):
    """Muggins (§7): the sum in play, the pips won to the nearest 5, to 250 for two and
    200 for more (`target=0`), 5 tiles each with 3–4 players."""

    id = "muggins"
    computers = ComputerSettings(valuation="race", heuristic="race", point=1)
    presets: ClassVar[Presets] = {
        "muggins": {
            "spinner": Spinner.SIDES,
            "first_lead": FirstLead.LOT,
            "redeal_doubles": 0,
            "redeal_suit": 0,
            "lone_zero": 0,
            "target": 0,
        }
    }
    lengths = (0, 100, 150, 200, 250)
    divisor = 1
    by_players = True

    def hand_for(self, rules: Rules, players: int) -> int:
        return 5 if players > 2 else 7

    def goal(self, rules: Rules) -> int:
        if rules.target:
            return rules.target
        return MUGGINS_TWO if rules.players == 2 else MUGGINS_MORE

    def rounded(self, pips: int) -> int:
        return (pips + 2) // 5 * 5


TELEPHONE = Telephone()
MUGGINS = Muggins()
