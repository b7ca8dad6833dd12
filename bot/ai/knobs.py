"""What differs per game for the computers: one `Knobs` per `Scoring`, as
`bot.game.formats.FORMATS` holds one `Format` — the one place in `bot.ai` that says which
game is which. The rest of `bot.ai` asks `KNOBS[rules.scoring]` (or the format)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.ai.weights import RACE, RaceWeights
from bot.game.kinds import Scoring

HARD_BUDGET_S = 0.3  # the hard level's default thinking time per move
ROOM_BUDGET_S = 0.6  # … in the room, where five or more hands are hidden and rounds are long
TRUST = 2.0  # weighted worlds overrule the normal heuristic by this many standard errors
BYKOVO_TRUST = 0.0
"""Bykovo plays the search's best outright: every tile is dealt, so the worlds are narrow,
the rollouts play the other seats as the normal level does, and the heuristic's passes and
locks are rough rules the search does better than. Hard's average round place against
three normal seats (bench/arena.py --only bykovo --games 60 --seed 2, one run): 2.08
[1.99, 2.18] at `TRUST`, 1.92 [1.82, 2.02] at none; at 0.5 it was in between."""
FIVES_THREES_TRUST = 1.0
"""Fives and Threes: hard's win rate against normal (2 players, the same 200 games each,
0.3 s a move, one run): 59.5 % at `TRUST`, 68.0 % at 1, 64.0 % at none; at 32 worlds a move
(300 games): 53.7 %, 59.3 %, 51.0 % — none needs more worlds than the clock gives. With the
plays read at their time's scores and `Valuation.CHANCE` (seeds 1 and 2, one sitting):
62.5 % and 68.5 %, against 57.5 % and 69.0 % before."""
EASY_PASS = 0.05  # Bykovo: how often the easy level keeps a voluntary pass among its choices
REACH = 1000.0  # Fives and Threes: a move that wins the race at once, in fives, over any other


class Valuation(StrEnum):
    """How the hard level values a finished round (`bot.ai.search.outcome_value`)."""

    PENALTY = "penalty"  # points are bad, remembered ones half; the goat ends it (Козёл)
    RECORD = "record"  # recorded points are good (sea goat, classic)
    RACE = "race"  # the lead in points, and the race won (Телефон, Muggins)
    CHANCE = "chance"  # the chance to win the race, from the points each still needs (5s & 3s)
    ROOM = "room"  # the expected final place (the room)
    BYKOVO = "bykovo"  # the points the round adds to the seat's score, and its place
    GENERAL = "general"  # the round won, a General more («Генерал»)


class Heuristic(StrEnum):
    """What the normal level plays for (`bot.ai.policy.normal_scores`)."""

    SHED = "shed"  # Козёл's pressure: shed, block, follow, fish when it pays
    LOCK = "lock"  # … and lock the table, pass for a reason (Bykovo: the last tile wins)
    GENERAL = "general"  # … and keep a General's double while the team trails («Генерал»)
    RACE = "race"  # points now, none left to the next seat (Телефон, Muggins, Fives and Threes)


class TileCost(StrEnum):
    """What a tile left in a hand costs the normal level."""

    PIPS = "pips"
    ALONE = "alone"  # what it counts as a hand of its own: the room's 0-0 is `lone_zero`


@dataclass(frozen=True, slots=True, kw_only=True)
class Knobs:
    """One game's computers: how hard values a round and how long it thinks, what normal
    plays for, how easy treats a voluntary pass."""

    valuation: Valuation
    heuristic: Heuristic = Heuristic.SHED
    race_weights: RaceWeights = RACE  # `Heuristic.RACE`'s weights
    point: int = 5  # a point of the race on the race heuristic's scale (in the ends' pips)
    costs: TileCost = TileCost.PIPS
    budget_s: float = HARD_BUDGET_S  # the hard level's default thinking time per move
    trust: float = TRUST  # the search's lead over the normal move it needs, in standard errors
    weighted: bool = True  # worlds weighted by how well they explain the other seats' plays
    rests: bool = False  # a seat dealt nothing sits the round out in the worlds (§4.2)
    easy_pass: float = 1.0  # the easy level's chance to keep a voluntary pass (1: no lot)


KNOBS: dict[Scoring, Knobs] = {
    Scoring.GOAT: Knobs(valuation=Valuation.PENALTY),
    Scoring.SEA_GOAT: Knobs(valuation=Valuation.RECORD),
    Scoring.CLASSIC: Knobs(valuation=Valuation.RECORD),
    Scoring.ROOM: Knobs(
        valuation=Valuation.ROOM,
        costs=TileCost.ALONE,
        budget_s=ROOM_BUDGET_S,
        trust=0.0,
        weighted=False,  # five hidden hands: weights settle on a few worlds (`bot.ai.search`)
    ),
    Scoring.TELEPHONE: Knobs(valuation=Valuation.RACE, heuristic=Heuristic.RACE),
    Scoring.MUGGINS: Knobs(valuation=Valuation.RACE, heuristic=Heuristic.RACE, point=1),
    Scoring.BYKOVO: Knobs(
        valuation=Valuation.BYKOVO,
        heuristic=Heuristic.LOCK,
        trust=BYKOVO_TRUST,
        rests=True,
        easy_pass=EASY_PASS,
    ),
    Scoring.GENERAL: Knobs(valuation=Valuation.GENERAL, heuristic=Heuristic.GENERAL),
    Scoring.FIVES_THREES: Knobs(
        valuation=Valuation.CHANCE,
        heuristic=Heuristic.RACE,
        race_weights=RaceWeights(pips=0.0, fish=0.0, out=1.0, reach=REACH),  # no hand counts
        trust=FIVES_THREES_TRUST,
    ),
}
"""By `Scoring`: every game's computers."""
