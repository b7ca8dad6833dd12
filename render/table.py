"""The table picture: felt, the line of tiles, and the seats around it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from render import sprites, text, theme
from render.canvas import HEADER, PAD, chip, chip_width, felt, paste, strike, write
from render.ends import ARROWS, OpenEnd, end_point, open_ends, place_labels
from render.layout import LINE_TRACKS, PINWHEEL, PlacedTile, Rect, layout_chain
from render.scene import EndsCount, Pips, SeatScene, TableScene

WIDTH = 1280
HEIGHT = 1024
MARGIN = 14
ROOM_X = 24  # felt left beside the line (rows also end half a unit short of its bounds) …
ROOM_Y = 40  # … and above and below it: room for the open-end badges
WIDE_PANEL = (640, 136)
TALL_PANEL = (200, 480)
GAP = 6
HAND_UNIT = 40  # largest tile in a hand
LABEL_GAP = 3  # between an open end and its label

Parts = Sequence[tuple[str, int, theme.Colour]]


@dataclass(frozen=True, slots=True)
class Frame:
    """Where things go: seat panels clockwise from the bottom, and the bounds of the line."""

    panels: tuple[Rect, ...]
    chain: Rect


RINGS: dict[int, tuple[int, int, int]] = {
    2: (1, 0, 1),
    3: (1, 0, 2),
    4: (1, 1, 1),
    5: (3, 0, 2),
    6: (3, 0, 3),
    7: (3, 1, 2),
    8: (3, 1, 3),
    9: (3, 2, 2),
    10: (3, 2, 3),
}
"""Panels at the bottom, up each side and along the top, by the number of seats.

