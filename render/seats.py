"""The seat panels round the table: the name, the score and the hand.

A name takes up to two lines, at the largest of `NAME_SIZES` that shows it whole. A wide
panel has the score beside the name and the hand below; a narrow one stacks the name, the
score and the hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from render import sprites, text, theme
from render.canvas import chip, chip_width, paste, strike, write
from render.layout import Rect
from render.scene import Pips, SeatScene

INSET = 8  # from a panel's edge to what it holds
NAME_SIZES = (28, 26, 24, 22, 20)
NAME_LINE = 32  # between the two lines of a name
NAME_BLOCK = 2 * NAME_LINE  # the room a name takes, one line or two
WIDE = 400  # a panel at least this wide has the score beside the name
WIDE_HEIGHT = 150
NARROW_HEIGHT = 160
SCORE = 34
COUNT = 28  # "×N" and the note
NOTE_NARROW = 24  # the note beside the hand of a narrow panel
HAND_UNIT = 40  # largest tile in a hand
GAP = 6

Parts = Sequence[tuple[str, int, theme.Colour]]


def panel_height(width: int) -> int:
    """How tall a seat panel `width` wide is."""
    return WIDE_HEIGHT if width >= WIDE else NARROW_HEIGHT


def name_lines(name: str, width: int) -> tuple[int, list[str]]:
    """The text size and the lines (at most two, `width` wide) a name is shown in: the
    largest size that shows it whole, else the largest, cut."""
    whole = text.clean(name, bold=True).replace(" ", "")
    for size in NAME_SIZES:
        lines = text.wrap(name, size, width, 2, bold=True)
        if "".join(lines).replace(" ", "") == whole:
            return size, lines
    return NAME_SIZES[0], text.wrap(name, NAME_SIZES[0], width, 2, bold=True)


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
    units = range(HAND_UNIT, 2, -2)
    return next(((u, cols) for u in units if (cols := _fits(count, box, u))), (4, count))


def _hand(canvas: Image.Image, seat: SeatScene, box: Rect, coloured: bool) -> Rect:
    """Draw the hand (backs, or faces once revealed) from the left of `box`; return the area
    used."""
    tiles: Sequence[Pips | None] = (
        seat.revealed if seat.revealed is not None else (None,) * seat.tiles_left
    )
    if not tiles or seat.out:
        return Rect(box.left, box.top, box.left, box.top)
    u, cols = _pack(len(tiles), box)
    gap = _gap(u)
    rows = -(-len(tiles) // cols)
    for i, pips in enumerate(tiles):
        row, col = divmod(i, cols)
        sprite = (
            sprites.back(u)
            if pips is None
            else sprites.face(u, pips, vertical=True, coloured=coloured)
        )
        x, y = box.left + col * (u + gap), box.top + row * (2 * u + gap)
        paste(canvas, sprite, x, y)
        if pips is not None and pips in seat.marked:
            frame = max(2, gap - 1)  # in the room between the tiles
            ImageDraw.Draw(canvas).rectangle(
                (x - frame, y - frame, x + u + frame - 1, y + 2 * u + frame - 1),
                outline=theme.GOLD,
                width=frame,
            )
    used_w = cols * u + (cols - 1) * gap
    return Rect(box.left, box.top, box.left + used_w, box.top + rows * 2 * u + (rows - 1) * gap)


def _score(seat: SeatScene) -> Parts:
    """The score, red once opened, then the remembered points as a yellow "+N"; muted if out."""
    if seat.out:
        return [(str(seat.score), SCORE, theme.MUTED)]
    parts = [(str(seat.score), SCORE, theme.RED if seat.opened else theme.WHITE)]
    if seat.remembered:
        parts.append((f" +{seat.remembered}", SCORE * 4 // 5, theme.YELLOW))
    return parts


def _write_parts(canvas: Image.Image, parts: Parts, x: int, mid_y: int) -> None:
    for label, size, colour in parts:
        x = write(canvas, label, size, colour, x, mid_y)


def _name(canvas: Image.Image, seat: SeatScene, x: int, right: int, top: int, mark: bool) -> None:
    """The name in one or two lines from `top`, after a gold triangle if the seat is to move
    and `mark` (a narrow panel has only its gold ring).

    A seat that is out has its name muted and struck through.
    """
    mid_y = top + NAME_LINE // 2
    if seat.to_move and mark:
        ImageDraw.Draw(canvas).polygon(
            [(x, mid_y - 11), (x + 18, mid_y), (x, mid_y + 11)], fill=theme.GOLD
        )
        x += 26
    size, lines = name_lines(seat.name, right - x)
    for line in lines or ["?"]:  # "?" if only emoji
        end = write(canvas, line, size, theme.MUTED if seat.out else theme.WHITE, x, mid_y)
        if seat.out:
            strike(canvas, x, end, mid_y)
        mid_y += NAME_LINE


def _count(canvas: Image.Image, seat: SeatScene, x: int, mid_y: int) -> None:
    """How many tiles a hidden hand holds, as "×N" from `x`."""
    if seat.revealed is None and seat.tiles_left and not seat.out:
        write(canvas, f"×{seat.tiles_left}", COUNT, theme.MUTED, x, mid_y)


def draw_seat(canvas: Image.Image, seat: SeatScene, panel: Rect, coloured: bool) -> None:
    """A seat in its panel; `coloured` pips in a hand shown face up."""
    left, right, top = panel.left + INSET, panel.right - INSET, panel.top + INSET
    score = _score(seat)
    score_w = sum(text.width(s, size, True) for s, size, _ in score)
    if panel.width >= WIDE:
        _write_parts(canvas, score, right - score_w, top + NAME_LINE // 2)
        _name(canvas, seat, left, right - score_w - INSET, top, mark=True)
        side = max(panel.width // 5, chip_width(seat.note, COUNT) + INSET)
        box = Rect(left, top + NAME_BLOCK + 4, right - side, panel.bottom - INSET)
        used = _hand(canvas, seat, box, coloured)
        _count(canvas, seat, used.right + 10, (used.top + used.bottom) // 2)
        if seat.note:
            chip(canvas, seat.note, COUNT, right, (box.top + box.bottom) // 2)
        return
    _name(canvas, seat, left, right, top, mark=False)
    mid_y = top + NAME_BLOCK + 20
    _write_parts(canvas, score, left, mid_y)
    hidden = seat.revealed is None and seat.tiles_left
    side = text.width(f"×{seat.tiles_left}", COUNT, True) + INSET if hidden else 0
    side = max(side, chip_width(seat.note, NOTE_NARROW) + INSET if seat.note else 0)
    box = Rect(left, mid_y + 22, right - side, panel.bottom - INSET)
    used = _hand(canvas, seat, box, coloured)
    _count(canvas, seat, used.right + INSET, (used.top + used.bottom) // 2)
    if seat.note:
        chip(canvas, seat.note, NOTE_NARROW, right, (box.top + box.bottom) // 2)
