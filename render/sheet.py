"""The score sheet after a round, in the manner of the online «Козёл» sites, with the
columns of its kind (`SheetKind`), and the standings of a tournament with an elimination
limit (Bykovo «вприсядку»)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from render import sprites, text, theme
from render.canvas import HEADER, PAD, chip, chip_width, felt, paste, strike, write
from render.scene import ScoreRow, ScoreSheet, SheetKind, SheetLabels

WIDTH = 1280
ROW = 88
TOP = 24  # felt between the title bar and the sheet
LABELS = 56  # the column captions
FOOTER = 72  # the carried eggs line
NOTE = 28  # what decides the game, under the sheet
NOTE_LINES = 2
NOTE_HEIGHT = 44
NAME_X = 2 * PAD + 16
GOAT = 150  # room for a mark after a name: the goat, out of the game
MARK_GAP = 12  # … at least between a longer mark and the name
NUMBERS = 150  # room for the widest previous total
PREVIOUS_RIGHT = 780  # numbers are right-aligned on these edges
RACE_PREVIOUS_RIGHT = 620  # a race sheet has the points scored in play too
PLAY_RIGHT = 790
ROUND_RIGHT = 960
TOTAL_RIGHT = 1130
SIZE = 38

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


def _right(
    canvas: Image.Image, label: str, size: int, colour: theme.Colour, right: int, y: int
) -> None:
    write(canvas, label, size, colour, right - text.width(label, size, True), y)


def _ink(row: ScoreRow, colour: theme.Colour) -> theme.Colour:
    """`colour`, or muted in a row out of the game."""
    return theme.MUTED if row.out else colour


class Cell(NamedTuple):
    """What a row shows in a column: its text, size and colour."""

    label: str
    size: int
    colour: theme.Colour


def _scored(row: ScoreRow, points: int, prefix: str = "") -> Cell:
    """ "+N", or a muted 0."""
    if points:
        return Cell(f"{prefix}+{points}", SIZE, _ink(row, theme.WHITE))
    return Cell("0", SIZE, theme.MUTED)


def _previous(row: ScoreRow, sheet: ScoreSheet) -> Cell:
    return Cell(str(row.previous), SIZE, theme.MUTED)


def _play(row: ScoreRow, sheet: ScoreSheet) -> Cell:
    return _scored(row, row.play_points)


def _round(row: ScoreRow, sheet: ScoreSheet) -> Cell:
    return _scored(row, row.round_points, "🐟 " if sheet.fish else "")


def _won(row: ScoreRow, sheet: ScoreSheet) -> Cell:
    return _scored(row, row.round_points)


def _total(row: ScoreRow, sheet: ScoreSheet) -> Cell:
    return Cell(str(row.total), SIZE + 4, _ink(row, theme.RED if row.opened else theme.WHITE))


def _wins(row: ScoreRow, sheet: ScoreSheet) -> Cell:
    return Cell(str(row.wins), SIZE + 4, _ink(row, theme.WHITE))


class Column(NamedTuple):
    """A column of the sheet: the `SheetLabels` word heading it, its right edge and what a
    row shows in it."""

    label: str
    right: int
    cell: Callable[[ScoreRow, ScoreSheet], Cell]


POINTS_COLUMNS = (
    Column("previous", PREVIOUS_RIGHT, _previous),
    Column("round", ROUND_RIGHT, _round),
    Column("total", TOTAL_RIGHT, _total),
)
COLUMNS = {
    SheetKind.POINTS: POINTS_COLUMNS,
    SheetKind.OUT: POINTS_COLUMNS,
    SheetKind.RACE: (
        Column("previous", RACE_PREVIOUS_RIGHT, _previous),
        Column("play", PLAY_RIGHT, _play),
        *POINTS_COLUMNS[1:],
    ),
    SheetKind.GENERALS: (
        Column("round", PREVIOUS_RIGHT, _won),
        Column("generals", ROUND_RIGHT, _total),
        Column("wins", TOTAL_RIGHT, _wins),
    ),
}
"""The columns of every sheet but the standings, by kind."""


def _marks(row: ScoreRow, labels: SheetLabels) -> list[tuple[str, theme.Colour]]:
    """The chips after a row's name: the goat, out of the game, a General made."""
    return (
        [(labels.goat, theme.RED)] * row.goat
        + [(labels.out, theme.MUTED)] * row.out
        + [(labels.general, theme.GOLD)] * row.general
    )


def _mark_room(label: str) -> int:
    """The room a chip after a name takes: `GOAT`, or more for a long word."""
    return max(GOAT, chip_width(label, 28) + MARK_GAP)


