"""Geometry: the line (random legal chains of every length) and the seats, in every frame."""

from __future__ import annotations

from itertools import combinations, pairwise
from math import atan2, degrees
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from render import UNITS, NoFitError, PlacedTile, Rect, Track, layout_chain
from render.canvas import HEADER
from render.layout import EAST, NORTH, SOUTH, WEST
from render.scene import SeatScene, TableScene
from render.seats import _gap, _pack
from render.table import CHAIN_HEIGHT, GROWTH, WIDTH, Arrangement, arrange, frame, least_unit
from tests.render import samples

Pips = tuple[int, int]
Chain = tuple[Pips, tuple[tuple[Pips, ...], ...]]

SEATS = range(2, 11)
FRAMES = [frame(seats, CHAIN_HEIGHT + grown * GROWTH).chain for seats in SEATS for grown in (0, 8)]


def _line(rng: Random, length: int, max_pip: int) -> Chain | None:
    """Pick a first tile, then attach random unused tiles to an open end; None if blocked."""
    unused = [(a, b) for a in range(max_pip + 1) for b in range(a, max_pip + 1)]
    tile = rng.choice(unused)
    unused.remove(tile)
    first = tile[::-1] if rng.random() < 0.5 else tile
    arms: tuple[list[Pips], list[Pips]] = ([], [])
    ends = list(first)
    for _ in range(length - 1):
        options = [(t, end) for end in (0, 1) for t in unused if ends[end] in t]
        if not options:
            return None
        tile, end = rng.choice(options)
        unused.remove(tile)
        outer = tile[1] if tile[0] == ends[end] else tile[0]
        arms[end].append((ends[end], outer))
        ends[end] = outer
    return first, (tuple(arms[0]), tuple(arms[1]))


@st.composite
def chains(draw: st.DrawFn, length: int, max_pip: int = 6) -> Chain:
    """A legal line of `length` tiles (a blocked attempt, a fish, is simply retried)."""
    rng = Random(draw(st.integers(0, 2**32 - 1)))
    while (chain := _line(rng, length, max_pip)) is None:
        pass
    return chain


def _tour(rng: Random, max_pip: int) -> list[int]:
    """A random line of the whole double-`max_pip` set, as the values along it.

    Every value lies on `max_pip + 2` tile halves, an even count for an even `max_pip`, so
    the set makes one closed line (Hierholzer); an odd set first loses the tiles 0-1, 2-3, ….
    """
    left_out = {(v, v + 1) for v in range(0, max_pip, 2)} if max_pip % 2 else set()
    tiles = {(a, b) for a in range(max_pip + 1) for b in range(a, max_pip + 1)} - left_out
    options = {v: list(range(max_pip + 1)) for v in range(max_pip + 1)}
    for row in options.values():
        rng.shuffle(row)
    stack, values = [rng.randrange(max_pip + 1)], []
    while stack:
        v, row = stack[-1], options[stack[-1]]
        while row and (min(v, row[-1]), max(v, row[-1])) not in tiles:
            row.pop()
        if row:
            w = row.pop()
            tiles.remove((min(v, w), max(v, w)))
            stack.append(w)
        else:
            values.append(stack.pop())
    return values


@st.composite
def long_chains(draw: st.DrawFn, max_pip: int) -> Chain:
    """A legal line cut from a random whole-set line: any length up to all of it, any split."""
    values = _tour(Random(draw(st.integers(0, 2**32 - 1))), max_pip)
    length = draw(st.integers(1, len(values) - 1))
    start = draw(st.integers(0, len(values) - 1 - length))
    values = values[start : start + length + 1]
    at = draw(st.one_of(st.sampled_from([0, length - 1]), st.integers(0, length - 1)))
    left = tuple((values[i + 1], values[i]) for i in range(at - 1, -1, -1))
    right = tuple((values[i], values[i + 1]) for i in range(at + 1, length))
    return (values[at], values[at + 1]), (left, right)


bounds = st.one_of(
    st.sampled_from(FRAMES),
    st.builds(
        lambda x, y, w, h: Rect(x, y, x + w, y + h),
        st.integers(0, 50),
        st.integers(0, 50),
        st.integers(300, 1400),
        st.integers(300, 1000),
    ),
)


def unit_of(tiles: list[PlacedTile]) -> int:
    return min(tiles[0].rect.width, tiles[0].rect.height)


