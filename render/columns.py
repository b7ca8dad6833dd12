"""The rows of every score sheet but the standings: the name and its marks, then the numbers
in the columns of the sheet's kind (`SheetKind`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from PIL import Image

from render import text, theme
from render.canvas import PAD, chip, chip_width, strike, write
from render.scene import ScoreRow, ScoreSheet, SheetKind, SheetLabels

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


def ink(row: ScoreRow, colour: theme.Colour) -> theme.Colour:
    """`colour`, or muted in a row out of the game."""
    return theme.MUTED if row.out else colour


@dataclass(frozen=True, slots=True)
class Cell:
    """What a row shows in a column: its text, size and colour (in bold)."""

    label: str
    size: int
    colour: theme.Colour

    @property
    def width(self) -> int:
        """How wide it is written."""
        return text.width(self.label, self.size, True)


def _scored(row: ScoreRow, points: int, prefix: str = "") -> Cell:
    """ "+N", or a muted 0."""
    if points:
        return Cell(f"{prefix}+{points}", SIZE, ink(row, theme.WHITE))
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
    return Cell(str(row.total), SIZE + 4, ink(row, theme.RED if row.opened else theme.WHITE))


def _wins(row: ScoreRow, sheet: ScoreSheet) -> Cell:
    return Cell(str(row.wins), SIZE + 4, ink(row, theme.WHITE))


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


def draw_row(canvas: Image.Image, row: ScoreRow, sheet: ScoreSheet, mid: int) -> None:
    """One line, its middle at `mid`: the name (and its marks), then the kind's columns; a
    total's remembered points after it.

    A row that is out of the game is all muted, its name struck through.
    """
    columns = COLUMNS[sheet.kind]
    marks = _marks(row, sheet.labels)
    room = columns[0].right - NUMBERS - NAME_X - sum(_mark_room(label) for label, _ in marks)
    name = text.fit(row.name, SIZE, room, bold=True) or "?"
    end = write(canvas, name, SIZE, ink(row, theme.WHITE), NAME_X, mid)
    if row.out:
        strike(canvas, NAME_X, end, mid)
    for label, rim in marks:
        end += _mark_room(label)
        chip(canvas, label, 28, end, mid, rim)
    for column in columns:
        cell = column.cell(row, sheet)
        write(canvas, cell.label, cell.size, cell.colour, column.right - cell.width, mid)
    if row.remembered:
        write(canvas, f"+{row.remembered}", SIZE - 6, ink(row, theme.YELLOW), TOTAL_RIGHT + 12, mid)


def draw_captions(canvas: Image.Image, sheet: ScoreSheet, mid: int) -> None:
    """The column captions of the sheet's kind."""
    labels = sheet.labels
    write(canvas, labels.player, 26, theme.MUTED, NAME_X, mid, bold=False)
    for column in COLUMNS[sheet.kind]:
        label = getattr(labels, column.label)
        write(canvas, label, 26, theme.MUTED, column.right - text.width(label, 26), mid, bold=False)
