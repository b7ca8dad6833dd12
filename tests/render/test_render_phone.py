"""Every table reads on a phone, which shows the picture `PHONE` px wide: its pips at least
`MIN_PIP` px across, the open ends' text at least `MIN_TEXT` px tall, every name whole."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from render import TableScene, render_table
from render.seats import INSET, name_lines
from render.sprites import label_height, pip_radius
from render.table import END_TEXT, MIN_PIP, MIN_TEXT, PHONE, WIDTH, arrange, frame
from tests.render import samples
from tests.render.test_render_layout import Chain, arranged, long_chains
from tests.render.test_render_spinner import spinner_tables

ROOM_TEN = (5, 12, 3, 11, 0, 9, 1, 0, 4, 1)
TABLES: dict[str, TableScene] = {
    "double-six line, every tile": samples.table(28, (3, 2, 2, 1)),
    "double-nine room": samples.table(30, (5, 6, 4, 7, 5, 6), teams=3, max_pip=9),
    "double-nine line, 50 tiles": samples.table(50, (2, 2), max_pip=9),
    "double-twelve line, 61 tiles": samples.table(61, (14, 15), max_pip=12),
    "double-twelve line, every tile": samples.table(91, (0, 0), max_pip=12),
    "10-player double-twelve room": samples.table(45, ROOM_TEN, max_pip=12, out=(4, 7)),
    "10-player room, 55 tiles": samples.table(
        55, (12, 12, 3, 2, 0, 1, 1, 0, 2, 3), max_pip=12, out=(4, 7)
    ),
    "crowded Осёл": samples.spinner_table(
        samples.SPINNER_TABLES["donkey"], (1, 1, 1, 1), closed=(1,)
    ),
    "Телефон": samples.spinner_table(samples.SPINNER_TABLES["telephone"], (1, 1, 1)),
    "double-six spinner, every tile": samples.spinner_table(
        samples.spinner_arms(samples.FULL_LINE, 6), (0, 0)
    ),
}
LIMIT = samples.largest_spinner_table()
"""Every double-twelve tile round the spinner, one arm of 42: the picture grows some 3400 px
tall."""


def _on_a_phone(px: float) -> float:
    return px * PHONE / WIDTH


def _readable(scene: TableScene) -> None:
    """The layout's figures: the smallest pip of the set and the open ends' text size."""
    table = arrange(scene)
    smallest = min(pip_radius(v) for v in range(1, scene.max_pip + 1))
    assert _on_a_phone(2 * smallest * table.unit) >= MIN_PIP
    assert _on_a_phone(END_TEXT) >= MIN_TEXT


@pytest.mark.parametrize("name", TABLES)
def test_every_sample_table_reads_on_a_phone(name: str) -> None:
    scene = TABLES[name]
    _readable(scene)
    assert Image.open(io.BytesIO(render_table(scene))).width == WIDTH


@settings(max_examples=60, deadline=None)
@given(data=st.data(), max_pip=st.sampled_from([6, 9, 12]), seats=st.integers(2, 10))
def test_every_line_of_every_set_reads_on_a_phone(
    data: st.DataObject, max_pip: int, seats: int
) -> None:
    """Lines of any length of double-six, double-nine and double-twelve, split anyhow but
    with one arm at least a third of the other, at any table."""
    first, arms = data.draw(long_chains(max_pip))
    if min(map(len, arms)) * 3 < max(map(len, arms)):
        return  # a lopsided line that keeps its first tile in the middle: see the layout tests
    picture = arranged((first, arms), seats, max_pip)
    if picture.tiles:
        smallest = min(pip_radius(v) for v in range(1, max_pip + 1))
        assert _on_a_phone(2 * smallest * picture.unit) >= MIN_PIP


def test_the_whole_double_twelve_set_round_a_spinner() -> None:
    """Each arm keeps to its quarter, a third of the picture wide or so: the 42-tile arm
    bends back and forth in it, down a picture that grows as tall as it needs."""
    _readable(LIMIT)
    height = arrange(LIMIT).frame.height
    assert WIDTH + height <= 10_000 and height <= 20 * WIDTH  # Telegram's photo limits
    assert height < 3500  # some 4100 with the spinner in the middle across


@settings(max_examples=60, deadline=None)
@given(table=spinner_tables(max_pips=(6, 9, 12)), seats=st.integers(2, 4))
def test_every_spinner_table_reads_on_a_phone(table: Chain, seats: int) -> None:
    """Spinner tables of every game and set, however long their arms."""
    first, arms = table
    max_pip = max(6, *first, *(v for arm in arms for pair in arm for v in pair))
    picture = arranged(table, seats, max_pip, spinner=True)
    smallest = min(pip_radius(v) for v in range(1, max_pip + 1))
    assert _on_a_phone(2 * smallest * picture.unit) >= MIN_PIP
    assert _on_a_phone(label_height(END_TEXT)) > _on_a_phone(END_TEXT) >= MIN_TEXT


NAMES = ("🤖 Любитель 2", "🤖 Мастер 10", "🤖 Новичок 3", "Анна-Мария", "Ольга Петрова")


@pytest.mark.parametrize("seats", range(2, 11))
def test_names_show_whole_in_every_seat(seats: int) -> None:
    """Computers' names («🤖 Любитель 2»), with their robot, and people's names of two words
    fit their panel whole, in at most two lines."""
    for panel in frame(seats).panels:
        for name in NAMES:
            _, lines = name_lines(name, panel.width - 2 * INSET)
            assert 1 <= len(lines) <= 2
            assert "".join(lines).replace(" ", "") == name.replace(" ", ""), (panel, lines)


def test_a_computer_is_told_from_a_person() -> None:
    """The robot is drawn: a computer's seat differs from a person's of the same name."""
    scene = samples.table(6, (5, 6))
    person = replace(scene.seats[0], name="Любитель 2")
    computer = replace(scene.seats[0], name="🤖 Любитель 2")
    pictures = {
        render_table(replace(scene, seats=(seat, scene.seats[1]))) for seat in (person, computer)
    }
    assert len(pictures) == 2
