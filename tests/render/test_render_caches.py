"""The pictures' caches keep within their budgets, whatever is drawn, and keep what was
drawn last."""

from __future__ import annotations

import io
import sys
from dataclasses import replace
from functools import _lru_cache_wrapper

import pytest
from PIL import Image

import render
import render.geometry  # the table app's: not loaded with the package
from render import budget, canvas, sprites, table
from render.budget import Bounded, bounded, image_bytes
from render.scene import TableScene
from render.table import render_table
from tests.render import samples

FINITE = {
    "render.theme.palette_image": "one palette",
    "render.text.font": "the sizes the pictures use, two faces",
    "render.text.coverage": "two faces",
    "render.text._icon": "three icons at the text sizes",
    "render.sprites.shadow": "a tile unit of `UNITS`, upright or lying",
    "render.sprites.glow": "a tile unit of `UNITS`, upright or lying",
    "render.sprites.badge": "values 0 … 12 at the badges' sizes",
    "render.sheet._die": "the sheet's one size",
    "render.table.frame": "2 … 10 seats by the line's heights: small records, no pixels",
    "render.geometry._faces": "the sets' largest values, 6 … 12: small records, no pixels",
}
"""Caches with no bound of their own, and why their keys are few."""


def caches() -> dict[str, object]:
    """Every cache a module of render holds: `module.function` → the cache."""
    found: dict[str, object] = {}
    for name, module in list(sys.modules.items()):
        if name == "render" or name.startswith("render."):
            for value in vars(module).values():
                if isinstance(value, _lru_cache_wrapper | Bounded):
                    function = value.function if isinstance(value, Bounded) else value.__wrapped__
                    found[f"{function.__module__}.{function.__name__}"] = value
    return found


def test_every_cache_of_render_has_a_bound_or_few_keys() -> None:
    assert render.__all__  # the package is loaded, all its modules with it
    unbounded = {
        name
        for name, cache in caches().items()
        if isinstance(cache, _lru_cache_wrapper) and cache.cache_info().maxsize is None
    }
    assert unbounded == set(FINITE)


def _square(side: int) -> Image.Image:
    return Image.new("RGBA", (side, side))


def test_a_bounded_cache_drops_the_least_recently_used_first() -> None:
    drawn: list[int] = []

    @bounded(3 * 10 * 10 * 4)  # three 10 × 10 RGBA pictures
    def square(side: int) -> Image.Image:
        drawn.append(side)
        return _square(side)

    ten = square(10)
    assert square(10) is ten and square.held == 400  # drawn and kept once
    square(9)
    square(10)  # 10 is used again: 9 is now the least recently used
    square(8)
    assert drawn == [10, 9, 8] and square.held == 400 + 324 + 256
    square(11)  # 484 bytes more, over the budget: 9 goes, and that is enough
    assert square.held == 400 + 256 + 484 and len(square) == 3
    assert square(10) is ten and drawn == [10, 9, 8, 11]
    square(9)
    assert drawn == [10, 9, 8, 11, 9] and square.held <= 3 * 10 * 10 * 4
    square.cache_clear()
    assert square.held == 0 and len(square) == 0


def test_a_picture_bigger_than_the_budget_is_drawn_but_not_kept() -> None:
    @bounded(100)
    def square(side: int) -> Image.Image:
        return _square(side)

    assert square(20).size == (20, 20)
    assert len(square) == 0 and square.held == 0


def test_image_bytes_counts_what_pillow_holds() -> None:
    assert image_bytes(Image.new("RGB", (10, 20))) == 800  # RGB has a pad byte
    assert image_bytes(Image.new("P", (10, 20))) == 200
    assert image_bytes(Image.new("L", (10, 20))) == 200


def _mover(scene: TableScene, seat: int) -> TableScene:
    seats = tuple(replace(s, to_move=i == seat) for i, s in enumerate(scene.seats))
    return replace(scene, seats=seats)


def _kept(cache: Bounded[...]) -> int:
    return sum(image_bytes(image) for image in cache._kept.values())


def test_room_tables_of_every_length_keep_to_the_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables as a room game draws them, its line growing, with budgets small enough to
    fill: what is kept stays within them, and is what was drawn last."""
    backgrounds, shades = table._background, canvas._felt_shades
    monkeypatch.setattr(backgrounds, "budget", 3 * image_bytes(Image.new("RGB", (840, 1200))))
    monkeypatch.setattr(shades, "budget", 3 * 840 * 1200)
    for cache in (backgrounds, shades):
        cache.cache_clear()
    heights = set()
    for tiles in range(1, 92, 5):  # the line grows: a taller picture every few tiles
        hands = tuple((tiles + seat) % 13 for seat in range(10))
        scene = samples.table(tiles, hands, max_pip=12, out=(4, 7) if tiles > 40 else ())
        heights.add(Image.open(io.BytesIO(render_table(_mover(scene, tiles % 10)))).height)
        for cache in (backgrounds, shades):
            assert cache.held == _kept(cache) <= cache.budget
    assert 0 < len(backgrounds) < len(heights) and 0 < len(shades) < len(heights)
    assert list(backgrounds._kept.values())[-1].height == max(heights)  # the last drawn


def test_one_background_serves_every_mover() -> None:
    table._background.cache_clear()
    scene = samples.table(45, (5, 12, 3, 11, 0, 9, 1, 0, 4, 1), max_pip=12, out=(4, 7))
    for seat in range(10):
        render_table(_mover(scene, seat))
    assert len(table._background) == 1


def test_chips_of_many_names_keep_to_the_plates_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """A chip is as wide as its text: the plates of many notes stay within the budget."""
    monkeypatch.setattr(sprites.plate, "budget", 400_000)
    sprites.plate.cache_clear()
    scene = samples.table(20, (2, 2, 1, 3), teams=2)
    for number in range(12):
        seats = tuple(
            replace(s, note=f"+{number * 4 + i} " + "ж" * (number + i))
            for i, s in enumerate(scene.seats)
        )
        render_table(replace(scene, seats=seats))
        assert sprites.plate.held == _kept(sprites.plate) <= 400_000
    assert 0 < len(sprites.plate) < 12 * 4


def test_the_budgets_add_up_to_a_few_dozen_megabytes() -> None:
    total = table.BACKGROUND_BUDGET + canvas.FELT_BUDGET + sprites.PLATE_BUDGET
    assert total <= 64 * budget.MB
