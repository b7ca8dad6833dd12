"""Fives and Threes (§11), the British pub game: after every tile the open ends score
S/3 and S/5 where they divide, going out adds one, 61 wins; `exact=yes` must land on it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from bot.game.events import RoundEnd, Scored, TilePlayed
from bot.game.formats.base import (
    ComputerSettings,
    Fixed,
    Options,
    Presets,
    Progress,
    RoundFacts,
    RoundOutcome,
    Rules,
    option,
    own,
)
from bot.game.formats.fives import Race
from bot.game.kinds import DrawMode, FirstLead, NextLead, RuleError, Spinner
from bot.game.scoring import RoundScores, Tally, nothing
from bot.game.table import ends_sum

if TYPE_CHECKING:
    from collections.abc import Sequence

GO = 1  # the point for playing the last tile («chipping out»)
MOST_TILES = 9
REACH = 1000.0  # the computers: a move that wins the race at once, in fives, over any other
FIVES_THREES_TRUST = 1.0
"""The computers: hard's win rate against normal (2 players, the same 200 games each, 0.3 s a
move, one run): 59.5 % at the default trust (2), 68.0 % at 1, 64.0 % at none; at 32 worlds a
move (300 games): 53.7 %, 59.3 %, 51.0 % — none needs more worlds than the clock gives. With
the plays read at their time's scores and the chance valuation (seeds 1 and 2, one sitting):
62.5 % and 68.5 %, against 57.5 % and 69.0 % before."""


def ends_points(total: int) -> int:
    """S/3 where 3 divides the open ends' sum S, plus S/5 where 5 does (15 → 5 + 3 = 8)."""
    return (0 if total % 3 else total // 3) + (0 if total % 5 else total // 5)


@dataclass(frozen=True, slots=True)
class FivesThreesOptions(Options):
    exact: bool = option(False, after="turn_timeout")  # only landing on the target wins (§11)


class FivesThrees(Race):
    id = "fives_threes"
    options = FivesThreesOptions
    hands_count = False  # §11: only the ends and the go point score
    computers = ComputerSettings(
        valuation="chance",
        heuristic="race",
        race_weights=(("pips", 0.0), ("fish", 0.0), ("out", 1.0), ("reach", REACH)),  # no hand
        trust=FIVES_THREES_TRUST,
    )
    presets: ClassVar[Presets] = {
        "fives_threes": {
            "first_lead": FirstLead.LOT,
            "draw": DrawMode.NONE,
            "redeal_doubles": 0,
            "redeal_suit": 0,
            "lone_zero": 0,
            "target": 61,
        }
    }
    lengths = (31, 61, 121)
    fixed: ClassVar[Fixed] = {
        "max_pip": (6,),  # double-six
        "draw": (DrawMode.NONE,),  # no bazaar: the rest is set aside
        "keep": (0,),
        "auto_draw": (True,),
        "redeal_doubles": (0,),  # no redeal, whatever the hands hold
        "redeal_suit": (0,),
        "spinner": (Spinner.NONE,),  # a line with two ends
        "doubles": (1,),
        "double_pair": (False,),
        "closed_doubles": (False,),
        "first_lead": (FirstLead.LOT,),  # then the seat after the last leader
        "next_lead": (NextLead.WINNER,),
        "voluntary_pass": (False,),  # knocking while able to play is not allowed
        "lone_zero": (0,),  # no hand is ever counted
    }
    choices = (("exact", ("no", "yes")), ("teams", ("no", "yes")))
    line_fish = False  # tiles set aside: only a full circle of knocks blocks the round

    def hand_for(self, rules: Rules, players: int) -> int:
        return 7 if players == 2 else 5

    def by_stake(self, rules: Rules) -> bool:
        """With `exact=yes`, only landing on the target exactly wins."""
        return own(rules, FivesThreesOptions).exact

    def next_leader(self, state: Progress, seat: int) -> int:
        """The seat after this round's leader."""
        leader = next(e.seat for e in state.history if isinstance(e, TilePlayed))
        return (leader + 1) % state.rules.players

    def validate(self, rules: Rules) -> None:
        if rules.hand > MOST_TILES:
            raise RuleError(
                f"hand_size={rules.hand}: at most {MOST_TILES}",
                "hand_size",
                str(rules.hand),
                f"1–{MOST_TILES}",
            )

    def move_points(self, rules: Rules, score: int, total: int, out: bool) -> int:
        """The ends' points; with `exact`, nothing for a move whose points and go point
        would pass the target."""
        points = ends_points(total)
        if self.by_stake(rules) and score + points + (GO if out else 0) > rules.goal:
            return 0
        return points

    def settle(
        self, rules: Rules, values: Sequence[int], out_side: int | None, tally: Tally
    ) -> RoundScores:
        """The go point for the side that chipped out; a blocked round scores nothing
        more. No hand is ever counted."""
        if out_side is None:
            return nothing(tally)
        points = tuple(GO if s == out_side else 0 for s in range(len(values)))
        scores = tuple(score + p for score, p in zip(tally.scores, points, strict=True))
        return RoundScores(points, tally._replace(scores=scores), False, None, False)

    def settle_round(self, facts: RoundFacts) -> RoundOutcome:
        """With `exact`, the go point only where the last move did not pass the target:
        its ends scored in play (so it fitted), or scored nothing and the point lands."""
        state = facts.state
        rules, tally = state.rules, state.tally
        if facts.reason is not RoundEnd.OUT:
            return RoundOutcome(nothing(tally))
        side = rules.side_of(facts.seat)
        if self.by_stake(rules) and not isinstance(state.history[-1], Scored):
            lone = facts.placed.bit_length() - 1 if state.on_table == facts.placed else None
            total = ends_sum(rules.tiles, state.ends, state.spread, lone)
            if ends_points(total) or tally.scores[side] + GO > rules.goal:
                return RoundOutcome(nothing(tally))  # the move passed the target: nothing at all
        return RoundOutcome(self.settle(rules, facts.side_values, side, tally))


FIVES_THREES = FivesThrees()
