"""Pictures of the game for the group chat: the table and the score sheet (Pillow only)."""

from render.fitted import NoFitError
from render.layout import (
    LINE_TRACKS,
    PINWHEEL,
    UNITS,
    PlacedTile,
    Rect,
    Track,
    layout_chain,
)
from render.scene import (
    EndsCount,
    ScoreRow,
    ScoreSheet,
    SeatScene,
    SheetKind,
    SheetLabels,
    TableScene,
)
from render.sheet import render_score_sheet
from render.table import render_table

__all__ = [
    "LINE_TRACKS",
    "PINWHEEL",
    "UNITS",
    "EndsCount",
    "NoFitError",
    "PlacedTile",
    "Rect",
    "ScoreRow",
    "ScoreSheet",
    "SeatScene",
    "SheetKind",
    "SheetLabels",
    "TableScene",
    "Track",
    "layout_chain",
    "render_score_sheet",
    "render_table",
]
