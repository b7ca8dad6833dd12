"""Drawing on a picture being composed: felt, pasting sprites, text, labels."""

from __future__ import annotations

from PIL import Image, ImageChops

from render import sprites, text, theme
from render.budget import MB, bounded

HEADER = 76  # height of the dark title bar
PAD = 16
CHIP_TEXT = 260  # the widest text of a chip

_DITHER = (0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15)
"""Thresholds by row: a dither of whole scanlines keeps long runs, which deflate quickly."""


FELT_BUDGET = 8 * MB
"""The felt of 6 of the tallest room tables (1.3 MB each): drawing one takes 0.1 s."""


def felt(width: int, height: int) -> Image.Image:
    """A new picture: a title bar over felt lit in the middle."""
    image = Image.new("RGB", (width, height), theme.HEADER)
    image.paste(_felt_shades(width, height - HEADER).convert("RGB"), (0, HEADER))
    return image


@bounded(FELT_BUDGET)
def _felt_shades(width: int, height: int) -> Image.Image:
    """The felt in palette shades (a byte a pixel), dithered line by line."""
    size = (width, height)
    top = 16 * (theme.FELT_SHADES - 1)
    gradient = Image.radial_gradient("L").resize(size, Image.Resampling.BILINEAR)
    fine = gradient.point(lambda v: min(top, round((v / 255) ** 1.5 * top * 1.15)))
    rows = b"".join(bytes((_DITHER[y % len(_DITHER)],)) * size[0] for y in range(size[1]))
    threshold = Image.frombytes("L", size, rows)
    levels = ImageChops.add(fine, threshold).point(lambda v: min(theme.FELT_SHADES - 1, v // 16))
    shaded = levels.convert("P")
    shaded.putpalette([c for level in range(theme.FELT_SHADES) for c in theme.felt_shade(level)])
    return shaded


def paste(canvas: Image.Image, sprite: Image.Image, x: int, y: int) -> None:
    """Paste an RGBA sprite by its alpha."""
    canvas.paste(sprite, (x, y), sprite)


def write(
    canvas: Image.Image,
    label: str,
    size: int,
    colour: theme.Colour,
    x: int,
    mid_y: int,
    bold: bool = True,
) -> int:
    """Draw clean `label` from `x`, its capitals centred on `mid_y`; return its right edge."""
    sprite = text.sprite(label, size, colour, bold)
    ascent, _ = text.font(size, bold).getmetrics()
    paste(canvas, sprite, x, mid_y - ascent + round(size * 0.365))
    return x + sprite.width


def strike(canvas: Image.Image, left: int, right: int, mid_y: int) -> None:
    """A muted line through text written from `left` to `right` on `mid_y`."""
    canvas.paste(theme.MUTED, (left - 4, mid_y - 1, right + 4, mid_y + 2))


def chip_width(note: str, size: int) -> int:
    """How wide `chip` draws `note` (0 if nothing is left of it to draw)."""
    label = text.fit(note, size, CHIP_TEXT, bold=True)
    return text.width(label, size, True) + size if label else 0


def chip(
    canvas: Image.Image,
    note: str,
    size: int,
    right: int,
    mid_y: int,
    rim: theme.Colour = theme.GOLD,
) -> None:
    """A dark rounded label with a coloured rim, ending at `right`."""
    label = text.fit(note, size, CHIP_TEXT, bold=True)
    if not label:
        return
    w = chip_width(label, size)
    h = size * 3 // 2
    paste(canvas, sprites.plate((w, h), h // 2, theme.HEADER, rim, 2), right - w, mid_y - h // 2)
    write(canvas, label, size, theme.WHITE, right - w + size // 2, mid_y)
