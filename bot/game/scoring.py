"""Pure scoring: hand values, round settlement per scoring family, game end and places.

Everything here works on *sides* — a team in 2×2 play, otherwise one player — so team and
individual games share one code path (RULES §2.8).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from bot.game.rules import FishMode, RuleSet, Scoring

SEA_LONE_TOP = 50  # Sea Goat: a hand that is just the top double (6-6)
SEA_ZERO_AND_TOP = 75  # … just 0-0 and the top double
ROOM_ZERO = 10  # the game room: 0-0 is worth 10 in any hand


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


@dataclass(frozen=True, slots=True)
class Settlement:
    """A round's effect on the tally."""

    points: tuple[int, ...]  # round points per side, the carry included
    tally: Tally
    eggs: bool
    carry_taker: int | None
    written_off: bool


def hand_value(rules: RuleSet, hand: int) -> int:
    """The value of a hand bitmask at round end (§2.3, §3)."""
    tiles = rules.tiles
    zero = 1  # 0-0 is tile 0
    if rules.scoring is Scoring.SEA_GOAT:
        top = 1 << tiles.tile(tiles.max_pip, tiles.max_pip)
        special = {zero: rules.lone_zero, top: SEA_LONE_TOP, zero | top: SEA_ZERO_AND_TOP}
        if hand in special:
            return special[hand]
    elif rules.scoring is Scoring.ROOM:
        return tiles.pip_sum(hand) + (ROOM_ZERO if hand & zero else 0)
    elif hand == zero:
        return rules.lone_zero
    return tiles.pip_sum(hand)


def settle(rules: RuleSet, values: Sequence[int], out_side: int | None, tally: Tally) -> Settlement:
    """Score a round: `values` per side; `out_side` went out, or None for a fish."""
    if rules.scoring is Scoring.GOAT:
        return _settle_goat(rules, values, out_side, tally)
    if rules.scoring is Scoring.ROOM:
        return _settle_room(rules, values, out_side, tally)
    if rules.race:
        return _settle_fives(rules, values, out_side, tally)
    return _settle_collect(rules, values, out_side, tally)


def settle_bykovo(
    rules: RuleSet,
    values: Sequence[int],
    winner: int,
    playing: Sequence[int],
    tally: Tally,
    leavers: Sequence[int] = (),
) -> Settlement:
    """Bykovo (§4.2): everyone who played adds their hand, the winner nothing; reaching the
    limit puts a player out (the wave says when), and so does having left the table (a
    computer finished their round)."""
    points = tuple(value if s in playing and s != winner else 0 for s, value in enumerate(values))
    scores = tuple(map(sum, zip(tally.scores, points, strict=True)))
    before = tuple(tally.scores[s] if s in playing else was for s, was in enumerate(tally.before))
    wave = max(tally.out) + 1
    out = tuple(
        was or (wave if scores[s] >= rules.goal or s in leavers else 0)
        for s, was in enumerate(tally.out)
    )
    new = tally._replace(scores=scores, out=out, before=before)
    return Settlement(points, new, False, None, False)


def settle_general(rules: RuleSet, winner: int | None, general: bool, tally: Tally) -> Settlement:
    """«Генерал» (§8): a fish counts nothing and the same teams play again; otherwise the
    winning side has won a round (and a General, out on 0-0 or the top double). The loser
    gives its place to the first waiting side — or, after a General, the winner does."""
    if winner is None:
        return Settlement((0,) * rules.sides, tally, False, None, False)
    points = tuple(int(general and s == winner) for s in range(rules.sides))
    wins = tuple(w + (s == winner) for s, w in enumerate(tally.wins))
    queue = tally.queue
    if queue:
        at_table = [s for s in range(rules.sides) if s not in queue]
        leaving = winner if general else next(s for s in at_table if s != winner)
        queue = (*queue[1:], leaving)
    scores = tuple(map(sum, zip(tally.scores, points, strict=True)))
    new = tally._replace(scores=scores, wins=wins, queue=queue)
    return Settlement(points, new, False, None, False)


def fives(rules: RuleSet, total: int) -> int:
    """What open ends adding up to `total` score: Телефон sum/5, Muggins the sum, when it is
    a multiple of 5 (§6, §7)."""
    if not total or total % 5:
        return 0
    return total // 5 if rules.scoring is Scoring.TELEPHONE else total