def _row(canvas: Image.Image, row: ScoreRow, sheet: ScoreSheet, y: int) -> None:
    """One line: the name (and its marks), then the kind's columns; a total's remembered
    points after it.

    A row that is out of the game is all muted, its name struck through.
    """
    mid = y + ROW // 2
    columns = COLUMNS[sheet.kind]
    marks = _marks(row, sheet.labels)
    room = columns[0].right - NUMBERS - NAME_X - sum(_mark_room(label) for label, _ in marks)
    name = text.fit(row.name, SIZE, room, bold=True) or "?"
    end = write(canvas, name, SIZE, _ink(row, theme.WHITE), NAME_X, mid)
    if row.out:
        strike(canvas, NAME_X, end, mid)
    for label, rim in marks:
        end += _mark_room(label)
        chip(canvas, label, 28, end, mid, rim)
    for column in columns:
        cell = column.cell(row, sheet)
        _right(canvas, cell.label, cell.size, cell.colour, column.right, mid)
    if row.remembered:
        write(
            canvas, f"+{row.remembered}", SIZE - 6, _ink(row, theme.YELLOW), TOTAL_RIGHT + 12, mid
        )


def _text(
    canvas: Image.Image,
    kind: str,
    label: str,
    size: int,
    colour: theme.Colour,
    x: int,
    mid: int,
    bold: bool = True,
) -> Piece:
    """`write` clean `label`, and the box it covers."""
    ascent, _ = text.font(size, bold).getmetrics()
    top = mid - ascent + round(size * 0.365)
    end = write(canvas, label, size, colour, x, mid, bold)
    return Piece(kind, (x, top, end, top + text.line_height(size, bold)))


def _text_right(
    canvas: Image.Image,
    kind: str,
    label: str,
    size: int,
    colour: theme.Colour,
    right: int,
    mid: int,
) -> Piece:
    return _text(canvas, kind, label, size, colour, right - text.width(label, size, True), mid)


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
    ink = theme.WHITE if colour == theme.GOLD else colour
    pieces = [_text(canvas, "count", f"{row.total} / {limit}", COUNT, ink, BAR_X, mid - 13)]
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


def _standing(canvas: Image.Image, row: ScoreRow, sheet: ScoreSheet, y: int) -> list[Piece]:
    """One standings line: name, previous total, round place and points («—» for a player who
    did not play), new total, the limit bar and the next round's status.

    A row that is out of the game is muted, its name struck through.
    """
    mid = y + ROW // 2
    room = STANDING_PREVIOUS_RIGHT - STANDING_NUMBERS - NAME_X
    name = text.fit(row.name, STANDING_NAME, room, bold=True) or "?"
    pieces = [_text(canvas, "name", name, STANDING_NAME, _ink(row, theme.WHITE), NAME_X, mid)]
    if row.out:
        strike(canvas, NAME_X, pieces[0].box[2], mid)
    previous = str(row.previous)
    right = STANDING_PREVIOUS_RIGHT
    pieces.append(_text_right(canvas, "previous", previous, STANDING_NAME, theme.MUTED, right, mid))
    right = STANDING_ROUND_RIGHT
    if row.place <= 0:
        pieces.append(_text_right(canvas, "round", "—", STANDING_NAME, theme.MUTED, right, mid))
    else:
        top = mid - PLACE // 2
        paste(canvas, sprites.badge(row.place, PLACE), PLACE_X, top)
        pieces.append(Piece("place", (PLACE_X, top, PLACE_X + PLACE, top + PLACE)))
        if row.lot:
            top = mid - LOT
            paste(canvas, _die(LOT), LOT_X, top)
            pieces.append(Piece("lot", (LOT_X, top, LOT_X + LOT, top + LOT)))
        if row.round_points:
            points, ink = f"+{row.round_points}", _ink(row, theme.WHITE)
        else:
            points, ink = "0", theme.MUTED
        pieces.append(_text_right(canvas, "round", points, STANDING_NAME, ink, right, mid))
    total = _ink(row, theme.WHITE)
    right = STANDING_TOTAL_RIGHT
    pieces.append(_text_right(canvas, "total", str(row.total), SIZE + 4, total, right, mid))
    pieces += _bar(canvas, row, sheet.limit, mid)
    pieces += _status(canvas, row, sheet, mid)
    return pieces


def _captions(canvas: Image.Image, sheet: ScoreSheet, mid: int) -> None:
    labels = sheet.labels
    write(canvas, labels.player, 26, theme.MUTED, NAME_X, mid, bold=False)
    for column in COLUMNS[sheet.kind]:
        label = getattr(labels, column.label)
        write(canvas, label, 26, theme.MUTED, column.right - text.width(label, 26), mid, bold=False)


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
    canvas = felt(WIDTH, height).copy()
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
    (_standings_captions if standings else _captions)(canvas, sheet, mid)
    drawn = []
    for i, row in enumerate(sheet.rows):
        y = top + LABELS + i * ROW
        canvas.paste(theme.PANEL_EDGE, (PAD + 2, y, WIDTH - PAD - 2, y + 2))
        if standings:
            drawn.append(tuple(_standing(canvas, row, sheet, y)))
        else:
            _row(canvas, row, sheet, y)
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
