"""What differs per game for the computers: each format says it as plain data
(`bot.game.formats.base.ComputerSettings`); this module reads it once per format into a `Knobs`
with its enums. The rest of `bot.ai` asks `KNOBS[rules.format]`, a look-up by the format."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.ai.weights import RACE, RaceWeights
from bot.game.formats import FORMATS, Format
from bot.game.formats.base import ComputerSettings

HARD_BUDGET_S = 0.3  # the hard level's default thinking time per move
TRUST = 2.0  # weighted worlds overrule the normal heuristic by this many standard errors


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


def read(computers: ComputerSettings) -> Knobs:
    """`computers` in the computers' own types (`ValueError` for a name no enum has)."""
    return Knobs(
        valuation=Valuation(computers.valuation),
        heuristic=Heuristic(computers.heuristic),
        race_weights=RACE._replace(**dict(computers.race_weights)),
        point=computers.point,
        costs=TileCost(computers.costs),
        budget_s=HARD_BUDGET_S if computers.budget_s is None else computers.budget_s,
        trust=TRUST if computers.trust is None else computers.trust,
        weighted=computers.weighted,
        rests=computers.rests,
        easy_pass=computers.easy_pass,
    )


KNOBS: dict[Format, Knobs] = {f: read(f.computers) for f in FORMATS.values()}
"""By format: every game's computers, read once."""
