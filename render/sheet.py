"""The score sheet after a round, in the manner of the online «Козёл» sites, with the
columns of its kind (`render.columns`), or the standings of a tournament with an elimination
limit (Bykovo «вприсядку»)."""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from render import sprites, text, theme
from render.canvas import HEADER, PAD, chip, chip_width, felt, paste, strike, write
from render.columns import NAME_X, SIZE, Cell, draw_captions, draw_row, ink
from render.scene import ScoreRow, ScoreSheet, SheetKind

WIDTH = 1280
ROW = 88
TOP = 24  # felt between the title bar and the sheet
LABELS = 56  # the column captions
FOOTER = 72  # the carried eggs line
NOTE = 28  # what decides the game, under the sheet
NOTE_LINES = 2
NOTE_HEIGHT = 44

# the standings (a sheet with a limit): name, before, round (place and points), total, the
# limit bar with "total / limit" over it, the next round's status
STANDING_NAME = 36
STANDING_PREVIOUS_RIGHT = 570
STANDING_NUMBERS = 104  # room for the widest previous total, and a gap
PLACE_X = 598  # the round place's badge
PLACE = 40
LOT_X = 644  # the die after a place drawn by lot
LOT = 24
STANDING_ROUND_RIGHT = 790
STANDING_TOTAL_RIGHT = 910
BAR_X = 936
BAR_WIDTH = 150
BAR_HEIGHT = 12
COUNT = 24  # "total / limit" over the bar
NEAR = 0.75  # the bar turns red from this share of the limit
STATUS_X = 1106
STATUS_RIGHT = WIDTH - PAD - 16
STATUS = 26
CAPTION = 26  # the column captions


class Piece(NamedTuple):
    """What a standings row drew where: `kind` ("name", "previous", "place", "lot", "round",
    "total", "count", "bar", "fill", "status") and its box (left, top, right, bottom)."""

    kind: str
    box: tuple[int, int, int, int]


def _text(canvas: Image.Image, kind: str, cell: Cell, x: int, mid: int) -> Piece:
    """`write` clean `cell` from `x`, and the box it covers."""
    ascent, _ = text.font(cell.size, True).getmetrics()
    top = mid - ascent + round(cell.size * 0.365)
    end = write(canvas, cell.label, cell.size, cell.colour, x, mid)
    return Piece(kind, (x, top, end, top + text.line_height(cell.size, True)))


def _text_right(canvas: Image.Image, kind: str, cell: Cell, right: int, mid: int) -> Piece:
    """`_text` ending at `right`."""
    return _text(canvas, kind, cell, right - cell.width, mid)


@cache
def _die(size: int) -> Image.Image:
    """A small ivory die showing three: the mark of a place drawn by lot."""

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        side = size * k
        edge = max(k, round(side * 0.06))
        box = (0, 0, side - 1, side - 1)
        draw.rounded_rectangle(
            box, side * 0.22, fill=theme.IVORY, outline=theme.TILE_EDGE, width=edge
        )
        r = side * 0.1
        for at in (0.27, 0.5, 0.73):
            draw.ellipse(
                (side * at - r, side * at - r, side * at + r, side * at + r), fill=theme.PIP
            )

    return theme.hires((size, size), paint)


def bar_colour(row: ScoreRow, limit: int) -> theme.Colour:
    """The limit bar's fill: muted out of the game, red near the limit, else gold."""
    if row.out:
        return theme.MUTED
    return theme.RED if row.total >= limit * NEAR else theme.GOLD


