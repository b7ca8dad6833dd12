"""The score sheet and the pieces of scoring the formats share (`bot.game.formats`).

Everything here works on *sides* — a team in 2×2 play, otherwise one player — so team and
individual games share one code path (RULES §2.8).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from bot.game.events import EndReason


class Tally(NamedTuple):
    """The running score sheet, per side."""

    scores: tuple[int, ...]
    remembered: tuple[int, ...]
    opened: tuple[bool, ...]
    carry: int  # eggs waiting for the next round's taker
    out: tuple[int, ...] = ()  # the room: per side, 0 while in, else the wave it went out in
    before: tuple[int, ...] = ()  # Bykovo: per side, the score before its last round played
    wins: tuple[int, ...] = ()  # «Генерал»: rounds won per side (`scores` are its Generals)
    queue: tuple[int, ...] = ()  # «Генерал»: the sides waiting for the table, first first

    def still_in(self) -> list[int]:
        """The sides still playing (every side, where nobody can go out)."""
        return [s for s in range(len(self.scores)) if not self.out or not self.out[s]]


def fresh_tally(sides: int, eliminating: bool = False, dynamics: bool = False) -> Tally:
    """A blank sheet; `eliminating` (the room, Bykovo) keeps track of who is out,
    `dynamics` (Bykovo) of the scores before each side's last round too."""
    return Tally(
        scores=(0,) * sides,
        remembered=(0,) * sides,
        opened=(False,) * sides,
        carry=0,
        out=(0,) * sides if eliminating else (),
        before=(0,) * sides if dynamics else (),
    )


class RoundScores(NamedTuple):
    """A round's scores: its points per side and the tally they make."""

    points: tuple[int, ...]  # round points per side, the carry included
    tally: Tally
    eggs: bool
    carry_taker: int | None
    written_off: bool


def unique_extreme(values: Sequence[int], candidates: Sequence[int], lowest: bool) -> int | None:
    """The one candidate with the highest (or lowest) value, None on a tie."""
    best = (min if lowest else max)(values[s] for s in candidates)
    holders = [s for s in candidates if values[s] == best]
    return holders[0] if len(holders) == 1 else None


def eggs(tally: Tally, total: int) -> RoundScores:
    """A fish nobody takes: its points wait for the next round's taker («яйца»)."""
    points = (0,) * len(tally.scores)
    return RoundScores(points, tally._replace(carry=tally.carry + total), True, None, False)


def round_half_up_tenth(n: int) -> int:
    """round_half_up(n / 10) for whole n."""
    return (n + 5) // 10


def nothing(tally: Tally) -> RoundScores:
    """A round that changes nothing on the sheet."""
    return RoundScores((0,) * len(tally.scores), tally, False, None, False)


def shared_places(
    keys: Sequence[tuple[int, ...]], leaver_sides: Sequence[int]
) -> list[tuple[int, int, bool, int]]:
    """Places by `keys[side]` (lower is better), equal keys sharing a place; sides with a
    leaver last. No goats and no rating points: the chat's rating takes the places alone."""

    def key(s: int) -> tuple[int, ...]:
        left = len(leaver_sides) - leaver_sides.index(s) if s in leaver_sides else 0
        return (left, *keys[s])

    order = sorted(range(len(keys)), key=lambda s: (key(s), s))
    return [(side, 1 + sum(key(other) < key(side) for other in order), False, 0) for side in order]


def reached(tally: Tally, goal: int) -> EndReason | None:
    """A race is over once a side has reached the goal."""
    return EndReason.TARGET if max(tally.scores) >= goal else None


def rated_places(
    tally: Tally, goats: Sequence[int], leaver_sides: Sequence[int], low_wins: bool
) -> list[tuple[int, int, bool, int]]:
    """Places with goats and §2.7 rating points (Козёл low, Sea Goat and classic high).

    With `leaver_sides` (first to leave first) the game is settled by the timeout rule:
    those sides place last, are the goats and gain nothing; the others gain by the distance
    to the first leaver's score.
    """
    scores, remembered = tally.scores, tally.remembered
    sign = 1 if low_wins else -1
    leaver_side = leaver_sides[0] if leaver_sides else None
    if leaver_sides:
        goats = leaver_sides
    order = sorted(
        range(len(scores)),
        key=lambda s: (s in goats, sign * scores[s], sign * remembered[s], s),
    )
    best_goat = max((scores[s] for s in goats), default=0)
    table: list[tuple[int, int, bool, int]] = []
    for place, side in enumerate(order, start=1):
        goat = side in goats
        if goat:
            points = 0
        elif leaver_side is not None:
            points = round_half_up_tenth(sign * (scores[leaver_side] - scores[side]))
        elif low_wins:
            points = round_half_up_tenth(100 - scores[side])
        else:
            points = round_half_up_tenth(scores[side] - best_goat)
        table.append((side, place, goat, points if goat else max(1, points)))
    return table
