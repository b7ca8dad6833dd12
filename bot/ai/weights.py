"""The normal heuristic's weights: Козёл's family (`Weights`) and the point-scoring races
(`RaceWeights`, each race its own in `bot.ai.knobs`)."""

from __future__ import annotations

from typing import NamedTuple


class Weights(NamedTuple):
    """The normal heuristic's weights (per pip, per probability, per tile or suit)."""

    pips: float = 0.5
    double: float = 4.0
    block: float = 16.0
    partner: float = 5.0
    follow: float = 2.0
    variety: float = 1.0
    fresh: float = 0.5
    fish: float = 3.0
    pass_: float = -10.0
    hold: float = 0.5  # Bykovo: the block's extra weight when the next seat could go out
    lock: float = 1.0  # Bykovo: per pip the round's win would save (and `LOCK_PLACE`)
    general: float = 20.0  # «Генерал»: a General's double kept for last (`general_kept`)


DEFAULT = Weights()


class RaceWeights(NamedTuple):
    """The point-scoring games' weights, in fives (per five, pip, probability or tile)."""

    threat: float = 0.8  # the next opponent's expected best reply
    again: float = 0.25  # the best the seat could score next turn on the ends it leaves
    pips: float = 0.1  # a pip shed, at an even race to go out (the winner takes pips/5)
    double: float = 0.3
    block: float = 1.0
    ahead: float = 0.1  # the block's weight grows by this per five ahead (up to `AHEAD_CAP`)
    follow: float = 0.3
    fish: float = 0.2  # per pip of the expected hand margin on a blocked table
    pass_: float = -3.0
    out: float = 0.0  # per five a move that goes out scores (which end to go out on)
    reach: float = 0.0  # a move that wins the race at once


RACE = RaceWeights()