def _bar(canvas: Image.Image, row: ScoreRow, limit: int, mid: int) -> list[Piece]:
    """ "total / limit" over a bar that fills up to the limit."""
    colour = bar_colour(row, limit)
    count = Cell(f"{row.total} / {limit}", COUNT, theme.WHITE if colour == theme.GOLD else colour)
    pieces = [_text(canvas, "count", count, BAR_X, mid - 13)]
    top = mid + 6
    track = sprites.plate(
        (BAR_WIDTH, BAR_HEIGHT), BAR_HEIGHT // 2, theme.HEADER, theme.PANEL_EDGE, 1
    )
    paste(canvas, track, BAR_X, top)
    pieces.append(Piece("bar", (BAR_X, top, BAR_X + BAR_WIDTH, top + BAR_HEIGHT)))
    filled = round(BAR_WIDTH * min(max(row.total, 0), limit) / limit) if limit > 0 else 0
    if filled:
        width = max(filled, BAR_HEIGHT)
        paste(
            canvas,
            sprites.plate((width, BAR_HEIGHT), BAR_HEIGHT // 2, colour, colour, 1),
            BAR_X,
            top,
        )
        pieces.append(Piece("fill", (BAR_X, top, BAR_X + width, top + BAR_HEIGHT)))
    return pieces


def _status(canvas: Image.Image, row: ScoreRow, sheet: ScoreSheet, mid: int) -> list[Piece]:
    """Out of the game, or whether the row plays the next round (nothing after the last)."""
    labels = sheet.labels
    if row.out:
        note, rim = labels.out, theme.MUTED
    elif row.plays_next is None:
        return []
    else:
        note, rim = (
            (labels.plays, theme.GOLD) if row.plays_next else (labels.sits, theme.PANEL_EDGE)
        )
    label = text.fit(note, STATUS, STATUS_RIGHT - STATUS_X - STATUS, bold=True)
    if not label:
        return []
    chip(canvas, label, STATUS, STATUS_RIGHT, mid, rim)
    h = STATUS * 3 // 2
    left = STATUS_RIGHT - chip_width(label, STATUS)
    return [Piece("status", (left, mid - h // 2, STATUS_RIGHT, mid - h // 2 + h))]


def _standing(canvas: Image.Image, row: ScoreRow, sheet: ScoreSheet, mid: int) -> list[Piece]:
    """One standings line, its middle at `mid`: name, previous total, round place and points
    («—» for a player who did not play), new total, the limit bar and the next round's status.

    A row that is out of the game is muted, its name struck through.
    """
    room = STANDING_PREVIOUS_RIGHT - STANDING_NUMBERS - NAME_X
    name = text.fit(row.name, STANDING_NAME, room, bold=True) or "?"
    white = ink(row, theme.WHITE)
    pieces = [_text(canvas, "name", Cell(name, STANDING_NAME, white), NAME_X, mid)]
    if row.out:
        strike(canvas, NAME_X, pieces[0].box[2], mid)
    previous = Cell(str(row.previous), STANDING_NAME, theme.MUTED)
    pieces.append(_text_right(canvas, "previous", previous, STANDING_PREVIOUS_RIGHT, mid))
    if row.place <= 0:
        points = Cell("—", STANDING_NAME, theme.MUTED)
    else:
        top = mid - PLACE // 2
        paste(canvas, sprites.badge(row.place, PLACE), PLACE_X, top)
        pieces.append(Piece("place", (PLACE_X, top, PLACE_X + PLACE, top + PLACE)))
        if row.lot:
            top = mid - LOT
            paste(canvas, _die(LOT), LOT_X, top)
            pieces.append(Piece("lot", (LOT_X, top, LOT_X + LOT, top + LOT)))
        if row.round_points:
            points = Cell(f"+{row.round_points}", STANDING_NAME, white)
        else:
            points = Cell("0", STANDING_NAME, theme.MUTED)
    pieces.append(_text_right(canvas, "round", points, STANDING_ROUND_RIGHT, mid))
    total = Cell(str(row.total), SIZE + 4, white)
    pieces.append(_text_right(canvas, "total", total, STANDING_TOTAL_RIGHT, mid))
    pieces += _bar(canvas, row, sheet.limit, mid)
    pieces += _status(canvas, row, sheet, mid)
    return pieces


def _standings_captions(canvas: Image.Image, sheet: ScoreSheet, mid: int) -> None:
    """The standings' column captions, each cut to its column."""
    labels = sheet.labels
    room = STANDING_PREVIOUS_RIGHT - STANDING_NUMBERS - NAME_X
    write(canvas, text.fit(labels.player, CAPTION, room), CAPTION, theme.MUTED, NAME_X, mid, False)
    for caption, right in (
        (labels.previous, STANDING_PREVIOUS_RIGHT),
        (labels.round, STANDING_ROUND_RIGHT),
        (labels.total, STANDING_TOTAL_RIGHT),
    ):
        label = text.fit(caption, CAPTION, 100)
        write(canvas, label, CAPTION, theme.MUTED, right - text.width(label, CAPTION), mid, False)
    for caption, left, right in (
        (labels.limit, BAR_X, STATUS_X),
        (labels.next, STATUS_X, STATUS_RIGHT),
    ):
        label = text.fit(caption, CAPTION, right - left - 12)
        write(canvas, label, CAPTION, theme.MUTED, left, mid, bold=False)


def render_score_sheet(sheet: ScoreSheet) -> bytes:
    """The score sheet (or the standings) as a PNG."""
    return theme.encode_png(compose_score_sheet(sheet)[0])


def compose_score_sheet(sheet: ScoreSheet) -> tuple[Image.Image, tuple[tuple[Piece, ...], ...]]:
    """The score sheet as an RGB picture, and for the standings what each row drew where."""
    footer = _footer(sheet)
    body = LABELS + ROW * len(sheet.rows)
    height = HEADER + TOP + body + sum(line.height for line in footer) + TOP
    canvas = felt(WIDTH, height)
    mid = HEADER // 2
    right = WIDTH - PAD
    if sheet.fish:
        label = sheet.labels.fish
        right -= text.width(label, 34, True)
        write(canvas, label, 34, theme.FISH, right, mid)
    write(
        canvas, text.fit(sheet.title, 36, right - 3 * PAD, bold=True), 36, theme.WHITE, PAD + 4, mid
    )

    top = HEADER + TOP
    plate = sprites.plate((WIDTH - 2 * PAD, body), 18, theme.PANEL, theme.PANEL_EDGE, 2)
    paste(canvas, plate, PAD, top)
    mid = top + LABELS // 2 + 4
    standings = sheet.kind is SheetKind.PLACES
    (_standings_captions if standings else draw_captions)(canvas, sheet, mid)
    drawn = []
    for i, row in enumerate(sheet.rows):
        y = top + LABELS + i * ROW
        canvas.paste(theme.PANEL_EDGE, (PAD + 2, y, WIDTH - PAD - 2, y + 2))
        mid = y + ROW // 2
        if standings:
            drawn.append(tuple(_standing(canvas, row, sheet, mid)))
        else:
            draw_row(canvas, row, sheet, mid)
    y = top + body
    for line in footer:
        write(canvas, line.label, line.size, line.colour, 2 * PAD, y + line.height // 2 + 4)
        y += line.height
    return canvas, tuple(drawn)


class Line(NamedTuple):
    """A line under the sheet."""

    label: str
    size: int
    colour: theme.Colour
    height: int


def _footer(sheet: ScoreSheet) -> list[Line]:
    """The lines under the sheet: the eggs carried on, then what decides the game (in up to
    `NOTE_LINES` lines)."""
    lines = []
    if sheet.carry:
        lines.append(Line(f"🥚🥚 +{sheet.carry} — {sheet.labels.eggs}", 32, theme.EGG, FOOTER))
    note = text.wrap(sheet.note, NOTE, WIDTH - 4 * PAD, NOTE_LINES, bold=True)
    return lines + [Line(line, NOTE, theme.MUTED, NOTE_HEIGHT) for line in note]
