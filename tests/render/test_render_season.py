"""A season's picture reads on a phone, as the tables do: its text at least `MIN_TEXT` px
tall there, every name whole in its two lines, within Telegram's photo limits."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import table
from render.season import (
    MIN_TEXT,
    MOST_ROWS,
    PHONE,
    SIZE,
    TITLE,
    WIDTH,
    SeasonRow,
    SeasonScene,
    name_lines,
    render_season,
)

NAMES = ("Анна-Мария Петрова-Водкина", "Оля", "Серёжа из третьего подъезда", "Дима 🎲")


def scene(rows: int) -> SeasonScene:
    return SeasonScene(
        title="Двор · Сезон 3 · декабрь 2026",
        champion="🏆 Чемпион — Анна-Мария Петрова-Водкина",
        captions=("игры", "победы", "козлы", "±"),
        rows=tuple(
            SeasonRow(
                place=place,
                name=NAMES[place % len(NAMES)],
                games=120 - place,
                wins=60 - place,
                goats=place,
                change=300 - 40 * place,
            )
            for place in range(1, rows + 1)
        ),
    )


def test_the_text_reads_on_a_phone_as_the_tables_do() -> None:
    assert (WIDTH, PHONE, MIN_TEXT) == (table.WIDTH, table.PHONE, table.MIN_TEXT)
    assert min(SIZE, TITLE) * PHONE / WIDTH >= MIN_TEXT


@pytest.mark.parametrize("name", NAMES)
def test_every_name_shows_whole(name: str) -> None:
    lines = name_lines(name)
    assert 1 <= len(lines) <= 2
    assert "".join(lines).replace(" ", "") == name.replace(" ", "").replace("🎲", "")


@pytest.mark.parametrize("rows", [1, 4, MOST_ROWS, MOST_ROWS + 20])
def test_the_picture_keeps_to_telegram_s_limits(rows: int) -> None:
    picture = Image.open(io.BytesIO(render_season(scene(rows))))
    assert picture.width == WIDTH
    assert picture.width + picture.height <= 10_000 and picture.height <= 20 * picture.width
