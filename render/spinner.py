"""Where the spinner lies in a table too big for the least height.

The pinwheel keeps each arm to its quarter (see `render.layout`): west and north rise above
the spinner, east and south fall below it. So the bounds reach above the spinner as far as
its rising arms need and below it as far as the falling ones need, whatever the other side
holds. Across, the spinner may leave the middle by whole half units, a few at most, where
that makes the picture shorter: a wider quarter holds more tiles a row, at the expense of
its neighbour.

An arm whose rows run across (west, east) lies the same however tall its quarter, so one
layout tells how far it reaches. One whose rows run up and down (north, south) lies the same,
only moved, wherever the spinner is across, so its layout at each height serves every spot.
Tiles lie on a grid of half units round the spinner's middle, so heights are counted in them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from render.fitted import NoFitError
from render.layout import Rect, Track, layout_chain, rises
from render.scene import Pips

STEP = 24
"""The line's bounds are the least height tall, or whole steps more."""
OFF_MIDDLE = 3
"""How many units at most the spinner leaves the middle across: its narrower quarters keep
room for a tile a row, and an empty arm for its label."""
FAR = 1 << 20
"""Room that no arm fills."""


@dataclass(frozen=True, slots=True)
class Leeway:
    """The room the line's bounds may take: from `left` to `right` across, `shortest` tall at
    least and `tallest` at most."""

    left: int
    right: int
    shortest: int
    tallest: int


class Spot(NamedTuple):
    """Where the spinner's middle lies: `x` across; its arms keep to bounds reaching `above`
    and `below` it, and their tiles to the line's bounds, `height` tall, whose top is `top`
    above the spinner's middle."""

    x: int
    above: int
    below: int
    height: int
    top: int


class _Side(NamedTuple):
    """How far above or below the spinner the arms so far need their bounds to reach, and
    how far their tiles do, in half units."""

    reach: int
    tiles: int


class _Span(NamedTuple):
    """What an arm takes round the spinner's middle: across, and above or below it."""

    left: int
    right: int
    far: int


def _way(track: Track) -> int:
    """Which way across from the spinner an arm's quarter lies: -1 left, 1 right."""
    return track.heading[0] or track.leg[0]


