"""A person's badges (achievements) as one picture for /stats: a medal each — its mark,
coloured by how rare it is — with its name, how many games earned it, what it is for and
how many players hold it, one badge a row, the rarest first (the order it is given)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from PIL import Image, ImageDraw

from render import sprites, text, theme
from render.canvas import HEADER, PAD, felt, paste, write
from render.table import END_TEXT, WIDTH

TITLE = 36
NAME = 32  # a badge's name, bold
NOTE = END_TEXT  # what it is for and who holds it: the smallest text a phone reads
MEDAL = 96
MARK = 48  # the mark inside the medal
GAP = 20
TEXT_X = PAD + MEDAL + 2 * GAP
TEXT_WIDTH = WIDTH - TEXT_X - 2 * PAD
RULE_LINES = 2
ROW_PAD = 14


class Rarity(IntEnum):
    """A medal's metal: how few of the players hold it."""

    RARE = 0
    UNCOMMON = 1
    COMMON = 2


METALS: dict[Rarity, tuple[theme.Colour, theme.Colour]] = {  # face, rim
    Rarity.RARE: ((255, 204, 64), (176, 120, 16)),
    Rarity.UNCOMMON: ((214, 220, 228), (126, 134, 146)),
    Rarity.COMMON: ((214, 150, 96), (138, 84, 40)),
}


@dataclass(frozen=True, slots=True)
class BadgeScene:
    mark: str  # one character the font has (or one of `render.text`'s icons)
    name: str
    times: str  # "×3", or "" for once
    rule: str
    holders: str
    rarity: Rarity


@dataclass(frozen=True, slots=True)
class BadgeBoard:
    title: str
    badges: tuple[BadgeScene, ...]


def name_line(badge: BadgeScene) -> str:
    """The badge's name as drawn: whole unless it cannot fit the row."""
    label = f"{badge.name} {badge.times}".strip()
    return text.fit(label, NAME, TEXT_WIDTH, bold=True)


def _row_height() -> int:
    return ROW_PAD * 2 + text.line_height(NAME, True) + (RULE_LINES + 1) * text.line_height(NOTE)


def _medal(badge: BadgeScene) -> Image.Image:
    face, rim = METALS[badge.rarity]

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        draw.ellipse((0, 0, MEDAL * k - 1, MEDAL * k - 1), fill=rim)
        inset = 6 * k
        draw.ellipse((inset, inset, MEDAL * k - 1 - inset, MEDAL * k - 1 - inset), fill=face)

    medal = theme.hires((MEDAL, MEDAL), paint)
    mark = text.sprite(text.clean(badge.mark, True), MARK, theme.HEADER, True)
    ascent, descent = text.font(MARK, True).getmetrics()
    y = (MEDAL - ascent - descent) // 2 + descent // 3
    medal.alpha_composite(mark, ((MEDAL - mark.width) // 2, max(0, y)))
    return medal


def compose_badges(board: BadgeBoard) -> Image.Image:
    row = _row_height()
    height = HEADER + PAD + row * len(board.badges) + PAD
    canvas = felt(WIDTH, height)
    title = text.fit(board.title, TITLE, WIDTH - 2 * PAD, bold=True)
    write(canvas, title, TITLE, theme.WHITE, PAD + 4, HEADER // 2)
    name_h, note_h = text.line_height(NAME, True), text.line_height(NOTE)
    for i, badge in enumerate(board.badges):
        top = HEADER + PAD + i * row
        plate = sprites.plate((WIDTH - 2 * PAD, row - 6), 18, theme.PANEL, theme.PANEL_EDGE, 2)
        paste(canvas, plate, PAD, top)
        paste(canvas, _medal(badge), PAD + GAP, top + (row - 6 - MEDAL) // 2)
        y = top + ROW_PAD
        paste(canvas, text.sprite(name_line(badge), NAME, theme.GOLD, True), TEXT_X, y)
        y += name_h
        for line in text.wrap(badge.rule, NOTE, TEXT_WIDTH, RULE_LINES):
            paste(canvas, text.sprite(line, NOTE, theme.WHITE), TEXT_X, y)
            y += note_h
        holders = text.fit(badge.holders, NOTE, TEXT_WIDTH)
        paste(
            canvas,
            text.sprite(holders, NOTE, theme.MUTED),
            TEXT_X,
            top + ROW_PAD + name_h + RULE_LINES * note_h,
        )
    return canvas


def render_badges(board: BadgeBoard) -> bytes:
    """The badges as a PNG."""
    return theme.encode_png(compose_badges(board))
