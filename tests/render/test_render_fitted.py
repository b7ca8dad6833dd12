"""A line laid out after the line one tile shorter starts from what that one needed: the
same picture, from fewer tries."""

from __future__ import annotations

from dataclasses import replace
from random import Random

import pytest

from render import layout, table
from render.fitted import Fitted, line_of
from render.scene import TableScene
from render.table import arrange
from tests.render import samples
from tests.render.test_render_layout import _line


def _growing(seed: int, length: int, max_pip: int) -> list[TableScene]:
    """A line of `length` tiles as it grew, a tile at a time, on a table of two."""
    rng = Random(seed)
    while (chain := _line(rng, length, max_pip)) is None:
        pass
    first, (left, right) = chain
    base = samples.table(1, hands=(1, 1), max_pip=max_pip)
    order = [0] * len(left) + [1] * len(right)
    rng.shuffle(order)
    scenes, grown = [], [0, 0]
    for arm in order:
        grown[arm] += 1
        scenes.append(replace(base, first=first, arms=(left[: grown[0]], right[: grown[1]])))
    return scenes


@pytest.mark.parametrize(("seed", "length", "max_pip"), [(1, 28, 6), (2, 60, 12), (3, 88, 12)])
def test_a_growing_line_is_laid_out_as_if_nothing_were_remembered(
    monkeypatch: pytest.MonkeyPatch, seed: int, length: int, max_pip: int
) -> None:
    tries = 0
    lay_out = layout._layout_at

    def counted(*args: object) -> list[layout.PlacedTile]:
        nonlocal tries
        tries += 1
        return lay_out(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(layout, "_layout_at", counted)
    scenes = _growing(seed, length, max_pip)
    remembered = [arrange(scene) for scene in scenes]
    warm, tries = tries, 0
    afresh = []
    for scene in scenes:
        monkeypatch.setattr(layout, "UNIT", Fitted())
        monkeypatch.setattr(table, "GROWN", Fitted())
        afresh.append(arrange(scene))
    assert remembered == afresh
    assert warm < tries
    assert {a.unit for a in remembered} != {remembered[0].unit}  # the tiles did shrink


def test_the_least_recently_used_line_is_forgotten() -> None:
    fitted = Fitted(kept=2)
    lines = [line_of((n, n), ((), ()), "here") for n in range(3)]
    fitted.keep(lines[0], 10)
    fitted.keep(lines[1], 20)
    assert fitted.known(lines[0]) == 10  # used again: now the most recent
    fitted.keep(lines[2], 30)
    assert [fitted.known(line) for line in lines] == [10, None, 30]


def test_a_line_one_tile_longer_is_known_by_its_shorter_line() -> None:
    fitted = Fitted()
    shorter = line_of((6, 6), (((6, 1),), ()), "here")
    fitted.keep(shorter, 34)
    assert fitted.known(line_of((6, 6), (((6, 1),), ((6, 2),)), "here")) == 34
    assert fitted.known(line_of((6, 6), (((6, 1), (1, 3)), ()), "here")) == 34
    assert fitted.known(line_of((6, 6), (((6, 1),), ((6, 2), (2, 2))), "here")) is None
    assert fitted.known(line_of((6, 6), (((6, 1),), ((6, 2),)), "there")) is None
