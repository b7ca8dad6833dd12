"""Skill ratings: openskill's Plackett–Luce model over a game's sides and places.

A player's skill is a Gaussian belief: `mu` (how good) and `sigma` (how unsure we are).
Every rated game is one match: each side (a lone player, or a pair in 2×2) is a team,
its place (1 = best, ties allowed, the goats last) is the team's rank; partners share
their side's result.

Players see one easy integer, `display`: `round(1000 + 40 * (mu - 3 * sigma))`. The
conservative estimate `mu - 3 * sigma` is 0 for a newcomer (25 − 3·25/3), so a new player
shows 1000; it climbs as wins raise `mu` and games shrink `sigma`, and each unit of skill
is worth 40 points. Fewer than `PROVISIONAL_GAMES` games make the rating provisional.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3
PROVISIONAL_GAMES = 5

_MODEL = PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA


def rated(
    skills: Mapping[int, Skill], sides: Sequence[Sequence[int]], places: Sequence[int]
) -> dict[int, Skill]:
    """New skills of every user in `sides` from the sides' places (1 = best, ties allowed).

    `sides` are teams of user ids (one per side in free-for-all, two in 2×2); users missing
    in `skills` start at `Skill()`.
    """
    before = {user: skills.get(user, Skill()) for side in sides for user in side}
    if len(sides) < 2:
        return before
    teams = [
        [_MODEL.rating(mu=before[u].mu, sigma=before[u].sigma) for u in side] for side in sides
    ]
    after = _MODEL.rate(teams, ranks=[float(place) for place in places])
    return {
        user: Skill(r.mu, r.sigma)
        for side, team in zip(sides, after, strict=True)
        for user, r in zip(side, team, strict=True)
    }


def display(skill: Skill) -> int:
    """The one integer shown to players; a new player shows 1000."""
    return round(1000 + 40 * (skill.mu - 3 * skill.sigma))
