"""The game room (§9): 2–10 players with double-9 or double-12, each scores their own
hand, the limit puts a side out, the last side in wins."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from bot.game.events import EndReason
from bot.game.formats.base import (
    ComputerSettings,
    Format,
    Presets,
    Rules,
    Sheet,
    Standing,
    leaver_key,
)
from bot.game.kinds import DrawMode, FirstLead, NextLead, RuleError
from bot.game.scoring import RoundScores, Tally, fresh_tally

ROOM_BUDGET_S = 0.6  # the hard level thinks longer: five or more hands hidden, long rounds
ROOM_ZERO = 10  # 0-0 is worth 10 in any hand
ROOM_SETS = (6, 9, 12)
ROOM_HANDS = {
    6: ((4, 7),),
    9: ((4, 7), (7, 6), (10, 5)),
    12: ((6, 7), (10, 6)),
}
"""The hand size by set: `(up to this many players, tiles each)`, first match."""


class Room(Format):
    id = "room"
    computers = ComputerSettings(
        valuation="room",
        costs="alone",
        budget_s=ROOM_BUDGET_S,
        trust=0.0,
        weighted=False,  # five hidden hands: weights settle on a few worlds (`bot.ai.search`)
    )
    presets: ClassVar[Presets] = {
        "room": {
            "max_pip": 9,
            "first_lead": FirstLead.HIGHEST_DOUBLE,
            "next_lead": NextLead.FIRST_RULE,
            "draw": DrawMode.ONE,
            "redeal_doubles": 0,
            "redeal_suit": 0,
            "target": 100,
        }
    }
    sheet = Sheet.OUT
    lengths = (50, 100, 150)
    eliminating = True
    choices = (("max_pip", tuple(map(str, ROOM_SETS))), ("teams", ("no", "yes")))

    def most_players(self, rules: Rules) -> int:
        return ROOM_HANDS[rules.max_pip][-1][0]

    def hand_for(self, rules: Rules, players: int) -> int:
        return next(size for most, size in ROOM_HANDS[rules.max_pip] if players <= most)

    def validate(self, rules: Rules) -> None:
        if rules.max_pip not in ROOM_SETS:
            raise RuleError(
                f"max_pip={rules.max_pip}: the room plays double-6, double-9 or double-12",
                "max_pip",
                str(rules.max_pip),
                ", ".join(map(str, ROOM_SETS)),
            )

    def fresh_tally(self, rules: Rules) -> Tally:
        return fresh_tally(rules.sides, eliminating=True)

    def hand_value(self, rules: Rules, hand: int) -> int:
        """Its pips, 0-0 adding 10 in any hand."""
        return rules.tiles.pip_sum(hand) + (ROOM_ZERO if hand & 1 else 0)

    def settle(
        self, rules: Rules, values: Sequence[int], out_side: int | None, tally: Tally
    ) -> RoundScores:
        """Every side in scores its own pips; when a player went out, their partners'
        tiles count against every other side too; the limit puts a side out."""
        partners = values[out_side] if out_side is not None else 0
        points = tuple(
            0 if tally.out[s] or s == out_side else value + partners
            for s, value in enumerate(values)
        )
        scores = tuple(map(sum, zip(tally.scores, points, strict=True)))
        wave = max(tally.out) + 1
        out = tuple(
            was or (wave if scores[s] >= rules.target else 0) for s, was in enumerate(tally.out)
        )
        return RoundScores(points, tally._replace(scores=scores, out=out), False, None, False)

    def ending(
        self, rules: Rules, tally: Tally, bald: int | None
    ) -> tuple[EndReason | None, tuple[int, ...]]:
        """One side left in wins."""
        return (EndReason.LAST_IN if len(tally.still_in()) <= 1 else None), ()

    def standings(
        self,
        rules: Rules,
        tally: Tally,
        goats: Sequence[int],
        leaver_sides: Sequence[int],
        lots: int,
    ) -> list[Standing]:
        """The last side in first, then by going out, later first (at once: the lower
        total first); leavers last, gaining nothing. Nobody is a goat; the others gain one
        point per side placed below them."""
        sides = len(tally.scores)

        def key(s: int) -> tuple[int, int, int, int]:
            return (leaver_key(leaver_sides, s), -(tally.out[s] or sides + 1), tally.scores[s], s)

        order = sorted(range(sides), key=key)
        return [
            (side, place, False, 0 if side in leaver_sides else sides - place)
            for place, side in enumerate(order, start=1)
        ]


ROOM = Room()