class _Arms:
    """A table's arms at unit `u` in the `room` of its bounds, laid out one at a time, and
    what each takes where the spinner lies."""

    def __init__(
        self,
        first: Pips,
        arms: Sequence[Sequence[Pips]],
        tracks: Sequence[Track],
        room: Leeway,
        u: int,
    ) -> None:
        self.first, self.arms, self.tracks, self.u = first, arms, tracks, u
        self.left, self.right, self.shortest = room.left, room.right, room.shortest
        self.h = u // 2
        # round a spinner anywhere it may be, relative to its middle: what an up-and-down arm
        # may take across
        middle, off = (self.left + self.right) // 2, OFF_MIDDLE * u
        self.across = (self.left - middle - off, self.right - middle + off)
        self.rows: dict[tuple[int, int], int | None] = {}  # far, by arm and spot
        self.spans: dict[tuple[int, int], _Span | None] = {}  # by arm and reach
        self.one_row: dict[int, int] = {}  # the reach, by arm

    def _span(self, arm: int, bounds: Rect, x: int) -> _Span | None:
        """What arm `arm` alone takes round the spinner whose middle is at `(x, 0)` (None if
        it does not fit `bounds`), in pixels across and half units above or below."""
        halves = [halves if i == arm else () for i, halves in enumerate(self.arms)]
        centre = (x, 0)
        try:
            tiles = layout_chain(
                self.first, halves, bounds, self.u, tracks=self.tracks, centre=centre
            )
        except NoFitError:
            return None
        rising = rises(self.tracks[arm])
        far = max(-t.rect.top if rising else t.rect.bottom for t in tiles[1:])
        return _Span(
            min(t.rect.left for t in tiles), max(t.rect.right for t in tiles), far // self.h
        )

    def _column(self, arm: int, reach: int) -> _Span | None:
        """An up-and-down arm in bounds reaching `reach` half units above or below the
        spinner, relative to its middle (None if it does not fit wherever the spinner is)."""
        top = self._one_row(arm)
        reach = min(reach, top)  # further, it lies the same
        if (arm, reach) not in self.spans:
            rising, r = rises(self.tracks[arm]), reach * self.h
            left, right = self.across
            bounds = Rect(left, -r if rising else -FAR, right, FAR if rising else r)
            self.spans[arm, reach] = self._span(arm, bounds, 0)
        return self.spans[arm, reach]

    def _one_row(self, arm: int) -> int:
        """The reach past which an up-and-down arm lies in one row."""
        if arm not in self.one_row:
            span = self._span(arm, Rect(-FAR, -FAR, FAR, FAR), 0)
            assert span is not None  # there is room for anything
            self.one_row[arm] = span.far + 1  # rows end half a unit short of their bounds
        return self.one_row[arm]

    def grow(self, arm: int, x: int, side: _Side, slack: int) -> _Side | None:
        """`side` with arm `arm` too, the spinner's middle `x` across (None if the arm does
        not fit between `left` and `right`); an up-and-down arm reaches `slack` half units
        further than it needs, or as much further as it fits."""
        if not self.arms[arm]:
            return side
        if self.tracks[arm].heading[0]:  # rows run across: one layout tells
            if (arm, x) not in self.rows:
                span = self._span(arm, Rect(self.left, -FAR, self.right, FAR), x)
                self.rows[arm, x] = None if span is None else span.far
            far = self.rows[arm, x]
            return None if far is None else _Side(max(side.reach, far), max(side.tiles, far))
        reach = self._least_reach(arm, x, side.reach)
        if reach is None:
            return None
        if slack:
            reach = self._least_reach(arm, x, reach + slack) or reach
        span = self._column(arm, reach)
        assert span is not None  # it fits
        return _Side(reach, max(side.tiles, span.far))

    def _least_reach(self, arm: int, x: int, least: int) -> int | None:
        """The least reach from `least` on at which an up-and-down arm fits, the spinner's
        middle `x` across (None if none does)."""

        def fits(reach: int) -> bool:
            span = self._column(arm, reach)
            return span is not None and self.left <= x + span.left and x + span.right <= self.right

        top = self._one_row(arm)
        if fits(least):
            return least
        if least >= top or not fits(top):
            return None
        # not always the least that fits (a quarter too short for a row of two tiles may
        # hold them as corners alone), but near it
        low, high = least + 1, top
        while low < high:  # `high` fits
            mid = (low + high) // 2
            if fits(mid):
                high = mid
            else:
                low = mid + 1
        return high

    def spot(self, x: int, arms: Sequence[int], slack: int = 0) -> Spot | None:
        """The spot with the spinner's middle `x` across for `arms` (None if one does not fit
        there), in bounds `shortest` tall at least, with `slack` for those that run up and
        down; put those whose rows run across first: the others often fit as tall."""
        sides = {True: _Side(2, 2), False: _Side(2, 2)}  # above and below: the spinner
        for arm in arms:
            rising = rises(self.tracks[arm])
            grown = self.grow(arm, x, sides[rising], slack)
            if grown is None:
                return None
            sides[rising] = grown
        over, under = sides[True].tiles * self.h, sides[False].tiles * self.h
        height = self.shortest + max(0, -(-(over + under - self.shortest) // STEP)) * STEP
        extra = height - over - under
        top = over + min(extra, max(0, height // 2 - over))  # the spinner near the middle
        return Spot(x, sides[True].reach * self.h, sides[False].reach * self.h, height, top)


def _better(spot: Spot, than: Spot | None, middle: int) -> bool:
    """Whether `spot` is shorter than `than`, or as short and nearer the `middle`."""
    if than is None:
        return True
    return (spot.height, abs(spot.x - middle)) < (than.height, abs(than.x - middle))


def place(
    first: Pips,
    arms: Sequence[Sequence[Pips]],
    tracks: Sequence[Track],
    room: Leeway,
    u: int,
    slack: int = 0,
) -> Spot:
    """The spot that makes the line's bounds shortest in their `room` for the spinner's arms
    at unit `u`: the nearest the middle of those (`NoFitError` if that is taller than
    `room.tallest`). The arms that run up and down reach `slack` half units further than they
    need where they fit so: they end elsewhere."""
    laid = _Arms(first, arms, tracks, room, u)
    middle = (room.left + room.right) // 2
    every = sorted(range(len(arms)), key=lambda arm: not tracks[arm].heading[0])
    best = laid.spot(middle, every, slack)
    for way in (-1, 1):
        # the arms whose rows run across a quarter this way: it narrows as the spinner moves
        # on that way, so they only grow taller
        narrowing = [arm for arm in every if tracks[arm].heading[0] and _way(tracks[arm]) == way]
        x = middle + way * (u // 2)
        while abs(x - middle) <= OFF_MIDDLE * u:
            ahead = laid.spot(x, narrowing)
            if ahead is None or (best is not None and ahead.height >= best.height):
                break
            spot = laid.spot(x, every, slack)
            if spot is not None and _better(spot, best, middle):
                best = spot
            x += way * (u // 2)
    if best is None or best.height > room.tallest:
        raise NoFitError
    return best
