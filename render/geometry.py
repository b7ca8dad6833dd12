"""The table picture's geometry as plain data: where `render_table` puts each tile and each
open end's mark, for whatever else draws the same table (the table app's page)."""

from __future__ import annotations

from dataclasses import dataclass

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
    the open ends' marks."""

    width: int
    height: int
    felt: Rect
    tiles: tuple[TileSpot, ...]
    ends: tuple[EndSpot, ...]


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
    frame = table.frame
    return Geometry(WIDTH, frame.height, felt_room(frame.chain), spots, marks)
