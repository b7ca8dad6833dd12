"""Colours, the fixed output palette, anti-aliased painting and PNG encoding.

Pictures are composed in RGB, then mapped onto one fixed 256-colour palette (no dithering)
and saved as palette PNGs: that is several times faster to encode than RGB and much
smaller, and the felt, which covers most of the picture, is made of exact palette colours.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from functools import cache

from PIL import Image, ImageDraw

Colour = tuple[int, int, int]

FELT_INNER: Colour = (30, 122, 76)
FELT_OUTER: Colour = (16, 86, 52)
FELT_SHADES = 10
HEADER: Colour = (9, 36, 24)
PANEL: Colour = (10, 48, 31)
PANEL_EDGE: Colour = (48, 104, 74)
IVORY: Colour = (252, 248, 236)
IVORY_SHADE: Colour = (226, 218, 196)
TILE_EDGE: Colour = (128, 116, 92)
PIP: Colour = (24, 22, 20)
DIVIDER: Colour = (112, 102, 82)
BRASS: Colour = (200, 164, 86)
BACK: Colour = (134, 30, 42)
BACK_EDGE: Colour = (84, 16, 24)
BACK_MARK: Colour = (184, 74, 82)
GOLD: Colour = (255, 196, 32)
WHITE: Colour = (246, 246, 240)
MUTED: Colour = (150, 184, 164)
YELLOW: Colour = (255, 218, 20)
RED: Colour = (255, 92, 76)
FISH: Colour = (96, 176, 255)
EGG: Colour = (250, 238, 206)
BLACK: Colour = (0, 0, 0)
TEAMS: tuple[Colour, ...] = (
    (74, 156, 255),  # blue
    (255, 146, 44),  # orange
    (236, 84, 200),  # magenta
    (64, 226, 214),  # turquoise
    (150, 230, 60),  # lime
)
"""Team rims, team 0 … 4."""
PIP_COLOURS: tuple[Colour, ...] = (
    PIP,
    (0, 140, 204),  # 1 sky blue
    (34, 140, 52),  # 2 green
    (206, 36, 36),  # 3 red
    (140, 82, 34),  # 4 brown
    (34, 60, 178),  # 5 blue
    (214, 142, 0),  # 6 amber
    (138, 52, 170),  # 7 purple
    (0, 130, 122),  # 8 teal
    PIP,  # 9 black
    TEAMS[2],  # 10 magenta
    TEAMS[1],  # 11 orange
    BACK,  # 12 maroon
)
"""Pips by value in the bigger sets, coloured as double-twelve sets are (0 has none)."""

SUPERSAMPLE = 4


def felt_shade(level: int) -> Colour:
    """Felt colour `level` steps (0 … FELT_SHADES - 1) from the lit centre to the edge."""
    t = level / (FELT_SHADES - 1)
    return _mix(FELT_INNER, FELT_OUTER, t)


def _mix(a: Colour, b: Colour, t: float) -> Colour:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


_FELT = felt_shade(FELT_SHADES // 2)
_BACKGROUNDS: tuple[Colour, ...] = (_FELT, FELT_OUTER, PANEL, HEADER, IVORY, BACK, WHITE)
_RAMPS: tuple[tuple[Colour, tuple[Colour, ...]], ...] = (
    (BLACK, (_FELT, FELT_OUTER, FELT_INNER, PANEL)),
    (WHITE, (PANEL, HEADER, _FELT)),
    (MUTED, (PANEL, HEADER)),
    (YELLOW, (PANEL, HEADER)),
    (RED, (PANEL, HEADER)),
    (GOLD, (PANEL, _FELT, IVORY, FELT_OUTER)),
    *((team, (PANEL,)) for team in TEAMS[:2]),
    *((team, ()) for team in TEAMS[2:]),  # no blends: they would recolour older pictures
    (FISH, (PANEL, HEADER)),
    (EGG, (PANEL, HEADER)),
    (PIP, (IVORY, IVORY_SHADE)),
    (TILE_EDGE, (_FELT, PANEL, IVORY)),
    (DIVIDER, (IVORY,)),
    (BRASS, (IVORY,)),
    (IVORY_SHADE, (IVORY,)),
    (BACK_EDGE, (PANEL, _FELT, BACK)),
    (BACK_MARK, (BACK,)),
    (PANEL_EDGE, (PANEL, _FELT)),
    (HEADER, (_FELT,)),
)
_RAMP_STEPS = 5
_PIP_STEPS = 2  # the pip colours' blends into ivory: the palette has room for no more


@cache
def palette_image() -> Image.Image:
    """The output palette: every key colour plus blends for anti-aliased edges."""
    colours: list[Colour] = [felt_shade(level) for level in range(FELT_SHADES)]
    colours += _BACKGROUNDS
    for ink, grounds in _RAMPS:
        colours.append(ink)
        for ground in grounds:
            colours += (_mix(ink, ground, i / (_RAMP_STEPS + 1)) for i in range(1, _RAMP_STEPS + 1))
    for ink in dict.fromkeys(PIP_COLOURS[1:]):
        colours.append(ink)
        colours += (_mix(ink, IVORY, i / (_PIP_STEPS + 1)) for i in range(1, _PIP_STEPS + 1))
    unique = list(dict.fromkeys(colours))
    if len(unique) > 256:
        raise AssertionError(f"palette has {len(unique)} colours")
    unique += [BLACK] * (256 - len(unique))
    image = Image.new("P", (1, 1))
    image.putpalette([channel for colour in unique for channel in colour])
    return image


def encode_png(image: Image.Image) -> bytes:
    """Map an RGB picture onto the palette and encode it as PNG."""
    indexed = image.quantize(palette=palette_image(), dither=Image.Dither.NONE)
    out = io.BytesIO()
    indexed.save(out, "PNG", optimize=False, compress_level=1)
    return out.getvalue()


def hires(size: tuple[int, int], paint: Callable[[ImageDraw.ImageDraw, int], None]) -> Image.Image:
    """An RGBA sprite of `size` painted at `SUPERSAMPLE`× (`paint` gets the factor) and reduced.
    It is painted straight into premultiplied pixels (reduced so, no dark fringes): `paint`
    uses opaque colours only, which premultiplying leaves as they are."""
    k = SUPERSAMPLE
    big = Image.new("RGBa", (size[0] * k, size[1] * k), (0, 0, 0, 0))
    paint(ImageDraw.Draw(big), k)
    return big.reduce(k).convert("RGBA")
