"""Pre-rendered pieces, each drawn once per size and then only pasted.

Tiles are drawn upright or lying (`vertical`), a unit `u` being the short side; pips are
drawn, never digits. Shadows and glows are masks to paste a flat colour through.
"""

from __future__ import annotations

from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFilter

from render import text, theme
from render.budget import MB, bounded
from render.theme import Colour, hires

_G = (0.255, 0.5, 0.745)
"""Three lines across a half (and three places along each, for 0 … 9)."""
_L = (0.185, 0.395, 0.605, 0.815)
"""Four places along each line, for 10 … 12."""
_RING = tuple((x, y) for x in _G for y in _L if x != _G[1] or y in (_L[0], _L[-1]))
_PIPS: tuple[tuple[tuple[float, float], ...], ...] = (
    (),
    ((_G[1], _G[1]),),
    ((_G[0], _G[0]), (_G[2], _G[2])),
    ((_G[0], _G[0]), (_G[1], _G[1]), (_G[2], _G[2])),
    ((_G[0], _G[0]), (_G[2], _G[0]), (_G[0], _G[2]), (_G[2], _G[2])),
    ((_G[0], _G[0]), (_G[2], _G[0]), (_G[1], _G[1]), (_G[0], _G[2]), (_G[2], _G[2])),
    tuple((x, y) for x in (_G[0], _G[2]) for y in _G),
    (*((x, y) for x in (_G[0], _G[2]) for y in _G), (_G[1], _G[1])),
    tuple((x, y) for x in _G for y in _G if (x, y) != (_G[1], _G[1])),
    tuple((x, y) for x in _G for y in _G),
    _RING,
    (*_RING, (_G[1], 0.5)),
    tuple((x, y) for x in _G for y in _L),
)
"""Pip centres of 0 … 12 in a unit half of an upright tile (lines run lengthwise).

Up to 9 on a 3 × 3 grid: 6 is two lines of three, 7 adds the centre, 8 is the ring, 9 all of
it. 10 … 12 do the same on three lines of four, as double-twelve sets do (4-2-4, 4-3-4,
4-4-4): the ring (10), the ring and the centre (11), all of it (12).
"""

_DOT = 0.1
"""Pip radius in units for 0 … 9."""
_DOT_DENSE = 0.0845
"""Pip radius in units for 10 … 12, whose places along a line are only 0.21 units apart."""

MAX_PIP = len(_PIPS) - 1


def pip_places(value: int) -> tuple[tuple[float, float], ...]:
    """Where the pips of `value` lie in a unit half of an upright tile: (across, along)."""
    return _PIPS[value]


def pip_radius(value: int) -> float:
    """The radius of the pips of `value`, in units."""
    return _DOT if value <= 9 else _DOT_DENSE


def _radius(u: int) -> float:
    return max(2.0, u * 0.17)


def _size(u: int, vertical: bool) -> tuple[int, int]:
    return (u, 2 * u) if vertical else (2 * u, u)


FACE_BUDGET = 8 * MB
"""Every tile of a double-twelve set, upright and lying, at a few sizes (a tile 64 px
across is 32 kB)."""


@bounded(FACE_BUDGET)
def face(
    u: int, pips: tuple[int, int], vertical: bool, lit: bool = False, coloured: bool = False
) -> Image.Image:
    """A tile face up: `pips` on the top/left then bottom/right half; `lit` rims it in gold;
    `coloured` gives each value its own colour (`theme.PIP_COLOURS`), else pips are black."""
    w, h = _size(u, vertical)

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        big_u = u * k
        r = _radius(u) * k
        rim = max(k, round((0.09 if lit else 0.045) * big_u))
        draw.rounded_rectangle(
            (0, 0, w * k - 1, h * k - 1), r, fill=theme.GOLD if lit else theme.TILE_EDGE
        )
        draw.rounded_rectangle(
            (rim, rim, w * k - 1 - rim, h * k - 1 - rim), r - rim, fill=theme.IVORY_SHADE
        )
        shade = max(k, round(0.05 * big_u))
        draw.rounded_rectangle(
            (rim, rim, w * k - 1 - rim - shade, h * k - 1 - rim - shade), r - rim, fill=theme.IVORY
        )
        inset = 0.16 * big_u
        line = max(k, round(0.05 * big_u))
        mid = big_u
        if vertical:
            draw.rectangle(
                (inset, mid - line / 2, w * k - inset, mid + line / 2), fill=theme.DIVIDER
            )
        else:
            draw.rectangle(
                (mid - line / 2, inset, mid + line / 2, h * k - inset), fill=theme.DIVIDER
            )
        pin = 0.07 * big_u
        cx, cy = w * k / 2, h * k / 2
        draw.ellipse((cx - pin, cy - pin, cx + pin, cy + pin), fill=theme.BRASS)
        for half, value in enumerate(pips):
            dot = pip_radius(value) * big_u
            ink = theme.PIP_COLOURS[value] if coloured else theme.PIP
            for px, py in pip_places(value):
                x, y = (px, py + half) if vertical else (py + half, px)
                x, y = x * big_u, y * big_u
                draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=ink)

    return hires((w, h), paint)


