"""The open ends of the table and where their labels go.

A spinner table's arms bend, so each open end is labelled with its arm's starting direction,
the arrow its hand button shows, and its value: «⬅ 5», «➡ 3», «⬆ 4», «⬇ 0». A label goes
beyond the end, where the next tile would lie, or else beside the end's outer half (slid
along it if need be), wherever it covers no tile and no other label.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from typing import NamedTuple

from render.layout import EAST, SOUTH, WEST, PlacedTile, Rect, Track, Vec

ARROWS = ("⬅", "➡", "⬆", "⬇")
"""Arms 0 … 3 (west, east, north, south), as the hand's buttons name them."""


class OpenEnd(NamedTuple):
    """An arm's open end: `anchor` is the half it shows (the outer half of its outermost
    tile, or the middle tile's side if the arm is empty), `heading` the way it grows."""

    arm: int
    anchor: Rect
    heading: Vec
    value: int


def open_ends(
    tiles: Sequence[PlacedTile], tracks: Sequence[Track], closed: Collection[int]
) -> list[OpenEnd]:
    """Every arm's open end, arm by arm; an arm ended by a closed double has none."""
    if not tiles:
        return []
    first = tiles[0]
    ends = []
    for arm, track in enumerate(tracks):
        if arm in closed:
            continue
        own = [t for t in tiles if t.arm == arm]
        if own:
            end = own[-1]
            ends.append(OpenEnd(arm, end.half_of(outer=True), end.heading, end.outer))
        else:
            value = first.outer if arm == 1 else first.inner
            ends.append(OpenEnd(arm, first.half_of(outer=arm == 1), track.heading, value))
    return ends


def end_point(end: OpenEnd) -> tuple[int, int]:
    """Midpoint of the open side: where the next tile would attach."""
    rect, (dx, dy) = end.anchor, end.heading
    cx, cy = (rect.left + rect.right) // 2, (rect.top + rect.bottom) // 2
    return cx + dx * rect.width // 2, cy + dy * rect.height // 2


def _next_to(anchor: Rect, side: Vec, size: tuple[int, int], gap: int) -> Rect:
    """A `size` rectangle `gap` away from `anchor` on `side`, centred on it."""
    w, h = size
    cx, cy = (anchor.left + anchor.right) // 2, (anchor.top + anchor.bottom) // 2
    if side == EAST:
        return Rect(anchor.right + gap, cy - h // 2, anchor.right + gap + w, cy - h // 2 + h)
    if side == WEST:
        return Rect(anchor.left - gap - w, cy - h // 2, anchor.left - gap, cy - h // 2 + h)
    if side == SOUTH:
        return Rect(cx - w // 2, anchor.bottom + gap, cx - w // 2 + w, anchor.bottom + gap + h)
    return Rect(cx - w // 2, anchor.top - gap - h, cx - w // 2 + w, anchor.top - gap)


def _slid(spot: Rect, side: Vec, shift: int, area: Rect) -> Rect:
    """`spot`, on the given `side` of its end, moved `shift` along that side and kept inside
    `area` that way."""
    if side[0]:  # left or right of the end: up or down
        top = min(max(spot.top + shift, area.top), area.bottom - spot.height)
        return Rect(spot.left, top, spot.right, top + spot.height)
    left = min(max(spot.left + shift, area.left), area.right - spot.width)
    return Rect(left, spot.top, left + spot.width, spot.bottom)


SLIDES = 4
"""How many steps of an eighth of its length a label may slide along the end's side."""


def _spots(end: OpenEnd, size: tuple[int, int], area: Rect, gap: int) -> Iterator[Rect]:
    """Where `end`'s label may go, best first: beyond the end, beside its outer half, then
    those slid along their side, up to half the label's length either way."""
    dx, dy = end.heading
    sides = (end.heading, (dy, dx), (-dy, -dx))
    centred = [_next_to(end.anchor, side, size, gap) for side in sides]
    yield from centred
    for side, spot in zip(sides, centred, strict=True):
        step = max(1, (spot.height if side[0] else spot.width) // (2 * SLIDES))
        for k in range(1, SLIDES + 1):
            yield _slid(spot, side, -k * step, area)
            yield _slid(spot, side, k * step, area)


def roomy(spots: Sequence[Rect], tiles: Sequence[PlacedTile], area: Rect) -> bool:
    """Whether every label spot lies inside `area`, off the tiles and off the others."""
    return all(
        area.contains(spot)
        and not any(spot.overlaps(t.rect) for t in tiles)
        and not any(spot.overlaps(other) for other in spots[i + 1 :])
        for i, spot in enumerate(spots)
    )


def place_labels(
    ends: Sequence[OpenEnd],
    sizes: Sequence[tuple[int, int]],
    tiles: Sequence[PlacedTile],
    area: Rect,
    gap: int,
) -> list[Rect]:
    """Where each end's label of the given size goes: beyond the end, else beside its outer
    half, else slid along that side, the first place inside `area` that covers no tile and
    no earlier label (beyond the end if there is none)."""
    placed: list[Rect] = []
    for end, size in zip(ends, sizes, strict=True):
        free = (
            spot
            for spot in _spots(end, size, area, gap)
            if area.contains(spot)
            and not any(spot.overlaps(t.rect) for t in tiles)
            and not any(spot.overlaps(other) for other in placed)
        )
        placed.append(next(free, _next_to(end.anchor, end.heading, size, gap)))
    return placed
