"""Where the tiles of the line lie: a pure, arm-generic snake layout.

Unit `u` is a tile's short side: a tile is `2u × u`, a half `u × u`. Each arm follows a
`Track`. It runs along `heading` until the next tile would pass the edge; there it hangs a
tile on the outer half of its end tile (a corner) and walks along `leg` until it has gone
`ROW_CLEARANCE` half units past its row's line; then the next tile steps into a new row
running back the other way, and so on. Doubles lie crosswise to the way they are entered,
so a double met on a leg stays on it.

Every row tile lies within `u` of its row's line and rows are at least `2.5 u` apart, so
rows never touch; corners keep to the rows' ends and the two arms of a line grow into
opposite half-planes. A tile is placed from the tiles before it alone, so adding a tile
never moves the others; only a smaller unit, when the chain no longer fits, rescales it
all.

A spinner («дом») takes the `PINWHEEL`: four tracks that each keep to a quarter of the
bounds, turning the same way round, so the arms grow into separate regions. A quarter
starts `1.5 u` past the spinner's middle along its heading (a double on a corner reaches
half a unit past its row's end) and `u` behind it along its leg; only an arm's first tile,
lying against the spinner, reaches into the middle. Rows end half a unit short of their
quarter and a row that has no room for a tile there does not fit, so arms keep apart. The
spinner lies in the middle of the bounds, or where `render.spinner` puts it when the arms
outgrow them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from render.fitted import Fitted, NoFitError, line_of

Vec = tuple[int, int]
Pips = tuple[int, int]

EAST: Vec = (1, 0)
WEST: Vec = (-1, 0)
SOUTH: Vec = (0, 1)
NORTH: Vec = (0, -1)

UNITS: tuple[int, ...] = (64, 58, 52, *range(50, 38, -2), 34, 28, 24, 20, 16, 14, 12, 10, 8, 6, 4)
"""Tile short sides to try, largest first (all even, so half a unit is a whole pixel)."""

ROW_CLEARANCE = 4
"""How far (in half units) a corner's leg must reach past its row's line before the next row.

