"""The score sheet after a round, in the manner of the online «Козёл» sites."""

from __future__ import annotations

from PIL import Image

from render import sprites, text, theme
from render.canvas import HEADER, PAD, chip, felt, paste, strike, write
from render.scene import ScoreRow, ScoreSheet

WIDTH = 1280
ROW = 88
TOP = 24  # felt between the title bar and the sheet
LABELS = 56  # the column captions
FOOTER = 72  # the carried eggs line
NAME_X = 2 * PAD + 16
GOAT = 150  # room for a mark after a name: the goat, out of the game
NUMBERS = 150  # room for the widest previous total
PREVIOUS_RIGHT = 780  # numbers are right-aligned on these edges
RACE_PREVIOUS_RIGHT = 620  # a race sheet has the points scored in play too
PLAY_RIGHT = 790
ROUND_RIGHT = 960
TOTAL_RIGHT = 1130
SIZE = 38


def _right(
    canvas: Image.Image, label: str, size: int, colour: theme.Colour, right: int, y: int
) -> None:
    write(canvas, label, size, colour, right - text.width(label, size, True), y)


def _ink(row: ScoreRow, colour: theme.Colour) -> theme.Colour:
    """`colour`, or muted in a row out of the game."""
    return theme.MUTED if row.out else colour


def _previous_right(sheet: ScoreSheet) -> int:
    return RACE_PREVIOUS_RIGHT if sheet.race else PREVIOUS_RIGHT


def _points(
    canvas: Image.Image, row: ScoreRow, points: int, prefix: str, right: int, mid: int
) -> None:
    """ "+N" right-aligned on `right`, or a muted 0."""
    if points:
        _right(canvas, f"{prefix}+{points}", SIZE, _ink(row, theme.WHITE), right, mid)
    else:
        _right(canvas, "0", SIZE, theme.MUTED, right, mid)


def _row(canvas: Image.Image, row: ScoreRow, sheet: ScoreSheet, y: int) -> None:
    """One line: name (and its marks), previous total, points in play (a race), round points,
    new total.

    A row that is out of the game is all muted, its name struck through.
    """
    mid = y + ROW // 2
    labels = sheet.labels
    marks = [(labels.goat, theme.RED)] * row.goat + [(labels.out, theme.MUTED)] * row.out
    room = _previous_right(sheet) - NUMBERS - NAME_X - GOAT * len(marks)
    name = text.fit(row.name, SIZE, room, bold=True) or "?"
    end = write(canvas, name, SIZE, _ink(row, theme.WHITE), NAME_X, mid)
    if row.out:
        strike(canvas, NAME_X, end, mid)
    for label, rim in marks:
        end += GOAT
        chip(canvas, label, 28, end, mid, rim)
    _right(canvas, str(row.previous), SIZE, theme.MUTED, _previous_right(sheet), mid)
    if sheet.race:
        _points(canvas, row, row.play_points, "", PLAY_RIGHT, mid)
    _points(canvas, row, row.round_points, "🐟 " if sheet.fish else "", ROUND_RIGHT, mid)
    total = _ink(row, theme.RED if row.opened else theme.WHITE)
    _right(canvas, str(row.total), SIZE + 4, total, TOTAL_RIGHT, mid)
    if row.remembered:
        write(
            canvas, f"+{row.remembered}", SIZE - 6, _ink(row, theme.YELLOW), TOTAL_RIGHT + 12, mid
        )


def render_score_sheet(sheet: ScoreSheet) -> bytes:
    """The score sheet as a PNG."""
    body = LABELS + ROW * len(sheet.rows)
    height = HEADER + TOP + body + (FOOTER if sheet.carry else 0) + TOP
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
    labels = sheet.labels
    write(canvas, labels.player, 26, theme.MUTED, NAME_X, mid, bold=False)
    columns = [
        (labels.previous, _previous_right(sheet)),
        *([(labels.play, PLAY_RIGHT)] if sheet.race else []),
        (labels.round, ROUND_RIGHT),
        (labels.total, TOTAL_RIGHT),
    ]
    for label, edge in columns:
        write(canvas, label, 26, theme.MUTED, edge - text.width(label, 26), mid, bold=False)
    for i, row in enumerate(sheet.rows):
        y = top + LABELS + i * ROW
        canvas.paste(theme.PANEL_EDGE, (PAD + 2, y, WIDTH - PAD - 2, y + 2))
        _row(canvas, row, sheet, y)

    if sheet.carry:
        mid = top + body + FOOTER // 2 + 4
        write(
            canvas,
            f"🥚🥚 +{sheet.carry} — {labels.eggs}",
            32,
            theme.EGG,
            2 * PAD,
            mid,
        )
    return theme.encode_png(canvas)
