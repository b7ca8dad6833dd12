"""The table picture: felt, the line of tiles, and the seats above and below it.

A phone shows the picture some `PHONE` px wide. So it is `WIDTH` wide and as tall as its
line needs for tiles of `least_unit`, whose pips show `MIN_PIP` px across there, and the
open ends' text `MIN_TEXT` px tall (a spinner's arms as long as the set makes them, in a
picture up to `TALLEST`); sets bigger than double-six colour their pips by value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache

from PIL import Image

from render import sprites, text, theme
from render.budget import MB, bounded
from render.canvas import HEADER, PAD, felt, paste, write
from render.ends import ARROWS, OpenEnd, end_point, open_ends, place_labels, roomy
from render.fitted import Fitted, NoFitError, fewest, line_of
from render.layout import (
    LINE_TRACKS,
    PINWHEEL,
    UNITS,
    PlacedTile,
    Rect,
    Track,
    layout_chain,
)
from render.scene import EndsCount, Pips, TableScene
from render.seats import draw_seat, panel_height
from render.spinner import Leeway, Spot, place

WIDTH = 840
PHONE = 300  # how wide a phone shows the picture
MIN_PIP = 3  # how wide a pip is there at least …
MIN_TEXT = 9  # … and how tall the open ends' text
END_TEXT = -(-MIN_TEXT * WIDTH // PHONE)  # so the open ends' text size here
MARGIN = 8
ROOM_X = 24  # felt left beside the line (rows also end half a unit short of its bounds) …
ROOM_Y = 52  # … and above and below it: room for the open-end badges
CHAIN_HEIGHT = 360  # the line's bounds are this tall at least …
GROWTH = 48  # … and grow by this much while the line does not fit at a readable size
MOST_GROWTH = 48  # steps: beyond, the tiles shrink instead
TALLEST = 6000  # a spinner table's picture at most: beyond, its tiles shrink
SLACK = (0, 2, 4, 8)  # half units a spinner's up-and-down arms may take to leave room for labels
LONE_PANEL = 520  # the width of a panel alone in its row
LABEL_GAP = 3  # between an open end and its label

ROWS: dict[int, tuple[int, int]] = {
    2: (1, 1),
    3: (1, 2),
    4: (2, 2),
    5: (2, 3),
    6: (3, 3),
    7: (3, 4),
    8: (4, 4),
    9: (4, 5),
    10: (5, 5),
}
"""Panels below and above the line, by the number of seats: the line keeps the width."""


@dataclass(frozen=True, slots=True)
class Frame:
    """Where things go: seat panels clockwise from the bottom, the bounds of the line and
    the picture's height."""

    panels: tuple[Rect, ...]
    chain: Rect
    height: int


def _row(count: int, top: int) -> list[Rect]:
    """`count` panels side by side from the left; a lone one `LONE_PANEL` wide, centred."""
    if count == 1:
        left = (WIDTH - LONE_PANEL) // 2
        return [Rect(left, top, left + LONE_PANEL, top + panel_height(LONE_PANEL))]
    w = (WIDTH - (count + 1) * MARGIN) // count
    lefts = (MARGIN + i * (w + MARGIN) for i in range(count))
    return [Rect(x, top, x + w, top + panel_height(w)) for x in lefts]


@cache
def frame(seats: int, chain_height: int = CHAIN_HEIGHT) -> Frame:
    """The frame for 2 … 10 seats round a line `chain_height` tall: seat 0 in the bottom
    row (its middle, or left of it), then clockwise."""
    if seats not in ROWS:
        raise ValueError(f"cannot seat {seats} players (2–10)")
    below, above = ROWS[seats]
    top_row = _row(above, HEADER + MARGIN)
    chain_top = top_row[0].bottom + ROOM_Y
    chain = Rect(MARGIN + ROOM_X, chain_top, WIDTH - MARGIN - ROOM_X, chain_top + chain_height)
    bottom_row = _row(below, chain.bottom + ROOM_Y)
    start = (below - 1) // 2
    panels = bottom_row[start::-1] + top_row + bottom_row[:start:-1]
    return Frame(tuple(panels), chain, bottom_row[0].bottom + MARGIN)


def least_unit(max_pip: int) -> int:
    """The smallest tile unit whose pips (of every value up to `max_pip`) a phone shows
    `MIN_PIP` wide."""
    smallest = min(sprites.pip_radius(v) for v in range(1, max_pip + 1))
    return min(u for u in UNITS if 2 * smallest * u * PHONE >= MIN_PIP * WIDTH)