A row's tiles stay within 2 half units of its line and the next row's line lies one half
unit past the leg's end, so rows end up at least 5 half units apart: never touching.
"""


class Rect(NamedTuple):
    """Axis-aligned rectangle `[left, right) × [top, bottom)` in pixels."""

    left: int
    top: int
    right: int
    bottom: int

    @property
    def width(self) -> int:
        return self.right - self.left

    @property
    def height(self) -> int:
        return self.bottom - self.top

    def overlaps(self, other: Rect) -> bool:
        """Whether the interiors intersect (sharing an edge is not overlapping)."""
        return (
            self.left < other.right
            and other.left < self.right
            and self.top < other.bottom
            and other.top < self.bottom
        )

    def contains(self, other: Rect) -> bool:
        return (
            self.left <= other.left
            and self.top <= other.top
            and other.right <= self.right
            and other.bottom <= self.bottom
        )

    def touches(self, other: Rect) -> bool:
        """Whether the two share a piece of edge of positive length without overlapping."""
        if self.overlaps(other):
            return False
        if self.right == other.left or other.right == self.left:
            return min(self.bottom, other.bottom) > max(self.top, other.top)
        if self.bottom == other.top or other.bottom == self.top:
            return min(self.right, other.right) > max(self.left, other.left)
        return False


class Track(NamedTuple):
    """How one arm grows: the direction of its first row and of its corners; a `quarter`
    track keeps to its quarter of the bounds (see the module's docstring)."""

    heading: Vec
    leg: Vec
    quarter: bool = False


LINE_TRACKS: tuple[Track, Track] = (Track(WEST, NORTH), Track(EAST, SOUTH))
"""A two-ended line: arm 0 runs left and bends up, arm 1 runs right and bends down."""

PINWHEEL: tuple[Track, Track, Track, Track] = (
    Track(WEST, NORTH, quarter=True),
    Track(EAST, SOUTH, quarter=True),
    Track(NORTH, EAST, quarter=True),
    Track(SOUTH, WEST, quarter=True),
)
"""A spinner's arms, west, east, north and south, each bending clockwise into its quarter."""


def rises(track: Track) -> bool:
    """Whether an arm of `track` grows above its first tile: northward, or bending north."""
    return NORTH in (track.heading, track.leg)


@dataclass(frozen=True, slots=True)
class PlacedTile:
    """A tile on the picture: `inner` is the half toward the first tile, `outer` the other.

    `heading` is the direction its arm grows at this tile; the inner half lies behind it.
    The first tile has `arm = None`, `inner = a`, `outer = b` and heads east.
    """

    arm: int | None
    index: int
    inner: int
    outer: int
    rect: Rect
    heading: Vec

    @property
    def double(self) -> bool:
        return self.inner == self.outer

    @property
    def vertical(self) -> bool:
        return self.rect.height > self.rect.width

    def halves(self) -> tuple[Rect, Rect]:
        """The two half squares: top then bottom, or left then right."""
        left, top, right, bottom = self.rect
        if self.vertical:
            mid = (top + bottom) // 2
            return Rect(left, top, right, mid), Rect(left, mid, right, bottom)
        mid = (left + right) // 2
        return Rect(left, top, mid, bottom), Rect(mid, top, right, bottom)

    def faces(self) -> tuple[int, int]:
        """Pip values in `halves()` order."""
        dx, dy = self.heading
        return (self.outer, self.inner) if dx < 0 or dy < 0 else (self.inner, self.outer)

    def half_of(self, outer: bool) -> Rect:
        """The inner or outer half; a double, lying crosswise, is all one value."""
        if self.double:
            return self.rect
        first, second = self.halves()
        dx, dy = self.heading
        backwards = dx < 0 or dy < 0
        return second if outer != backwards else first

    def end_point(self, heading: Vec) -> tuple[int, int]:
        """Midpoint of the side facing `heading` (where the next tile would attach)."""
        return _side_midpoint(self.rect, heading)


def _dot(p: tuple[int, int], d: Vec) -> int:
    return p[0] * d[0] + p[1] * d[1]


def _reach(bounds: Rect, d: Vec) -> int:
    """The largest coordinate along `d` inside `bounds`."""
    return max(bounds.left * d[0], bounds.right * d[0]) + max(
        bounds.top * d[1], bounds.bottom * d[1]
    )


def _side_midpoint(rect: Rect, d: Vec) -> tuple[int, int]:
    cx, cy = (rect.left + rect.right) // 2, (rect.top + rect.bottom) // 2
    return cx + d[0] * rect.width // 2, cy + d[1] * rect.height // 2


def _rect(start: tuple[int, int], d: Vec, along: int, across: int) -> Rect:
    """The rectangle from `start` (mid of its back side) reaching `along` in direction `d`."""
    x, y = start
    ex, ey = x + d[0] * along, y + d[1] * along
    half = across // 2
    if d[0]:
        return Rect(min(x, ex), y - half, max(x, ex), y + half)
    return Rect(x - half, min(y, ey), x + half, max(y, ey))


def _beyond(rect: Rect, d: Vec, at: int) -> Rect:
    """The part of `rect` at `at` or further along `d` (possibly empty)."""
    left, top, right, bottom = rect
    if d == EAST:
        left = max(left, at)
    elif d == WEST:
        right = min(right, -at)
    elif d == SOUTH:
        top = max(top, at)
    else:
        bottom = min(bottom, -at)
    return Rect(left, top, right, bottom)


def _quarter(bounds: Rect, origin: Rect, track: Track, u: int) -> Rect:
    """The part of `bounds` an arm of `track` keeps to: all of it, or its quarter."""
    if not track.quarter:
        return bounds
    centre = _side_midpoint(origin, (0, 0))
    ahead = _beyond(bounds, track.heading, _dot(centre, track.heading) + u + u // 2)
    return _beyond(ahead, track.leg, _dot(centre, track.leg) - u)


def _first_rect(first: Pips, bounds: Rect, centre: tuple[int, int] | None, u: int) -> Rect:
    cx, cy = centre or ((bounds.left + bounds.right) // 2, (bounds.top + bounds.bottom) // 2)
    if first[0] == first[1]:
        return Rect(cx - u // 2, cy - u, cx + u // 2, cy + u)
    return Rect(cx - u, cy - u // 2, cx + u, cy + u // 2)


def _layout_arm(
    arm: int, halves: Sequence[Pips], track: Track, origin: Rect, bounds: Rect, u: int
) -> list[PlacedTile]:
    """Place one arm's tiles outward from the `origin` tile; raise `NoFitError` if they leave
    its part of `bounds` (the first tile may lie anywhere in `bounds`)."""
    if not halves:
        return []
    h = u // 2
    region = _quarter(bounds, origin, track, u)
    leg = track.leg
    row = d = track.heading  # the way the current row runs; the way the cursor moves
    back = (-row[0], -row[1])
    ends = {row: _reach(region, row) - h, back: _reach(region, back) - h}  # where rows end
    p = _side_midpoint(origin, d)  # cursor: middle of the open side of the last tile
    last = origin
    line = _dot(p, leg)  # where the current row's centre line lies along `leg`
    on_leg = False
    placed: list[PlacedTile] = []
    for index, (inner, outer) in enumerate(halves):
        double = inner == outer
        along, across = (u, 2 * u) if double else (2 * u, u)
        if on_leg:
            if not double and _dot(p, leg) - line >= ROW_CLEARANCE * h:
                # step into the next row: the inner half lies just past the leg's end
                row = (-row[0], -row[1])
                mid = (p[0] + leg[0] * h, p[1] + leg[1] * h)
                p = (mid[0] - row[0] * h, mid[1] - row[1] * h)
                d, line, on_leg = row, _dot(mid, leg), False
                if _dot(p, d) + along > ends[d]:
                    raise NoFitError  # the new row has no room for a tile
        elif _dot(p, d) + along > ends[d]:
            if not index:
                raise NoFitError  # an arm's first tile lies against the first tile, never round it
            # corner: hang the tile on the outer half of the last one
            w = (last.height if d[0] else last.width) // 2
            p = (p[0] + leg[0] * w - d[0] * h, p[1] + leg[1] * w - d[1] * h)
            d, on_leg = leg, True
        rect = _rect(p, d, along, across)
        if not (region if index else bounds).contains(rect):
            raise NoFitError
        placed.append(
            PlacedTile(arm=arm, index=index, inner=inner, outer=outer, rect=rect, heading=d)
        )
        p = (p[0] + d[0] * along, p[1] + d[1] * along)
        last = rect
    return placed


def _layout_at(
    first: Pips,
    arms: Sequence[Sequence[Pips]],
    bounds: Rect,
    u: int,
    tracks: Sequence[Track],
    centre: tuple[int, int] | None,
) -> list[PlacedTile]:
    origin = _first_rect(first, bounds, centre, u)
    if not bounds.contains(origin):
        raise NoFitError
    tiles = [
        PlacedTile(arm=None, index=0, inner=first[0], outer=first[1], rect=origin, heading=EAST)
    ]
    for arm, (halves, track) in enumerate(zip(arms, tracks, strict=True)):
        tiles += _layout_arm(arm, halves, track, origin, bounds, u)
    return tiles


UNIT = Fitted()
"""The unit recent lines were laid out at: the largest that fitted."""


def layout_chain(
    first: Pips | None,
    arms: Sequence[Sequence[Pips]],
    bounds: Rect,
    unit: int | None = None,
    tracks: Sequence[Track] = LINE_TRACKS,
    least: int = 0,
    centre: tuple[int, int] | None = None,
) -> list[PlacedTile]:
    """Lay out the line inside `bounds`: the first tile's middle at `centre` (by default the
    middle of `bounds`), then each arm.

    With `unit=None` the largest of `UNITS` (not below `least`) that fits is used
    (`NoFitError` if none does); a given `unit` that does not fit raises `NoFitError`.
    """
    if first is None:
        return []
    if len(arms) != len(tracks):
        raise ValueError(f"{len(arms)} arms but {len(tracks)} tracks")
    if unit is not None:
        return _layout_at(first, arms, bounds, unit, tracks, centre)
    line = line_of(first, arms, (bounds, tuple(tracks), least, centre))
    start = UNIT.known(line) or UNITS[0]  # a shorter line's: no larger unit fits
    units = tuple(u for u in UNITS if least <= u <= start)
    for u in units[:-1]:
        try:
            tiles = _layout_at(first, arms, bounds, u, tracks, centre)
        except NoFitError:
            continue
        UNIT.keep(line, u)
        return tiles
    tiles = _layout_at(first, arms, bounds, units[-1], tracks, centre)
    UNIT.keep(line, units[-1])
    return tiles
