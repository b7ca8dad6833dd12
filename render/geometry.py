"""The table picture's geometry as plain data: where `render_table` puts each tile and each
open end's mark, for whatever else draws the same table (the table app's page)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from render import sprites, theme
from render.ends import ARROWS, open_ends
from render.layout import Rect
from render.scene import Pips, TableScene
from render.table import WIDTH, arrange, badge_spot, felt_room, last_played


@dataclass(frozen=True, slots=True)
class TileSpot:
    """A tile as drawn: `pips` in the order of its halves (top then bottom, or left then
    right); `last` is the glowing last tile, `closed` one lying face down."""

    pips: Pips
    rect: Rect
    last: bool
    closed: bool


@dataclass(frozen=True, slots=True)
class EndSpot:
    """An open end's mark: a line's badge, or the arrow label round a spinner."""

    arm: int
    value: int
    text: str
    rect: Rect


@dataclass(frozen=True, slots=True)
class Geometry:
    """The picture's size, the felt round the line that its marks may take, the tiles and
    the open ends' marks; how the tiles' faces are drawn: for each value 0 … `max_pip` its
    pips' centres in a unit half of an upright tile (across, along), their radius in units
    and, in sets bigger than double-six, their colour."""

    width: int
    height: int
    felt: Rect
    tiles: tuple[TileSpot, ...]
    ends: tuple[EndSpot, ...]
    pips: tuple[tuple[tuple[float, float], ...], ...]
    dots: tuple[float, ...]
    inks: tuple[str, ...] | None


def geometry(scene: TableScene) -> Geometry:
    """Where `render_table(scene)` draws the line: the same arrangement, as data."""
    table = arrange(scene)
    tiles = table.tiles
    last, face_down = last_played(tiles, scene.last_played), scene.face_down
    spots = tuple(
        TileSpot(t.faces(), t.rect, t is last, (t.arm, t.index) in face_down) for t in tiles
    )
    ends = open_ends(tiles, table.tracks, scene.closed)
    if scene.spinner:
        marks = tuple(
            EndSpot(e.arm, e.value, f"{ARROWS[e.arm]} {e.value}", spot)
            for e, spot in zip(ends, table.labels, strict=True)
        )
    else:
        marks = tuple(EndSpot(e.arm, e.value, str(e.value), badge_spot(e)) for e in ends)
    pips, dots, inks = _faces(scene.max_pip)
    return Geometry(
        width=WIDTH,
        height=table.frame.height,
        felt=felt_room(table.frame.chain),
        tiles=spots,
        ends=marks,
        pips=pips,
        dots=dots,
        inks=inks,
    )


@cache
def _faces(
    max_pip: int,
) -> tuple[tuple[tuple[tuple[float, float], ...], ...], tuple[float, ...], tuple[str, ...] | None]:
    """How a set's faces are drawn: each value's pips' places, their radius and (above
    double-six) their colour."""
    values = range(max_pip + 1)
    inks = tuple("#{:02x}{:02x}{:02x}".format(*theme.PIP_COLOURS[v]) for v in values)
    return (
        tuple(sprites.pip_places(v) for v in values),
        tuple(sprites.pip_radius(v) for v in values),
        inks if max_pip > 6 else None,
    )
