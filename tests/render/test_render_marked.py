"""A review's position: the better move's tile in the revealed hand is framed in gold, and
nothing else of the picture changes."""

from __future__ import annotations

import io
from dataclasses import replace

from PIL import Image, ImageChops

from render import render_table, theme
from tests.render import samples


def test_a_marked_tile_is_framed_in_gold() -> None:
    scene = samples.table(6, (5, 6), round_end=True)
    seat = scene.seats[0]
    assert seat.revealed
    tile = seat.revealed[1]
    marked = replace(scene, seats=(replace(seat, marked=(tile,)), *scene.seats[1:]))
    plain, framed = (
        Image.open(io.BytesIO(render_table(s))).convert("RGB") for s in (scene, marked)
    )
    changed = ImageChops.difference(plain, framed).getbbox()
    assert changed is not None
    left, top, right, bottom = changed
    assert right - left < plain.width // 8 and bottom - top < plain.height // 4  # one tile's
    colours = {framed.getpixel((x, y)) for x in range(left, right) for y in range(top, bottom)}
    assert theme.GOLD in colours
    unmarked = replace(scene, seats=(replace(seat, marked=((9, 9),)), *scene.seats[1:]))
    assert render_table(unmarked) == render_table(scene)  # a tile not in the hand: nothing
