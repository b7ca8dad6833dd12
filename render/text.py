"""Text: the shipped DejaVu fonts, glyph coverage, clean-up, fitting and text sprites.

The fonts have no colour emoji. Text is NFC-normalised, 🐟, 🥚 and 🤖 are drawn as small icons,
and any other character the font cannot show (emoji, joiners, variation selectors) is
dropped, so a name never shows empty boxes.
"""

from __future__ import annotations

import re
import struct
import unicodedata
from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from render.budget import MB, bounded
from render.theme import EGG, FISH, GOLD, HEADER, Colour, hires

FONT_DIR = Path(__file__).with_name("fonts")
ELLIPSIS = "…"


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans at `size` px, with the basic layout engine (same output everywhere)."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(FONT_DIR / name, size, layout_engine=ImageFont.Layout.BASIC)


@cache
def coverage(bold: bool = False) -> frozenset[int]:
    """Code points the font has glyphs for, read from its Unicode (3, 10) format-12 cmap."""
    data = (FONT_DIR / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")).read_bytes()
    (tables,) = struct.unpack_from(">H", data, 4)
    records = (struct.unpack_from(">4s4xI4x", data, 12 + 16 * i) for i in range(tables))
    cmap = next(offset for tag, offset in records if tag == b"cmap")
    (subtables,) = struct.unpack_from(">H", data, cmap + 2)
    for i in range(subtables):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        if (platform, encoding) == (3, 10):
            break
    else:
        raise ValueError("font has no full Unicode cmap")
    start = cmap + offset
    (groups,) = struct.unpack_from(">I", data, start + 12)
    points: set[int] = set()
    for g in range(groups):
        first, last, glyph = struct.unpack_from(">III", data, start + 16 + 12 * g)
        points.update(range(first + (glyph == 0), last + 1))
    return frozenset(points)


def _paint_fish(draw: ImageDraw.ImageDraw, w: int, h: int) -> None:
    draw.ellipse((0, h * 0.18, w * 0.78, h * 0.82), fill=FISH)
    draw.polygon([(w * 0.62, h / 2), (w, h * 0.12), (w, h * 0.88)], fill=FISH)
    eye = h * 0.09
    draw.ellipse((w * 0.18 - eye, h * 0.42 - eye, w * 0.18 + eye, h * 0.42 + eye), fill="black")


def _paint_egg(draw: ImageDraw.ImageDraw, w: int, h: int) -> None:
    draw.ellipse((w * 0.1, 0, w * 0.9, h), fill=EGG)
    draw.ellipse((w * 0.28, h * 0.14, w * 0.46, h * 0.36), fill="white")


def _paint_robot(draw: ImageDraw.ImageDraw, w: int, h: int) -> None:
    draw.line((w / 2, h * 0.1, w / 2, h * 0.3), fill=FISH, width=max(1, round(w * 0.1)))
    draw.ellipse((w * 0.38, 0, w * 0.62, h * 0.24), fill=GOLD)
    draw.rounded_rectangle((0, h * 0.28, w, h), h * 0.2, fill=FISH)
    eye = h * 0.11
    for x in (w * 0.3, w * 0.7):
        draw.ellipse((x - eye, h * 0.55 - eye, x + eye, h * 0.55 + eye), fill=HEADER)
    draw.rectangle((w * 0.3, h * 0.78, w * 0.7, h * 0.86), fill=HEADER)


ICONS: dict[str, tuple[float, Callable[[ImageDraw.ImageDraw, int, int], None]]] = {
    "🐟": (1.5, _paint_fish),
    "🥚": (0.8, _paint_egg),
    "🤖": (1.0, _paint_robot),
}
"""Emoji drawn as icons: width relative to the icon's height, and a painter."""


def clean(text: str, bold: bool = False) -> str:
    """`text` as it can be drawn: NFC, one line, only glyphs the font has or icons."""
    have = coverage(bold)
    kept = (
        " " if ch.isspace() else ch
        for ch in unicodedata.normalize("NFC", text)
        if ch in ICONS or ch.isspace() or (ord(ch) in have and unicodedata.category(ch)[0] != "C")
    )
    return " ".join("".join(kept).split())


def _runs(text: str) -> list[str]:
    """`text` split into plain runs and single icon characters."""
    runs: list[str] = []
    for ch in text:
        if ch in ICONS or not runs or runs[-1] in ICONS:
            runs.append(ch)
        else:
            runs[-1] += ch
    return runs


def _icon_height(size: int) -> int:
    return round(size * 0.72)


@lru_cache(maxsize=4096)  # names, scores and labels come back every picture
def width(text: str, size: int, bold: bool = False) -> int:
    """Width in px of already `clean` text."""
    f = font(size, bold)
    total = 0.0
    for run in _runs(text):
        icon = ICONS.get(run)
        total += round(icon[0] * _icon_height(size)) if icon else f.getlength(run)
    return round(total)


@lru_cache(maxsize=1024)
def fit(text: str, size: int, max_width: int, bold: bool = False) -> str:
    """Clean `text`, cut at a word or letter with "…" so it fits `max_width`."""
    text = clean(text, bold)
    if width(text, size, bold) <= max_width:
        return text
    lo, hi = 0, len(text)  # the longest prefix that fits with the ellipsis
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if width(text[:mid].rstrip() + ELLIPSIS, size, bold) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    head = text[:lo].rstrip()
    word_cut = head.rfind(" ")
    if word_cut >= len(head) * 2 // 3:  # cutting at a space loses little: do that
        head = head[:word_cut].rstrip(" ,.-")
    return head + ELLIPSIS if head else ""


def _joined(pieces: Sequence[tuple[str, str]]) -> str:
    return "".join(piece + glue for piece, glue in pieces).rstrip()


def wrap(text: str, size: int, max_width: int, lines: int, bold: bool = False) -> list[str]:
    """Clean `text` in at most `lines` lines of `max_width`, broken between words or after
    a hyphen; a word too long for a line, and the last line, cut with "…" if they must be."""
    text = clean(text, bold)
    pieces = [  # words and parts of hyphenated words, each with what follows it
        (m.group(), "" if m.end() < len(text) and text[m.end()] != " " else " ")
        for m in re.finditer(r"\S+?-(?=\S)|\S+", text)
    ]
    shown: list[str] = []
    while pieces and len(shown) < lines - 1:
        taken = 1
        while taken < len(pieces) and width(_joined(pieces[: taken + 1]), size, bold) <= max_width:
            taken += 1
        shown.append(fit(_joined(pieces[:taken]), size, max_width, bold))
        pieces = pieces[taken:]
    rest = fit(_joined(pieces), size, max_width, bold) if pieces else ""
    return [*shown, rest] if rest else shown


def line_height(size: int, bold: bool = False) -> int:
    ascent, descent = font(size, bold).getmetrics()
    return ascent + descent


SPRITE_BUDGET = 4 * MB
"""The names, scores and labels of the pictures drawn lately (a caption is some 50 kB)."""


@bounded(SPRITE_BUDGET)
def sprite(text: str, size: int, colour: Colour, bold: bool = False) -> Image.Image:
    """RGBA image of already `clean` text (icons included), one line high."""
    f = font(size, bold)
    ascent, _ = f.getmetrics()
    height = line_height(size, bold)
    image = Image.new("RGBA", (max(1, width(text, size, bold)), height), (*colour, 0))
    x = 0.0
    icon_h = _icon_height(size)
    for run in _runs(text):
        icon = ICONS.get(run)
        if icon:
            image.alpha_composite(_icon(run, icon_h), (round(x), ascent - icon_h + 1))
            x += round(icon[0] * icon_h)
        else:
            mask = Image.new("L", image.size, 0)
            ImageDraw.Draw(mask).text((x, 0), run, font=f, fill=255)
            image.paste((*colour, 255), (0, 0), mask)
            x += f.getlength(run)
    return image


@cache
def _icon(char: str, height: int) -> Image.Image:
    ratio, paint = ICONS[char]
    w = round(ratio * height)
    return hires((w, height), lambda draw, k: paint(draw, w * k, height * k))
