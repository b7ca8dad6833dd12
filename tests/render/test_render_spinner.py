"""The spinner games' table (Осёл, Телефон, Muggins): random tables met in play, laid out
round their spinner in every frame, and their open ends' labels."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.game import Phase, apply, legal_moves, new_game, parse_rules
from bot.game.table import oriented
from render import LINE_TRACKS, PINWHEEL, PlacedTile, Rect, layout_chain, render_table
from render.ends import ARROWS, open_ends, place_labels
from render.spinner import OFF_MIDDLE, STEP
from render.sprites import label
from render.table import END_TEXT, LABEL_GAP, TALLEST, arrange, felt_room
from tests.render import samples
from tests.render.test_render_layout import FRAMES, Chain, arranged, check, unit_of

PRESETS = ("donkey", "telephone", "muggins")


def _play(preset: str, players: int, max_pip: int, seed: int, moves: int) -> Chain | None:
    """The table after up to `moves` random legal moves of a round, if a spinner lies."""
    rules = parse_rules(f"{preset} max_pip={max_pip}", players=players)
    state, _ = new_game(rules, [f"p{i}" for i in range(players)], seed)
    rng = Random(seed)
    for _ in range(moves):
        if state.phase is not Phase.PLAYING:
            break
        state, _ = apply(state, rng.choice(legal_moves(state)))
    table = state.table
    if table.spread.spinner is None:
        return None
    first, arms = oriented(table, rules.tiles)
    return first, tuple(tuple(arm) for arm in arms)


@st.composite
def spinner_tables(draw: st.DrawFn, max_pips: tuple[int, ...] = (6, 9, 12)) -> Chain:
    """A table of a random round of a spinner game, once its spinner lies."""
    preset = draw(st.sampled_from(PRESETS))
    players = draw(st.integers(2, 4))
    max_pip = draw(st.sampled_from(max_pips))
    while True:
        seed, moves = draw(st.integers(0, 2**32 - 1)), draw(st.integers(1, 200))
        if (table := _play(preset, players, max_pip, seed, moves)) is not None:
            return table


@settings(max_examples=300, deadline=None)
@given(table=spinner_tables(), area=st.sampled_from(FRAMES))
def test_spinner_tables_lay_out_cleanly(table: Chain, area: Rect) -> None:
    """No overlaps, inside the bounds, every arm joined to the spinner and tile to tile."""
    first, arms = table
    tiles = layout_chain(first, arms, area, tracks=PINWHEEL[: len(arms)])
    check(table, area, tiles)
    spinner = tiles[0]
    assert spinner.double and spinner.vertical, "the spinner lies crosswise"


def _in_quarters(tiles: Sequence[PlacedTile]) -> None:
    """West and east arms keep to their side of the spinner, north and south arms to theirs,
    beyond its first tile."""
    spinner = tiles[0].rect
    for tile in tiles[1:]:
        rect = tile.rect
        side = {
            0: rect.right <= spinner.left,
            1: rect.left >= spinner.right,
            2: rect.bottom <= spinner.top,
            3: rect.top >= spinner.bottom,
        }
        assert tile.arm is not None and side[tile.arm], tile


@settings(max_examples=200, deadline=None)
@given(table=spinner_tables(), area=st.sampled_from(FRAMES))
def test_arms_keep_to_their_quarters(table: Chain, area: Rect) -> None:
    """Each arm grows away from the others."""
    first, arms = table
    _in_quarters(layout_chain(first, arms, area, tracks=PINWHEEL[: len(arms)]))


@settings(max_examples=200, deadline=None)
@given(table=spinner_tables(), area=st.sampled_from(FRAMES))
def test_adding_a_tile_moves_nothing_unless_rescaled(table: Chain, area: Rect) -> None:
    first, arms = table
    tracks = PINWHEEL[: len(arms)]
    longer = layout_chain(first, arms, area, tracks=tracks)
    grown = [i for i, halves in enumerate(arms) if halves]
    if not grown:
        return
    arm = grown[-1]
    shorter = tuple(halves[:-1] if i == arm else halves for i, halves in enumerate(arms))
    kept = [t for t in longer if not (t.arm == arm and t.index == len(arms[arm]) - 1)]
    assert unit_of(layout_chain(first, shorter, area, tracks=tracks)) >= unit_of(longer)
    assert layout_chain(first, shorter, area, unit=unit_of(longer), tracks=tracks) == kept


def _max_pip(table: Chain) -> int:
    first, arms = table
    return max(6, *first, *(v for arm in arms for pair in arm for v in pair))


@settings(max_examples=200, deadline=None)
@given(table=spinner_tables(), seats=st.integers(2, 4))
def test_grown_spinner_tables_lay_out_cleanly(table: Chain, seats: int) -> None:
    """In the picture the renderer picks, however big the table: no overlaps, inside the
    line's bounds, joined, each arm in its quarter; the spinner a few units off the middle
    across at most (where that makes the picture shorter), the picture within its height."""
    picture = arranged(table, seats, _max_pip(table), spinner=True)
    tiles, area = list(picture.tiles), picture.frame.chain
    check(table, area, tiles, centred=False, across=False)
    _in_quarters(tiles)
    spinner = tiles[0].rect
    off = (spinner.left + spinner.right) // 2 - (area.left + area.right) // 2
    assert abs(off) <= OFF_MIDDLE * picture.unit
    assert picture.frame.height <= TALLEST


def test_a_grown_spinner_table_leaves_the_middle_to_be_shorter() -> None:
    """The whole double-twelve set: its 42-tile east arm takes a wider quarter, the spinner
    left of the middle, and the line's bounds reach no further than the arms above and below
    the spinner need (a step of felt at most)."""
    scene = samples.largest_spinner_table()
    assert scene.first is not None
    picture = arrange(scene)
    tiles, area = list(picture.tiles), picture.frame.chain
    check((scene.first, scene.arms), area, tiles, centred=False, across=False)
    _in_quarters(tiles)
    assert (tiles[0].rect.left + tiles[0].rect.right) // 2 < (area.left + area.right) // 2
    top = min(t.rect.top for t in tiles if t.arm in (0, 2))
    bottom = max(t.rect.bottom for t in tiles if t.arm in (1, 3))
    assert 0 <= top - area.top < STEP and 0 <= area.bottom - bottom < STEP


@settings(max_examples=200, deadline=None)
@given(table=spinner_tables(), seats=st.integers(2, 4))
def test_labels_cover_no_tile_and_no_other_label(table: Chain, seats: int) -> None:
    """Each open end's «⬅ 5» stays on the felt round the line, off the tiles and the others."""
    picture = arranged(table, seats, _max_pip(table), spinner=True)
    tiles, area = list(picture.tiles), picture.frame.chain
    ends = open_ends(tiles, picture.tracks, closed=())
    sizes = [label(f"{ARROWS[end.arm]} {end.value}", END_TEXT).size for end in ends]
    spots = place_labels(ends, sizes, tiles, felt_room(area), LABEL_GAP)
    assert list(picture.labels) == spots, "the picture shows the labels where they go"
    assert [end.arm for end in ends] == list(range(len(table[1])))
    for spot in spots:
        assert felt_room(area).contains(spot)
        assert not any(spot.overlaps(t.rect) for t in tiles)
    for a, b in combinations(spots, 2):
        assert not a.overlaps(b)


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_reaches_a_spinner_table(preset: str) -> None:
    """The generator above does meet four-armed tables of each game."""
    tables = (_play(preset, 2, 6, seed, 40) for seed in range(50))
    assert any(table is not None and len(table[1]) == 4 for table in tables)


def test_a_closed_end_gets_no_label_and_lies_face_down() -> None:
    """Осёл before its spinner: a line whose east end is a closed 4-4 shows one open end,
    and the closed double is drawn as a back, not as its face."""
    first, arms = (2, 3), (((2, 5),), ((3, 4), (4, 4)))
    tiles = layout_chain(first, arms, FRAMES[2])
    assert [end.arm for end in open_ends(tiles, LINE_TRACKS, closed=(1,))] == [0]
    scene = samples.table(6, (5, 6))
    line = replace(scene, first=first, arms=arms, last_played=(4, 4))
    assert render_table(line) != render_table(replace(line, closed=(1,)))