@dataclass(frozen=True, slots=True)
class Arrangement:
    """The picture's frame and the line laid out in it, `unit` its tiles' short side; round
    a spinner, where its open ends' `labels` go."""

    frame: Frame
    tiles: Sequence[PlacedTile]
    tracks: Sequence[Track]
    labels: Sequence[Rect] = ()

    @property
    def unit(self) -> int:
        first = self.tiles[0].rect
        return min(first.width, first.height)


GROWN = Fitted()
"""The growth steps recent lines needed at their least unit."""


def arrange(scene: TableScene) -> Arrangement:
    """The frame and the line: the shortest picture whose line fits at a readable unit
    (the largest unit that fits at the least height), cropped to the line; a line too long
    for that even `MOST_GROWTH` steps taller takes smaller tiles in a picture half as much
    taller. A spinner table too big for the least height grows round its spinner instead
    (`_round_spinner`)."""
    tracks = PINWHEEL[: len(scene.arms)] if scene.spinner else LINE_TRACKS
    seats, least = len(scene.seats), least_unit(scene.max_pip)

    def fit(steps: int, unit: int | None = None, least: int = 0) -> Arrangement:
        places = frame(seats, CHAIN_HEIGHT + steps * GROWTH)
        tiles = layout_chain(
            scene.first, scene.arms, places.chain, unit, tracks=tracks, least=least
        )
        return Arrangement(places, tiles, tracks)

    line = line_of(scene.first, scene.arms, (seats, least, tracks))
    grown = GROWN.known(line)  # what a shorter line needed
    if not grown:
        try:
            return _labelled(scene, fit(0, least=least))[0]
        except NoFitError:
            pass
    if scene.spinner:
        return _round_spinner(scene, tracks, seats, least)
    try:
        found, steps = fewest(lambda steps: fit(steps, unit=least), grown or 1, MOST_GROWTH)
    except NoFitError:
        return _cropped(fit(MOST_GROWTH // 2))  # not readable however tall: not so tall either
    GROWN.keep(line, steps)
    return _cropped(found)


def _round_spinner(
    scene: TableScene, tracks: Sequence[Track], seats: int, least: int
) -> Arrangement:
    """A spinner table too big for the least height: the shortest bounds round the spinner
    that hold its arms at unit `least` (`render.spinner`) and leave its open ends' labels
    room; smaller tiles only if the picture would be taller than `TALLEST`."""
    assert scene.first is not None  # a table with no tile fits any height
    least_frame = frame(seats)
    most = TALLEST - least_frame.height + CHAIN_HEIGHT
    room = Leeway(least_frame.chain.left, least_frame.chain.right, CHAIN_HEIGHT, most)
    for u in (u for u in UNITS if u <= least):
        crowded: Arrangement | None = None  # the first whose labels want more room
        for slack in SLACK:
            try:
                spot = place(scene.first, scene.arms, tracks, room, u, slack)
                table, spacious = _labelled(scene, _spun(scene, tracks, seats, spot, u))
            except NoFitError:
                break
            if spacious:
                return table
            crowded = crowded or table
        if crowded:
            return crowded
    raise NoFitError


def _spun(
    scene: TableScene, tracks: Sequence[Track], seats: int, spot: Spot, u: int
) -> Arrangement:
    """The spinner table with its spinner at `spot`, its tiles of unit `u`."""
    places = frame(seats, spot.height)
    left, top, right, _ = places.chain
    middle = top + spot.top
    bounds = Rect(left, middle - spot.above, right, middle + spot.below)
    centre = (spot.x, middle)
    tiles = layout_chain(scene.first, scene.arms, bounds, u, tracks=tracks, centre=centre)
    return Arrangement(places, tiles, tracks)


def _labelled(scene: TableScene, table: Arrangement) -> tuple[Arrangement, bool]:
    """`table` with its open ends' labels placed (round a spinner), and whether they all have
    room."""
    if not scene.spinner or not table.tiles:
        return table, True
    ends = open_ends(table.tiles, table.tracks, scene.closed)
    sizes = [_pill(end).size for end in ends]
    area = felt_room(table.frame.chain)
    spots = place_labels(ends, sizes, table.tiles, area, LABEL_GAP)
    return replace(table, labels=tuple(spots)), roomy(spots, table.tiles, area)


def _cropped(table: Arrangement) -> Arrangement:
    """`table` without the whole `GROWTH` steps of its line's bounds that no tile takes
    (the arms may grow unevenly), down to `CHAIN_HEIGHT`."""
    chain = table.frame.chain
    top = min(tile.rect.top for tile in table.tiles)
    bottom = max(tile.rect.bottom for tile in table.tiles)
    spare = min(chain.height - bottom + top, chain.height - CHAIN_HEIGHT) // GROWTH * GROWTH
    if not spare:
        return table
    places = frame(len(table.frame.panels), chain.height - spare)
    dy = places.chain.top - min(top, chain.top + spare)
    moved = [
        replace(t, rect=Rect(t.rect.left, t.rect.top + dy, t.rect.right, t.rect.bottom + dy))
        for t in table.tiles
    ]
    return Arrangement(places, moved, table.tracks)


BACKGROUND_BUDGET = 24 * MB
"""4 backgrounds of the tallest room tables (some 5 MB each), 8 of a table of four."""


@bounded(BACKGROUND_BUDGET)
def _background(
    places: Frame, teams: tuple[int | None, ...], outs: tuple[bool, ...]
) -> Image.Image:
    """Felt, title bar and seat plates: team-coloured rims; a seat that is out gets a darker
    plate with a plain rim."""
    image = felt(WIDTH, places.height)
    for panel, team, out in zip(places.panels, teams, outs, strict=True):
        if out or team is None:
            fill, edge, edge_width = theme.HEADER if out else theme.PANEL, theme.PANEL_EDGE, 2
        else:
            fill, edge, edge_width = theme.PANEL, theme.TEAMS[team % len(theme.TEAMS)], 4
        body = sprites.plate((panel.width, panel.height), 16, fill, edge, edge_width)
        paste(image, body, panel.left, panel.top)
    return image


def _ring(canvas: Image.Image, panel: Rect) -> None:
    """A gold ring round the plate of the seat to move (clear of the plate: one background
    serves every mover)."""
    ring = 6
    size = (panel.width + 2 * ring, panel.height + 2 * ring)
    paste(canvas, sprites.plate(size, 22, None, theme.GOLD, 4), panel.left - ring, panel.top - ring)


def last_played(tiles: Sequence[PlacedTile], pips: Pips | None) -> PlacedTile | None:
    wanted = sorted(pips) if pips else None
    return next((t for t in tiles if sorted((t.inner, t.outer)) == wanted), None)


def _chain(canvas: Image.Image, scene: TableScene, table: Arrangement) -> None:
    """The line: shadows, the last tile's glow, faces (backs for closed doubles), then the
    open ends' marks: badges on a line, arrow labels round a spinner."""
    tiles = table.tiles
    if not tiles:
        return
    u, coloured = table.unit, scene.max_pip > 6
    last = last_played(tiles, scene.last_played)
    face_down = scene.face_down
    for tile in tiles:
        mask, (dx, dy) = sprites.shadow(u, tile.vertical)
        canvas.paste(theme.BLACK, (tile.rect.left + dx, tile.rect.top + dy), mask)
    if last is not None:
        mask, (dx, dy) = sprites.glow(u, last.vertical)
        canvas.paste(theme.GOLD, (last.rect.left + dx, last.rect.top + dy), mask)
    for tile in tiles:
        if (tile.arm, tile.index) in face_down:
            sprite = sprites.back(u, tile.vertical)
        else:
            sprite = sprites.face(u, tile.faces(), tile.vertical, tile is last, coloured)
        paste(canvas, sprite, tile.rect.left, tile.rect.top)
    ends = open_ends(tiles, table.tracks, scene.closed)
    if scene.spinner:
        _labels(canvas, ends, table.labels)
    else:
        _badges(canvas, ends)


def felt_room(bounds: Rect) -> Rect:
    """The felt round the line's `bounds` that its marks may take, clear of the panels."""
    return Rect(
        bounds.left - ROOM_X, bounds.top - ROOM_Y, bounds.right + ROOM_X, bounds.bottom + ROOM_Y
    )


BADGE = END_TEXT * 7 // 4
"""An open end's badge across: room for two digits `END_TEXT` high."""


def badge_spot(end: OpenEnd) -> Rect:
    """Where an open end's badge lies: just beyond the end of a line."""
    reach = 3 + BADGE // 2
    px, py = end_point(end)
    left, top = px + end.heading[0] * reach - BADGE // 2, py + end.heading[1] * reach - BADGE // 2
    return Rect(left, top, left + BADGE, top + BADGE)


def _badges(canvas: Image.Image, ends: Sequence[OpenEnd]) -> None:
    """A round badge with the value just beyond each open end of a line."""
    for end in ends:
        spot = badge_spot(end)
        paste(canvas, sprites.badge(end.value, BADGE, END_TEXT), spot.left, spot.top)


def _pill(end: OpenEnd) -> Image.Image:
    """An open end's arrow label («⬅ 5»)."""
    return sprites.label(f"{ARROWS[end.arm]} {end.value}", END_TEXT)


def _labels(canvas: Image.Image, ends: Sequence[OpenEnd], spots: Sequence[Rect]) -> None:
    """An arrow label at each open end round a spinner, where `arrange` found it room."""
    for end, spot in zip(ends, spots, strict=True):
        paste(canvas, _pill(end), spot.left, spot.top)


def _ends_count(canvas: Image.Image, count: EndsCount, right: int, mid_y: int) -> int:
    """«концы 20 · +4 Маша» ending at `right`, the points in gold; return its left edge."""
    parts: list[tuple[str, int, theme.Colour, bool]] = [
        (f"{text.clean(count.label)} ", 26, theme.MUTED, False),
        (str(count.total), 32, theme.WHITE, True),
    ]
    if count.points:
        scorer = text.fit(count.scorer, 28, 200, bold=True)
        parts += [
            (" · ", 26, theme.MUTED, False),
            (f"+{count.points} {scorer}", 28, theme.GOLD, True),
        ]
    x = right - sum(text.width(label, size, bold) for label, size, _, bold in parts)
    left = x
    for label, size, colour, bold in parts:
        x = write(canvas, label, size, colour, x, mid_y, bold=bold)
    return left


def _header(canvas: Image.Image, scene: TableScene) -> None:
    """Caption on the left, a little smaller if that shows it whole; the bazaar (where the
    game has one) on the right."""
    mid_y = HEADER // 2
    x = WIDTH - PAD if scene.bazaar is None else _stock(canvas, scene.bazaar, scene, mid_y)
    if scene.count is not None:
        x = _ends_count(canvas, scene.count, x - PAD, mid_y)
    room = x - 3 * PAD
    whole = text.clean(scene.caption, True)
    sizes = (34, 30, 26)
    size = next((z for z in sizes if text.fit(scene.caption, z, room, True) == whole), 24)
    write(canvas, text.fit(scene.caption, size, room, True), size, theme.WHITE, PAD + 4, mid_y)


def _stock(canvas: Image.Image, bazaar: int, scene: TableScene, mid_y: int) -> int:
    """The tiles left in the bazaar, two backs and its label (none beside the ends' count);
    return its left edge."""
    x = WIDTH - PAD - text.width(str(bazaar), 34, True)
    write(canvas, str(bazaar), 34, theme.WHITE, x, mid_y)
    u = 14
    x -= 2 * u + 18
    for offset in (6, 0):
        paste(canvas, sprites.back(u), x + offset, mid_y - u - offset // 2 + 2)
    label = "" if scene.count else scene.bazaar_label  # room for the caption beside a count
    x -= text.width(label, 28, False) + 12
    write(canvas, label, 28, theme.MUTED, x, mid_y, bold=False)
    return x


def _check(scene: TableScene) -> None:
    if scene.max_pip > sprites.MAX_PIP:
        raise ValueError(f"pips up to {sprites.MAX_PIP} can be drawn, not {scene.max_pip}")
    halves = [*(scene.first or ()), *(v for arm in scene.arms for pair in arm for v in pair)]
    halves += (v for seat in scene.seats for pair in seat.revealed or () for v in pair)
    if not all(0 <= v <= scene.max_pip for v in halves):
        raise ValueError(f"a pip value is outside 0…{scene.max_pip}")


def render_table(scene: TableScene) -> bytes:
    """The table as a PNG."""
    _check(scene)
    table = arrange(scene)
    teams = tuple(seat.team for seat in scene.seats)
    outs = tuple(seat.out for seat in scene.seats)
    mover = next((i for i, seat in enumerate(scene.seats) if seat.to_move), None)
    canvas = _background(table.frame, teams, outs).copy()
    if mover is not None:
        _ring(canvas, table.frame.panels[mover])
    _chain(canvas, scene, table)
    for seat, panel in zip(scene.seats, table.frame.panels, strict=True):
        draw_seat(canvas, seat, panel, coloured=scene.max_pip > 6)
    _header(canvas, scene)
    return theme.encode_png(canvas)