def check(
    chain: Chain, area: Rect, tiles: list[PlacedTile], centred: bool = True, across: bool = True
) -> None:
    """Everything the picture promises about the line (or the arms round a spinner); the
    first tile in the middle of `area` unless the picture was cropped (not `centred`), and
    midway across unless a spinner left the middle to make its picture shorter (not
    `across`)."""
    first, arms = chain
    assert len(tiles) == 1 + sum(map(len, arms))
    u = unit_of(tiles)
    centre = ((area.left + area.right) // 2, (area.top + area.bottom) // 2)
    origin = tiles[0].rect
    middle = ((origin.left + origin.right) // 2, (origin.top + origin.bottom) // 2)
    if across:
        assert middle == centre if centred else middle[0] == centre[0]
    for tile in tiles:
        assert area.contains(tile.rect), tile
        assert sorted((tile.rect.width, tile.rect.height)) == [u, 2 * u]
        lengthwise = (tile.rect.width > tile.rect.height) == (tile.heading[0] != 0)
        assert lengthwise != tile.double, f"doubles lie crosswise, others along: {tile}"
        if not tile.double:
            value = dict(zip(tile.halves(), tile.faces(), strict=True))
            assert value[tile.half_of(outer=True)] == tile.outer
            assert value[tile.half_of(outer=False)] == tile.inner
    neighbours = {(t.arm, t.index - 1, t.arm, t.index) for t in tiles if t.index}
    neighbours |= {(None, 0, t.arm, 0) for t in tiles if t.arm is not None and t.index == 0}
    for a, b in combinations(tiles, 2):
        assert not a.rect.overlaps(b.rect), (a, b)
        if (a.arm, a.index, b.arm, b.index) not in neighbours:
            assert not a.rect.touches(b.rect), f"{a} and {b} look joined but are not"
    for arm, halves in enumerate(arms):
        own = [t for t in tiles if t.arm == arm]
        assert [(t.inner, t.outer) for t in own] == list(halves)
        previous, value = tiles[0].half_of(outer=arm == 1), first[min(arm, 1)]
        for tile in own:
            assert tile.inner == value
            assert previous.touches(tile.half_of(outer=False)), f"{tile} is loose"
            previous, value = tile.half_of(outer=True), tile.outer


@pytest.mark.parametrize("length", range(1, 29))
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_every_length_lays_out_cleanly(length: int, data: st.DataObject) -> None:
    chain = data.draw(chains(length))
    area = data.draw(bounds)
    check(chain, area, layout_chain(*chain, area))


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_double_nine_lines_fit_too(data: st.DataObject) -> None:
    chain = data.draw(chains(data.draw(st.integers(29, 45)), max_pip=9))
    area = data.draw(st.sampled_from(FRAMES))
    check(chain, area, layout_chain(*chain, area))


@pytest.mark.parametrize("max_pip", [9, 10, 11, 12])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_long_lines_of_the_big_sets_fit(max_pip: int, data: st.DataObject) -> None:
    """Up to all 91 tiles of double-twelve, split anyhow between the arms, in every frame."""
    chain = data.draw(long_chains(max_pip))
    area = data.draw(st.sampled_from(FRAMES))
    check(chain, area, layout_chain(*chain, area))


def test_the_big_sets_make_whole_lines() -> None:
    """The generator above does reach the longest lines the rules allow."""
    for max_pip, tiles in ((9, 50), (10, 66), (11, 72), (12, 91)):
        values = _tour(Random(max_pip), max_pip)
        pairs = {tuple(sorted(pair)) for pair in pairwise(values)}
        assert len(values) - 1 == len(pairs) == tiles
        assert all(0 <= v <= max_pip for v in values)


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_adding_a_tile_moves_nothing_unless_rescaled(data: st.DataObject) -> None:
    first, arms = data.draw(chains(data.draw(st.integers(2, 28))))
    area = data.draw(bounds)
    longer = layout_chain(first, arms, area)
    arm = data.draw(st.sampled_from([i for i, halves in enumerate(arms) if halves]))
    shorter_arms = tuple(halves[:-1] if i == arm else halves for i, halves in enumerate(arms))
    shorter = layout_chain(first, shorter_arms, area)
    assert unit_of(shorter) >= unit_of(longer), "the picture only ever shrinks"
    same_scale = layout_chain(first, shorter_arms, area, unit=unit_of(longer))
    kept = [t for t in longer if not (t.arm == arm and t.index == len(arms[arm]) - 1)]
    assert same_scale == kept


def arranged(chain: Chain, seats: int, max_pip: int, spinner: bool = False) -> Arrangement:
    """The frame and the line the renderer picks for `chain` at a table of `seats`."""
    first, arms = chain
    people = tuple(SeatScene(f"p{i}", 0, 0, 0, False, False, None, None) for i in range(seats))
    scene = TableScene(first, arms, people, None, None, max_pip=max_pip, spinner=spinner)
    return arrange(scene)


@pytest.mark.parametrize("seats", SEATS)
def test_one_armed_full_line_keeps_readable_tiles(seats: int) -> None:
    """The worst case: all 27 tiles grow from one side of the first tile."""
    values = (3, 3, 0, 0, 2, 2, 1, 1, 3, 6, 6, 2, 3, 5, 5, 6, 4, 4, 5, 0, 6, 1, 4, 2, 5, 1, 0, 4, 3)
    first = (values[0], values[1])
    arm = tuple((values[i], values[i + 1]) for i in range(1, len(values) - 1))
    chains: list[Chain] = [
        (first, ((), arm)),
        (first[::-1], (tuple((b, a) for a, b in arm)[::-1], ())),
    ]
    for chain in chains:
        table = arranged(chain, seats, 6)
        assert table.unit >= least_unit(6)
        check(chain, table.frame.chain, list(table.tiles), centred=False)


@pytest.mark.parametrize("seats", SEATS)
def test_one_armed_double_twelve_line_fits(seats: int) -> None:
    """All 91 double-twelve tiles from one side of the first tile, which keeps the middle:
    the picture grows as far as it may, then the tiles shrink a little."""
    values = samples.FULL_LINE_12
    first = (values[0], values[1])
    arm = tuple((values[i], values[i + 1]) for i in range(1, len(values) - 1))
    chains: list[Chain] = [(first, ((), arm)), (first[::-1], (arm, ()))]
    for chain in chains:
        table = arranged(chain, seats, 12)
        assert table.unit >= 28
        check(chain, table.frame.chain, list(table.tiles), centred=False)


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_adding_a_tile_to_a_long_double_twelve_line(data: st.DataObject) -> None:
    first, arms = data.draw(long_chains(12))
    if not any(arms):
        return
    area = data.draw(st.sampled_from(FRAMES))
    longer = layout_chain(first, arms, area)
    arm = data.draw(st.sampled_from([i for i, halves in enumerate(arms) if halves]))
    shorter_arms = tuple(halves[:-1] if i == arm else halves for i, halves in enumerate(arms))
    assert unit_of(layout_chain(first, shorter_arms, area)) >= unit_of(longer)
    same_scale = layout_chain(first, shorter_arms, area, unit=unit_of(longer))
    assert same_scale == [t for t in longer if not (t.arm == arm and t.index == len(arms[arm]) - 1)]


def test_a_unit_that_does_not_fit_is_refused() -> None:
    with pytest.raises(NoFitError):
        layout_chain((1, 2), (((1, 3),), ((2, 4),)), Rect(0, 0, 200, 200), unit=UNITS[0])


def test_empty_table_and_wrong_arm_count() -> None:
    assert layout_chain(None, ((), ()), FRAMES[0]) == []
    with pytest.raises(ValueError, match="tracks"):
        layout_chain((1, 1), ((), (), ()), FRAMES[0])


def test_arms_are_generic_four_around_a_spinner() -> None:
    """A spinner double takes an arm on each side (the spinner rules are a later issue)."""
    tracks = (Track(WEST, NORTH), Track(EAST, SOUTH), Track(NORTH, EAST), Track(SOUTH, WEST))
    arms = (((6, 1),), ((6, 2),), ((6, 3),), ((6, 4),))
    tiles = layout_chain((6, 6), arms, frame(4).chain, tracks=tracks)
    spinner = tiles[0].rect
    for tile in tiles[1:]:
        assert spinner.touches(tile.half_of(outer=False))
    for a, b in combinations(tiles, 2):
        assert not a.rect.overlaps(b.rect)


@pytest.mark.parametrize("seats", SEATS)
def test_panels_keep_apart_from_each_other_and_the_line(seats: int) -> None:
    """Below the title bar, inside the picture, apart even with the gold ring of the mover."""
    places = frame(seats)
    ring = 6
    table = Rect(ring, HEADER + ring, WIDTH - ring, places.height - ring)
    assert len(places.panels) == seats
    assert table.contains(places.chain)
    for panel in places.panels:
        assert table.contains(panel)
        assert not panel.overlaps(places.chain)
    for a, b in combinations(places.panels, 2):
        ringed = Rect(a.left - ring, a.top - ring, a.right + ring, a.bottom + ring)
        assert not ringed.overlaps(b), (a, b)


@pytest.mark.parametrize("seats", SEATS)
def test_seats_go_clockwise_from_the_bottom(seats: int) -> None:
    """Seat 0 in the middle of the bottom (or left of it), then round the table as the
    clock's hands go."""
    places = frame(seats)
    cx, cy = (
        (places.chain.left + places.chain.right) / 2,
        (places.chain.top + places.chain.bottom) / 2,
    )

    def turn(panel: Rect) -> float:  # clockwise from straight down, in degrees (y grows down)
        x, y = (panel.left + panel.right) / 2 - cx, (panel.top + panel.bottom) / 2 - cy
        return (degrees(atan2(y, x)) - 90) % 360

    turns = [turn(panel) for panel in places.panels]
    assert turns[0] < 90 and places.panels[0].top > places.chain.bottom
    assert turns == sorted(turns) and len(set(turns)) == seats


def test_the_room_keeps_the_line_large() -> None:
    """However many sit round it, the line keeps the 4-seat game's bounds."""
    least = frame(4).chain
    for seats in SEATS:
        chain = frame(seats).chain
        assert chain.width == least.width and chain.height == least.height


@settings(max_examples=300, deadline=None)
@given(
    count=st.integers(1, 40),
    w=st.integers(120, 640),
    h=st.integers(60, 400),
)
def test_hands_of_any_size_pack_into_their_box(count: int, w: int, h: int) -> None:
    """However many tiles a hand holds, they fit: the unit shrinks, never below 4 px."""
    u, cols = _pack(count, Rect(0, 0, w, h))
    rows = -(-count // cols)
    gap = _gap(u)
    assert u % 2 == 0 and 4 <= u <= 40
    assert cols * u + (cols - 1) * gap <= w
    assert rows * 2 * u + (rows - 1) * gap <= h
