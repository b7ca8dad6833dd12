"""A finished season's table for the group: its title, the champion, and a row per player
(place, name, games, wins, goats, the rating's change), read on a phone that shows it
`PHONE` px wide: no text under `MIN_TEXT` px there, every name whole in two lines at most."""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image

from render import text, theme
from render.canvas import HEADER, PAD, felt, write

WIDTH = 840
PHONE = 300  # how wide a phone shows the picture
MIN_TEXT = 9  # px tall there, at least
TITLE = 34
SIZE = 28  # the rows' text
NAME_LINES = 2
ROW_GAP = 14
CHAMPION = 64  # the champion's line under the title bar
COLUMN = 92  # each number column
MOST_ROWS = 30  # the rows drawn at most (the rest: "…")
NUMBERS_RIGHT = WIDTH - PAD - 8
NAME_X = PAD + 64
NAME_WIDTH = NUMBERS_RIGHT - 4 * COLUMN - NAME_X - 12


@dataclass(frozen=True, slots=True)
class SeasonRow:
    place: int
    name: str
    games: int
    wins: int
    goats: int
    change: int  # the shown rating's change over the season


@dataclass(frozen=True, slots=True)
class SeasonScene:
    """What the picture says: its title, the champion's line, the columns' captions (games,
    wins, goats, change) and the rows, best first."""

    title: str
    champion: str
    captions: tuple[str, str, str, str]
    rows: tuple[SeasonRow, ...]


def name_lines(name: str) -> list[str]:
    """A row's name in at most `NAME_LINES` lines of the name column."""
    return text.wrap(name, SIZE, NAME_WIDTH, NAME_LINES, bold=True) or [""]


def _row_height(row: SeasonRow) -> int:
    return len(name_lines(row.name)) * text.line_height(SIZE, True) + ROW_GAP


def size_of(scene: SeasonScene) -> tuple[int, int]:
    """The picture's width and height."""
    rows = scene.rows[:MOST_ROWS]
    more = text.line_height(SIZE, True) if len(scene.rows) > MOST_ROWS else 0
    captions = text.line_height(SIZE, True) + ROW_GAP
    return WIDTH, HEADER + CHAMPION + captions + sum(map(_row_height, rows)) + more + PAD


def render_season(scene: SeasonScene) -> bytes:
    """The season's table as a PNG."""
    canvas = felt(*size_of(scene))
    write(canvas, text.fit(scene.title, TITLE, WIDTH - 2 * PAD, True), TITLE, theme.WHITE, PAD, 38)
    champion = text.fit(scene.champion, TITLE, WIDTH - 2 * PAD, True)
    write(canvas, champion, TITLE, theme.GOLD, PAD, HEADER + CHAMPION // 2)
    line = text.line_height(SIZE, True)
    y = HEADER + CHAMPION
    for i, caption in enumerate(scene.captions):
        _right(canvas, caption, NUMBERS_RIGHT - (3 - i) * COLUMN, y + line // 2, theme.MUTED)
    y += line + ROW_GAP
    for row in scene.rows[:MOST_ROWS]:
        colour = theme.GOLD if row.place == 1 else theme.WHITE
        write(canvas, f"{row.place}.", SIZE, colour, PAD, y + line // 2)
        for k, part in enumerate(name_lines(row.name)):
            write(canvas, part, SIZE, colour, NAME_X, y + line // 2 + k * line)
        change = f"{row.change:+d}" if row.change else "0"
        tone = theme.GOLD if row.change > 0 else theme.RED if row.change < 0 else theme.MUTED
        numbers = ((str(row.games), colour), (str(row.wins), colour), (str(row.goats), colour))
        for i, (number, ink) in enumerate((*numbers, (change, tone))):
            _right(canvas, number, NUMBERS_RIGHT - (3 - i) * COLUMN, y + line // 2, ink)
        y += _row_height(row)
    if len(scene.rows) > MOST_ROWS:
        write(canvas, "…", SIZE, theme.MUTED, NAME_X, y + line // 2)
    out = io.BytesIO()
    canvas.save(out, "PNG", optimize=True)
    return out.getvalue()


def _right(canvas: Image.Image, label: str, right: int, mid: int, colour: theme.Colour) -> None:
    """`label` written to end at `right`."""
    shown = text.clean(label, True)
    write(canvas, shown, SIZE, colour, right - text.width(shown, SIZE, True), mid)
