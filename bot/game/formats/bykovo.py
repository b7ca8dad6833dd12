"""The Bykovo micro-tournament «вприсядку» (§4): 4–7 take part, four play a round, the
others sit it out; hands add up, the limit eliminates, the last three share the places."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from bot.game.events import EndReason, RoundEnded, WentOut
from bot.game.formats.base import (
    Club,
    ComputerSettings,
    Fixed,
    Presets,
    Progress,
    RoundFacts,
    RoundOutcome,
    Rules,
    Sheet,
    Standing,
)
from bot.game.kinds import DrawMode, FirstLead, NextLead, RuleError, Spinner
from bot.game.scoring import RoundScores, Tally, fresh_tally, shared_places
from bot.game.shuffle import shuffled

BYKOVO_TRUST = 0.0
"""The computers play the search's best outright: every tile is dealt, so the worlds are
narrow, the rollouts play the other seats as the normal level does, and the heuristic's
passes and locks are rough rules the search does better than. Hard's average round place
against three normal seats (bench/arena.py --only bykovo --games 60 --seed 2, one run):
2.08 [1.99, 2.18] at the default trust (2), 1.92 [1.82, 2.02] at none; at 0.5 in between."""
EASY_PASS = 0.05  # how often the easy level keeps a voluntary pass among its choices
BYKOVO_LIMITS = {4: 100, 5: 75, 6: 60, 7: 50}
"""The limit by the number of participants (§4.2)."""


class Bykovo(Club):
    id = "bykovo"
    computers = ComputerSettings(
        valuation="bykovo", heuristic="lock", trust=BYKOVO_TRUST, rests=True, easy_pass=EASY_PASS
    )
    presets: ClassVar[Presets] = {
        "bykovo": {
            "first_lead": FirstLead.ZERO_ZERO,
            "next_lead": NextLead.FIRST_RULE,
            "draw": DrawMode.NONE,
            "voluntary_pass": True,
            "redeal_suit": 0,
            "lone_zero": 0,  # no 0-0 exception: a hand counts its pips (§4.1)
            "target": 0,
        }
    }
    fixed: ClassVar[Fixed] = {
        "first_lead": (FirstLead.ZERO_ZERO,),  # every round is led with 0-0 (§4.1)
        "next_lead": (NextLead.FIRST_RULE,),
        "draw": (DrawMode.NONE,),  # no bazaar
        "keep": (0,),
        "auto_draw": (True,),
        "voluntary_pass": (True,),
        "spinner": (Spinner.NONE,),
        "lone_zero": (0,),
    }
    sheet = Sheet.PLACES
    lengths = (0, 50, 75, 100)
    by_players = True
    eliminating = True
    finishes_circle = True
    seats_by_lot = True

    def most_players(self, rules: Rules) -> int:
        return max(BYKOVO_LIMITS)

    def goal(self, rules: Rules) -> int:
        return rules.target or BYKOVO_LIMITS[rules.players]

    def validate(self, rules: Rules) -> None:
        if rules.teams:
            raise RuleError("the Bykovo tournament is played alone", "teams", "yes", "no")

    def fresh_tally(self, rules: Rules) -> Tally:
        return fresh_tally(rules.sides, eliminating=True, dynamics=True)

    def next_resting(self, state: Progress) -> tuple[int, ...]:
        """Who sits the next round out (§4.2): by lot in the first round; then those who
        sat out play first, and the other seats go to the worst placed of the last round
        (ties: the one behind on score, then lot)."""
        rules, tally = state.rules, state.tally
        still = [s for s in range(rules.players) if not state.is_out(s)]
        resting = len(still) - rules.at_table
        if resting <= 0:
            return ()
        lot = shuffled(still, f"{state.lots}:{state.round_no + 1}:rest")
        last = state.last_round
        if last is None:
            return tuple(sorted(lot[:resting]))

        def claim(seat: int) -> tuple[int, int, int, int]:
            rested = seat in state.resting
            return (not rested, -_placed(last, seat), -tally.scores[seat], lot.index(seat))

        playing = sorted(still, key=claim)[: rules.at_table]
        return tuple(s for s in still if s not in playing)

    def settle_round(self, facts: RoundFacts) -> RoundOutcome:
        """Everyone who played adds their hand, the winner nothing; reaching the limit
        puts a player out (the wave says when), and so does having left the table (a
        computer finished their round). The round's places come with it (§4.1)."""
        state, winner = facts.state, facts.seat
        rules, tally = state.rules, state.tally
        playing = [s for s in range(rules.players) if not state.sits_out(s)]
        points = tuple(
            value if s in playing and s != winner else 0 for s, value in enumerate(facts.values)
        )
        scores = tuple(map(sum, zip(tally.scores, points, strict=True)))
        before = tuple(
            tally.scores[s] if s in playing else was for s, was in enumerate(tally.before)
        )
        wave = max(tally.out) + 1
        out = tuple(
            was or (wave if scores[s] >= rules.goal or s in state.left else 0)
            for s, was in enumerate(tally.out)
        )
        new = tally._replace(scores=scores, out=out, before=before)
        order, lots = _round_places(state, winner, facts.values, playing)
        return RoundOutcome(RoundScores(points, new, False, None, False), order, lots)

    def ending(
        self, rules: Rules, tally: Tally, bald: int | None
    ) -> tuple[EndReason | None, tuple[int, ...]]:
        """The tournament ends when fewer are left than sit at the table."""
        return (EndReason.LAST_IN if len(tally.still_in()) < rules.at_table else None), ()

    def standings(
        self,
        rules: Rules,
        tally: Tally,
        goats: Sequence[int],
        leaver_sides: Sequence[int],
        lots: int,
    ) -> list[Standing]:
        """Those still in first, then the eliminated, later first; within each, the lower
        total, then the better dynamics (behind before the last round played: the higher
        score then); still equal share a place. Leavers last (§4.2)."""
        sides = len(tally.scores)
        return shared_places(
            [
                (-(tally.out[s] or sides + 1), tally.scores[s], -tally.before[s])
                for s in range(sides)
            ],
            leaver_sides,
        )


def _placed(ended: RoundEnded, seat: int) -> int:
    """`seat`'s place in the round (0 is best; -1 if it did not play), equal hands sharing
    the place the lot gave the first of them: for sitting out, a tie is a tie (§4.2)."""
    if seat not in ended.order:
        return -1
    hands = {r.seat: r.hand_value for r in ended.results}
    if seat in ended.lots:
        return min(ended.order.index(o) for o in ended.lots if hands[o] == hands[seat])
    return ended.order.index(seat)


def _round_places(
    state: Progress, winner: int, values: Sequence[int], playing: Sequence[int]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The places in a round (§4.1): the winner, the others who went out in the finished
    circle, in turn, then by ascending hand value, equal hands by lot; and the seats whose
    order the lot decided."""
    gone = [e.seat for e in state.history if isinstance(e, WentOut) and e.seat != winner]
    # the circle's last seat, out as it ended the round, has no `WentOut`: it went out last
    gone += [s for s in playing if not state.hands[s] and s != winner and s not in gone]
    rest = [s for s in playing if s != winner and s not in gone]
    lot = shuffled(rest, f"{state.lots}:{state.round_no}:places")
    rest.sort(key=lambda s: (values[s], lot.index(s)))
    drawn = tuple(s for s in rest if sum(values[o] == values[s] for o in rest) > 1)
    return (winner, *gone, *rest), drawn


BYKOVO = Bykovo()