Side columns cost the line a third of its width, so they come only when rows of three are full.
"""


def _row(count: int, top: int) -> list[Rect]:
    """`count` wide panels side by side from the left; a lone one is `WIDE_PANEL` wide, centred."""
    wide_w, wide_h = WIDE_PANEL
    if count == 1:
        left = (WIDTH - wide_w) // 2
        return [Rect(left, top, left + wide_w, top + wide_h)]
    w = (WIDTH - (count + 1) * MARGIN) // count
    lefts = (MARGIN + i * (w + MARGIN) for i in range(count))
    return [Rect(x, top, x + w, top + wide_h) for x in lefts]


def _column(count: int, left: int, top: int, bottom: int) -> list[Rect]:
    """`count` tall panels stacked from the top, centred between `top` and `bottom`."""
    if not count:
        return []
    h = min(TALL_PANEL[1], (bottom - top - (count - 1) * MARGIN) // count)
    y0 = (top + bottom - count * h - (count - 1) * MARGIN) // 2
    tops = (y0 + i * (h + MARGIN) for i in range(count))
    return [Rect(left, y, left + TALL_PANEL[0], y + h) for y in tops]


@cache
def frame(seats: int) -> Frame:
    """The frame for 2 … 10 seats: seat 0 in the middle of the bottom row, then clockwise."""
    if seats not in RINGS:
        raise ValueError(f"cannot seat {seats} players (2–10)")
    below, beside, above = RINGS[seats]
    top_row = _row(above, HEADER + MARGIN)
    bottom_row = _row(below, HEIGHT - MARGIN - WIDE_PANEL[1])
    band = (top_row[0].bottom + MARGIN, bottom_row[0].top - MARGIN)
    left = _column(beside, MARGIN, *band)
    right = _column(beside, WIDTH - MARGIN - TALL_PANEL[0], *band)
    start = (below - 1) // 2
    panels = bottom_row[start::-1] + left[::-1] + top_row + right + bottom_row[:start:-1]
    sides = TALL_PANEL[0] + MARGIN if beside else 0
    chain = Rect(
        sides + MARGIN + ROOM_X,
        top_row[0].bottom + ROOM_Y,
        WIDTH - sides - MARGIN - ROOM_X,
        bottom_row[0].top - ROOM_Y,
    )
    return Frame(tuple(panels), chain)


@lru_cache(maxsize=64)
def _background(
    seats: int, teams: tuple[int | None, ...], outs: tuple[bool, ...], mover: int | None
) -> Image.Image:
    """Felt, title bar and seat plates: team-coloured rims, a gold ring for the seat to move.

    A seat that is out gets a darker plate with a plain rim.
    """
    image = felt(WIDTH, HEIGHT).copy()
    places = zip(frame(seats).panels, teams, outs, strict=True)
    for seat, (panel, team, out) in enumerate(places):
        if seat == mover:
            ring = 7
            size = (panel.width + 2 * ring, panel.height + 2 * ring)
            halo = sprites.plate(size, 24, None, theme.GOLD, 5)
            paste(image, halo, panel.left - ring, panel.top - ring)
        if out or team is None:
            fill, edge, edge_width = theme.HEADER if out else theme.PANEL, theme.PANEL_EDGE, 2
        else:
            fill, edge, edge_width = theme.PANEL, theme.TEAMS[team % len(theme.TEAMS)], 4
        body = sprites.plate((panel.width, panel.height), 18, fill, edge, edge_width)
        paste(image, body, panel.left, panel.top)
    return image


def _gap(u: int) -> int:
    """The room between hand tiles of unit `u`: `GAP`, less between small tiles."""
    return min(GAP, u // 4)


def _fits(count: int, box: Rect, u: int) -> int:
    """The most columns (≤ `count`) of unit `u` across `box` if its rows fit too, else 0."""
    gap = _gap(u)
    cols = min(count, (box.width + gap) // (u + gap))
    rows = -(-count // cols) if cols else 0
    return cols if cols and rows * (2 * u + gap) - gap <= box.height else 0


def _pack(count: int, box: Rect) -> tuple[int, int]:
    """The largest even unit (≤ HAND_UNIT) and the columns to fit `count` upright tiles.

    Of the column counts that fit, the most: a flatter hand.
    """
    units = range(HAND_UNIT, 0, -2)
    return next(((u, cols) for u in units if (cols := _fits(count, box, u))), (2, count))


def _hand(canvas: Image.Image, seat: SeatScene, box: Rect, centred: bool) -> Rect:
    """Draw the hand (backs, or faces once revealed) in `box`; return the area used."""
    tiles: Sequence[Pips | None] = (
        seat.revealed if seat.revealed is not None else (None,) * seat.tiles_left
    )
    if not tiles or seat.out:
        return Rect(box.left, box.top, box.left, box.top)
    u, cols = _pack(len(tiles), box)
    gap = _gap(u)
    rows = -(-len(tiles) // cols)
    used_w = cols * u + (cols - 1) * gap
    x0 = box.left + (box.width - used_w) // 2 if centred else box.left
    for i, pips in enumerate(tiles):
        row, col = divmod(i, cols)
        sprite = sprites.back(u) if pips is None else sprites.face(u, pips, vertical=True)
        paste(canvas, sprite, x0 + col * (u + gap), box.top + row * (2 * u + gap))
    return Rect(x0, box.top, x0 + used_w, box.top + rows * 2 * u + (rows - 1) * gap)


def _score(seat: SeatScene, size: int) -> Parts:
    """The score, red once opened, then the remembered points as a yellow "+N"; muted if out."""
    if seat.out:
        return [(str(seat.score), size, theme.MUTED)]
    parts = [(str(seat.score), size, theme.RED if seat.opened else theme.WHITE)]
    if seat.remembered:
        parts.append((f" +{seat.remembered}", size * 4 // 5, theme.YELLOW))
    return parts


def _write_parts(canvas: Image.Image, parts: Parts, x: int, mid_y: int) -> None:
    for label, size, colour in parts:
        x = write(canvas, label, size, colour, x, mid_y)


def _name(canvas: Image.Image, seat: SeatScene, size: int, x: int, right: int, mid_y: int) -> None:
    """The name, cut to fit before `right`, after a gold triangle if the seat is to move.

    A seat that is out has its name muted and struck through.
    """
    if seat.to_move:
        ImageDraw.Draw(canvas).polygon(
            [(x, mid_y - size // 2 + 2), (x + size * 3 // 4, mid_y), (x, mid_y + size // 2 - 2)],
            fill=theme.GOLD,
        )
        x += size
    name = text.fit(seat.name, size, right - x, bold=True) or "?"  # "?" if only emoji
    end = write(canvas, name, size, theme.MUTED if seat.out else theme.WHITE, x, mid_y)
    if seat.out:
        strike(canvas, x, end, mid_y)


def _count(canvas: Image.Image, seat: SeatScene, x: int, mid_y: int, centred: bool) -> None:
    """How many tiles a hidden hand holds, as "×N" from (or centred on) `x`."""
    if seat.revealed is None and seat.tiles_left and not seat.out:
        label = f"×{seat.tiles_left}"
        left = x - text.width(label, 28, True) // 2 if centred else x
        write(canvas, label, 28, theme.MUTED, left, mid_y)


def _seat_wide(canvas: Image.Image, seat: SeatScene, panel: Rect) -> None:
    """Name and score on top, the hand below with the note at its right."""
    mid_y = panel.top + PAD + 14
    score = _score(seat, 36)
    score_x = panel.right - PAD - sum(text.width(s, size, True) for s, size, _ in score)
    _write_parts(canvas, score, score_x, mid_y)
    _name(canvas, seat, 32, panel.left + PAD, score_x - PAD, mid_y)
    side = max(panel.width * 7 // 32, chip_width(seat.note, 28) + PAD)  # for "×N" or the note
    box = Rect(panel.left + PAD, mid_y + 26, panel.right - PAD - side, panel.bottom - PAD + 4)
    used = _hand(canvas, seat, box, centred=False)
    _count(canvas, seat, used.right + 10, (used.top + used.bottom) // 2, centred=False)
    if seat.note:
        chip(canvas, seat.note, 28, panel.right - PAD, (box.top + box.bottom) // 2)


def _seat_tall(canvas: Image.Image, seat: SeatScene, panel: Rect) -> None:
    """Name, score and note stacked, then the hand."""
    mid_y = panel.top + PAD + 18
    _name(canvas, seat, 28, panel.left + PAD, panel.right - PAD, mid_y)
    mid_y += 46
    _write_parts(canvas, _score(seat, 34), panel.left + PAD, mid_y)
    if seat.note:
        mid_y += 50
        chip(canvas, seat.note, 26, panel.right - PAD, mid_y)
    count = 40 if seat.revealed is None else 0  # room for "×N" below
    box = Rect(panel.left + PAD, mid_y + 34, panel.right - PAD, panel.bottom - PAD - count)
    used = _hand(canvas, seat, box, centred=True)
    _count(canvas, seat, (panel.left + panel.right) // 2, used.bottom + 22, centred=True)


def _last_played(tiles: Sequence[PlacedTile], pips: Pips | None) -> PlacedTile | None:
    wanted = sorted(pips) if pips else None
    return next((t for t in tiles if sorted((t.inner, t.outer)) == wanted), None)


def _chain(canvas: Image.Image, scene: TableScene, bounds: Rect) -> None:
    """The line: shadows, the last tile's glow, faces (backs for closed doubles), then the
    open ends' marks: badges on a line, arrow labels round a spinner."""
    tracks = PINWHEEL[: len(scene.arms)] if scene.spinner else LINE_TRACKS
    tiles = layout_chain(scene.first, scene.arms, bounds, tracks=tracks)
    if not tiles:
        return
    first = tiles[0]
    u = min(first.rect.width, first.rect.height)
    last = _last_played(tiles, scene.last_played)
    face_down = {(arm, len(scene.arms[arm]) - 1) for arm in scene.closed}
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
            sprite = sprites.face(u, tile.faces(), tile.vertical, lit=tile is last)
        paste(canvas, sprite, tile.rect.left, tile.rect.top)
    ends = open_ends(tiles, tracks, scene.closed)
    if scene.spinner:
        _labels(canvas, ends, tiles, label_height(u), bounds)
    else:
        _badges(canvas, ends, max(18, min(34, u * 3 // 4)))


def felt_room(bounds: Rect) -> Rect:
    """The felt round the line's `bounds` that its marks may take, clear of the panels."""
    return Rect(
        bounds.left - ROOM_X, bounds.top - ROOM_Y, bounds.right + ROOM_X, bounds.bottom + ROOM_Y
    )


def label_height(u: int) -> int:
    """How tall an open end's arrow label is beside tiles of unit `u`."""
    return max(22, min(36, u * 7 // 8))


def _badges(canvas: Image.Image, ends: Sequence[OpenEnd], diameter: int) -> None:
    """A round badge with the value just beyond each open end of a line."""
    reach = 3 + diameter // 2
    for end in ends:
        px, py = end_point(end)
        x, y = px + end.heading[0] * reach, py + end.heading[1] * reach
        paste(canvas, sprites.badge(end.value, diameter), x - diameter // 2, y - diameter // 2)


def _labels(
    canvas: Image.Image,
    ends: Sequence[OpenEnd],
    tiles: Sequence[PlacedTile],
    height: int,
    bounds: Rect,
) -> None:
    """An arrow label («⬅ 5») at each open end round a spinner, clear of the tiles."""
    pills = [sprites.label(f"{ARROWS[end.arm]} {end.value}", height) for end in ends]
    sizes = [pill.size for pill in pills]
    spots = place_labels(ends, sizes, tiles, felt_room(bounds), LABEL_GAP)
    for pill, spot in zip(pills, spots, strict=True):
        paste(canvas, pill, spot.left, spot.top)


def _ends_count(canvas: Image.Image, count: EndsCount, right: int, mid_y: int) -> int:
    """«концы 20 · +4 Маша» ending at `right`, the points in gold; return its left edge."""
    parts: list[tuple[str, int, theme.Colour, bool]] = [
        (f"{text.clean(count.label)} ", 28, theme.MUTED, False),
        (str(count.total), 34, theme.WHITE, True),
    ]
    if count.points:
        scorer = text.fit(count.scorer, 30, 220, bold=True)
        parts += [
            (" · ", 28, theme.MUTED, False),
            (f"+{count.points} {scorer}", 30, theme.GOLD, True),
        ]
    x = right - sum(text.width(label, size, bold) for label, size, _, bold in parts)
    left = x
    for label, size, colour, bold in parts:
        x = write(canvas, label, size, colour, x, mid_y, bold=bold)
    return left


def _header(canvas: Image.Image, scene: TableScene) -> None:
    """Caption on the left, the bazaar (where the game has one) on the right."""
    mid_y = HEADER // 2
    x = WIDTH - PAD if scene.bazaar is None else _stock(canvas, scene.bazaar, scene, mid_y)
    if scene.count is not None:
        x = _ends_count(canvas, scene.count, x - 2 * PAD, mid_y)
    caption = text.fit(scene.caption, 34, x - 3 * PAD, bold=True)
    write(canvas, caption, 34, theme.WHITE, PAD + 4, mid_y)


def _stock(canvas: Image.Image, bazaar: int, scene: TableScene, mid_y: int) -> int:
    """The tiles left in the bazaar, two backs and its label; return its left edge."""
    x = WIDTH - PAD - text.width(str(bazaar), 34, True)
    write(canvas, str(bazaar), 34, theme.WHITE, x, mid_y)
    u = 14
    x -= 2 * u + 18
    for offset in (6, 0):
        paste(canvas, sprites.back(u), x + offset, mid_y - u - offset // 2 + 2)
    label = scene.bazaar_label
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
    places = frame(len(scene.seats))
    teams = tuple(seat.team for seat in scene.seats)
    outs = tuple(seat.out for seat in scene.seats)
    mover = next((i for i, seat in enumerate(scene.seats) if seat.to_move), None)
    canvas = _background(len(scene.seats), teams, outs, mover).copy()
    _chain(canvas, scene, places.chain)
    for seat, panel in zip(scene.seats, places.panels, strict=True):
        (_seat_tall if panel.height > panel.width else _seat_wide)(canvas, seat, panel)
    _header(canvas, scene)
    return theme.encode_png(canvas)