def round_fives(rules: RuleSet, pips: int) -> int:
    """Pips won at a round's end: Телефон /5 rounded up, Muggins to the nearest 5 (§6, §7)."""
    if rules.scoring is Scoring.TELEPHONE:
        return -(-pips // 5)
    return (pips + 2) // 5 * 5


def _settle_fives(
    rules: RuleSet, values: Sequence[int], out_side: int | None, tally: Tally
) -> Settlement:
    """Телефон and Muggins: who went out wins the others' pips; on a block the one lowest
    hand wins the differences to every other (nobody on a tie)."""
    sides = range(len(values))
    winner = _unique_extreme(values, sides, lowest=True)
    points = [0] * len(values)
    if out_side is not None:
        points[out_side] = round_fives(rules, sum(values) - values[out_side])
    elif winner is not None:
        points[winner] = round_fives(rules, sum(v - values[winner] for v in values))
    scores = tuple(score + p for score, p in zip(tally.scores, points, strict=True))
    return Settlement(tuple(points), tally._replace(scores=scores), False, None, False)


def _unique_extreme(values: Sequence[int], candidates: Sequence[int], lowest: bool) -> int | None:
    """The one candidate with the highest (or lowest) value, None on a tie."""
    best = (min if lowest else max)(values[s] for s in candidates)
    holders = [s for s in candidates if values[s] == best]
    return holders[0] if len(holders) == 1 else None


def _eggs(tally: Tally, total: int) -> Settlement:
    points = (0,) * len(tally.scores)
    return Settlement(points, tally._replace(carry=tally.carry + total), True, None, False)


def _settle_goat(
    rules: RuleSet, values: Sequence[int], out_side: int | None, tally: Tally
) -> Settlement:
    sides = range(len(values))
    points = [0] * len(values)
    cleared: list[int] = []
    if out_side is not None:
        losers = [s for s in sides if s != out_side]
        cleared = [out_side]
        for s in losers:
            points[s] = values[s]
    elif rules.fish is FishMode.ALL:
        losers = list(sides)
        points = list(values)
    else:
        taker = _unique_extreme(values, sides, lowest=False)
        if taker is None:
            return _eggs(tally, sum(values))
        losers = [taker]
        points[taker] = sum(values)
        cleared = [s for s in sides if s != taker]
    carry, carry_taker = tally.carry, None
    if carry:
        carry_taker = _unique_extreme(points, losers, lowest=False)
        if carry_taker is not None:
            points[carry_taker] += carry
            carry = 0
    scores, remembered, opened = list(tally.scores), list(tally.remembered), list(tally.opened)
    for s in losers:
        p = points[s]
        if opened[s]:
            scores[s] += p
        elif rules.open_threshold and p < rules.open_threshold:
            remembered[s] += p
        else:
            scores[s] += p + remembered[s]
            remembered[s] = 0
            opened[s] = True
    for s in cleared:
        remembered[s] = 0
    new = Tally(tuple(scores), tuple(remembered), tuple(opened), carry)
    return Settlement(tuple(points), new, False, carry_taker, False)


def _settle_collect(
    rules: RuleSet, values: Sequence[int], out_side: int | None, tally: Tally
) -> Settlement:
    """Sea Goat and classic: one winner per round collects from the others."""
    sides = range(len(values))
    winner = out_side if out_side is not None else _unique_extreme(values, sides, lowest=True)
    if winner is None:
        if rules.scoring is Scoring.SEA_GOAT:
            return _eggs(tally, sum(values))
        return Settlement((0,) * len(values), tally, False, None, False)  # classic: a draw
    won = sum(values) - values[winner] + tally.carry
    carry_taker = winner if tally.carry else None
    scores = list(tally.scores)
    points = [0] * len(values)
    written_off = False
    if rules.scoring is Scoring.CLASSIC:
        scores[winner] += won
        points[winner] = won
    elif won >= rules.record_min:
        if rules.write_off and any(scores[s] for s in sides if s != winner):
            scores = [0] * len(values)
            written_off = True
        else:
            scores[winner] += won
            points[winner] = won
    new = tally._replace(scores=tuple(scores), carry=0)
    return Settlement(tuple(points), new, False, carry_taker, written_off)


def _settle_room(
    rules: RuleSet, values: Sequence[int], out_side: int | None, tally: Tally
) -> Settlement:
    """The game room: every side in scores its own pips; when a player went out, their
    partners' tiles count against every other side too; the limit puts a side out."""
    partners = values[out_side] if out_side is not None else 0
    points = tuple(
        0 if tally.out[s] or s == out_side else value + partners for s, value in enumerate(values)
    )
    scores = tuple(map(sum, zip(tally.scores, points, strict=True)))
    wave = max(tally.out) + 1
    out = tuple(
        was or (wave if scores[s] >= rules.target else 0) for s, was in enumerate(tally.out)
    )
    return Settlement(points, tally._replace(scores=scores, out=out), False, None, False)


def goat_sides(rules: RuleSet, tally: Tally, bald_side: int | None) -> tuple[int, ...]:
    """The sides that lost the game («козлы»), or () while it goes on (§2.6, §3, §9)."""
    scores = tally.scores
    sides = range(len(scores))
    if rules.scoring in {Scoring.ROOM, Scoring.BYKOVO, Scoring.GENERAL} or rules.race:
        return ()
    if rules.low_wins:
        return tuple(s for s in sides if scores[s] >= rules.target)
    if bald_side is not None:
        return tuple(s for s in sides if s != bald_side)
    top = max(scores)
    if top < rules.target:
        return ()
    return tuple(s for s in sides if scores[s] != top)


def round_half_up_tenth(n: int) -> int:
    """round_half_up(n / 10) for whole n."""
    return (n + 5) // 10


def standings(
    rules: RuleSet,
    tally: Tally,
    goats: Sequence[int],
    leaver_sides: Sequence[int] = (),
    lot: Sequence[int] = (),
) -> list[tuple[int, int, bool, int]]:
    """`(side, place, goat, rating_points)` best first (§2.6 places, §2.7 rating points).

    With `leaver_sides` (first to leave first) the game is settled by the timeout rule:
    those sides place last, are the goats and gain nothing; the others gain by the distance
    to the first leaver's score.
    """
    if rules.scoring is Scoring.ROOM:
        return _room_standings(tally, leaver_sides)
    if rules.scoring is Scoring.BYKOVO:
        return _bykovo_standings(tally, leaver_sides)
    if rules.scoring is Scoring.GENERAL:
        return _general_standings(tally, leaver_sides, lot)
    if rules.race:
        return _race_standings(tally, leaver_sides)
    scores, remembered = tally.scores, tally.remembered
    sign = 1 if rules.low_wins else -1
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
        elif rules.low_wins:
            points = round_half_up_tenth(100 - scores[side])
        else:
            points = round_half_up_tenth(scores[side] - best_goat)
        table.append((side, place, goat, points if goat else max(1, points)))
    return table


def _room_standings(tally: Tally, leaver_sides: Sequence[int]) -> list[tuple[int, int, bool, int]]:
    """The room: the last side in first, then by going out, later first (at once: the lower
    total first); leavers last, gaining nothing. Nobody is a goat; the others gain one point
    per side placed below them."""
    sides = len(tally.scores)

    def key(s: int) -> tuple[int, int, int, int]:
        left = len(leaver_sides) - leaver_sides.index(s) if s in leaver_sides else 0
        return (left, -(tally.out[s] or sides + 1), tally.scores[s], s)

    order = sorted(range(sides), key=key)
    return [
        (side, place, False, 0 if side in leaver_sides else sides - place)
        for place, side in enumerate(order, start=1)
    ]


def _race_standings(tally: Tally, leaver_sides: Sequence[int]) -> list[tuple[int, int, bool, int]]:
    """Телефон and Muggins: highest first, equal scores share a place; leavers last. No
    goats and no rating points: the chat's rating takes the places alone (§6, §7)."""
    scores = tally.scores

    def key(s: int) -> tuple[int, int]:
        left = len(leaver_sides) - leaver_sides.index(s) if s in leaver_sides else 0
        return (left, -scores[s])

    order = sorted(range(len(scores)), key=lambda s: (*key(s), s))
    return [(side, 1 + sum(key(other) < key(side) for other in order), False, 0) for side in order]


def _bykovo_standings(
    tally: Tally, leaver_sides: Sequence[int]
) -> list[tuple[int, int, bool, int]]:
    """Bykovo (§4.2): those still in first, then the eliminated, later first; within each,
    the lower total, then the better dynamics (behind before the last round played: the
    higher score then); still equal share a place. Leavers last. No goats, no rating
    points: the chat's rating takes the places alone."""
    sides = len(tally.scores)

    def key(s: int) -> tuple[int, int, int, int]:
        left = len(leaver_sides) - leaver_sides.index(s) if s in leaver_sides else 0
        return (left, -(tally.out[s] or sides + 1), tally.scores[s], -tally.before[s])

    order = sorted(range(sides), key=lambda s: (key(s), s))
    return [(side, 1 + sum(key(other) < key(side) for other in order), False, 0) for side in order]


def _general_standings(
    tally: Tally, leaver_sides: Sequence[int], lot: Sequence[int]
) -> list[tuple[int, int, bool, int]]:
    """«Генерал» (§8): the most Generals first, then the most rounds won, then the `lot`
    (the sides in a drawn order); sides with a leaver last. No goats, no rating points."""

    def key(s: int) -> tuple[int, int, int, int]:
        left = len(leaver_sides) - leaver_sides.index(s) if s in leaver_sides else 0
        return (left, -tally.scores[s], -tally.wins[s], lot.index(s) if lot else s)

    order = sorted(range(len(tally.scores)), key=key)
    return [(side, place, False, 0) for place, side in enumerate(order, start=1)]