@lru_cache(maxsize=64)
def back(u: int, vertical: bool = True) -> Image.Image:
    """A tile face down."""
    w, h = _size(u, vertical)

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        r = _radius(u) * k
        rim = max(k, round(0.06 * u * k))
        draw.rounded_rectangle((0, 0, w * k - 1, h * k - 1), r, fill=theme.BACK_EDGE)
        draw.rounded_rectangle(
            (rim, rim, w * k - 1 - rim, h * k - 1 - rim), r - rim, fill=theme.BACK
        )
        inset = 0.2 * u * k
        draw.rounded_rectangle(
            (inset, inset, w * k - inset, h * k - inset),
            r * 0.6,
            outline=theme.BACK_MARK,
            width=max(k, round(0.05 * u * k)),
        )

    return hires((w, h), paint)


def _blurred(
    size: tuple[int, int], pad: int, radius: float, blur: float, alpha: int
) -> Image.Image:
    mask = Image.new("L", (size[0] + 2 * pad, size[1] + 2 * pad), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (pad, pad, pad + size[0] - 1, pad + size[1] - 1), radius, fill=alpha
    )
    return mask.filter(ImageFilter.GaussianBlur(blur))


@cache
def shadow(u: int, vertical: bool) -> tuple[Image.Image, tuple[int, int]]:
    """Soft drop-shadow mask of a tile and its offset from the tile's corner."""
    pad = max(2, u // 4)
    mask = _blurred(_size(u, vertical), pad, _radius(u), max(1.0, u * 0.08), 120)
    return mask, (-pad + max(1, u // 16), -pad + max(1, u // 9))


@cache
def glow(u: int, vertical: bool) -> tuple[Image.Image, tuple[int, int]]:
    """Gold halo mask around the last played tile and its offset from the tile's corner."""
    pad = max(4, u // 3)
    w, h = _size(u, vertical)
    spread = pad // 2
    mask = _blurred(
        (w + 2 * spread, h + 2 * spread), pad - spread, _radius(u) + spread, pad / 3, 230
    )
    return mask, (-pad, -pad)


@cache
def badge(value: int, diameter: int, size: int | None = None) -> Image.Image:
    """A round marker with the value of an open end in digits `size` px high (by default
    to fit the `diameter`, two digits a little smaller)."""
    size = size or round(diameter * (0.68 if value < 10 else 0.52))
    digits = text.sprite(str(value), size, theme.FELT_OUTER, bold=True)

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        d = diameter * k
        draw.ellipse((0, 0, d - 1, d - 1), fill=theme.GOLD)
        ring = max(k, round(d * 0.07))
        draw.ellipse((ring, ring, d - 1 - ring, d - 1 - ring), fill=theme.WHITE)

    image = hires((diameter, diameter), paint)
    ascent, _ = text.font(size, True).getmetrics()
    top = diameter // 2 - ascent + round(size * 0.365)  # centre the digits' cap height
    image.alpha_composite(digits, ((diameter - digits.width) // 2, top))
    return image


def label_height(size: int) -> int:
    """How tall a `label` with text `size` px high is."""
    return round(size * 5 / 3)


@lru_cache(maxsize=256)
def label(caption: str, size: int) -> Image.Image:
    """A pill like `badge` holding a short `caption` `size` px high: an arrow and a value."""
    height = label_height(size)
    glyphs = text.sprite(caption, size, theme.FELT_OUTER, bold=True)
    w = glyphs.width + height * 2 // 3

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        box = (0, 0, w * k - 1, height * k - 1)
        draw.rounded_rectangle(box, height * k // 2, fill=theme.GOLD)
        ring = max(k, round(height * k * 0.07))
        inner = (ring, ring, w * k - 1 - ring, height * k - 1 - ring)
        draw.rounded_rectangle(inner, height * k // 2 - ring, fill=theme.WHITE)

    image = hires((w, height), paint)
    ascent, _ = text.font(size, True).getmetrics()
    top = height // 2 - ascent + round(size * 0.365)  # centre the capitals, as `badge` does
    image.alpha_composite(glyphs, ((w - glyphs.width) // 2, top))
    return image


PLATE_BUDGET = 8 * MB
"""Panels, bars and chips (as wide as their text) of every size drawn lately: a score
sheet's panel alone is some 1250 × 900 px."""


@bounded(PLATE_BUDGET)
def plate(
    size: tuple[int, int], radius: int, fill: Colour | None, edge: Colour, edge_width: int
) -> Image.Image:
    """A rounded panel with a border (just the border if `fill` is None)."""

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        box = (0, 0, size[0] * k - 1, size[1] * k - 1)
        draw.rounded_rectangle(box, radius * k, fill=fill, outline=edge, width=edge_width * k)

    return hires(size, paint)
