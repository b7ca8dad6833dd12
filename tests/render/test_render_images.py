"""Pictures: golden images, Telegram's photo limits, determinism, names and fonts.

Regenerate the golden images with `UPDATE_GOLDEN=1 python -m pytest tests/render`.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from dataclasses import replace
from itertools import combinations
from math import hypot
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from render import (
    EndsCount,
    ScoreRow,
    ScoreSheet,
    SeatScene,
    TableScene,
    render_score_sheet,
    render_table,
)
from render.sheet import WIDTH as SHEET_WIDTH
from render.sprites import MAX_PIP, pip_places, pip_radius
from render.table import PHONE, WIDTH
from render.text import ICONS, clean, coverage, fit, width
from tests.render import samples

GOLDEN = Path(__file__).with_name("golden")
TOLERANCE = 1.0  # mean absolute difference per channel, out of 255

PICTURES: dict[str, Callable[[], bytes]] = {
    "two_players": lambda: render_table(samples.table(6, (5, 6))),
    "three_players": lambda: render_table(samples.table(11, (5, 3, 4))),
    "four_players": lambda: render_table(samples.table(16, (4, 3, 2, 3))),
    "teams": lambda: render_table(samples.table(20, (2, 2, 1, 3), teams=2)),
    "long_snake": lambda: render_table(samples.table(28, (3, 2, 2, 1))),
    "round_end": lambda: render_table(samples.table(20, (0, 3, 2, 3), teams=2, round_end=True)),
    "double_twelve": lambda: render_table(samples.table(61, (14, 15), max_pip=12)),
    "room_ten": lambda: render_table(
        samples.table(45, (5, 12, 3, 11, 0, 9, 1, 0, 4, 1), max_pip=12, out=(4, 7))
    ),
    "room_teams": lambda: render_table(samples.table(30, (5, 6, 4, 7, 5, 6), teams=3, max_pip=12)),
    "room_double_nine": lambda: render_table(
        samples.table(30, (5, 6, 4, 7, 5, 6), teams=3, max_pip=9)
    ),
    "donkey_crowded": lambda: render_table(
        samples.spinner_table(samples.SPINNER_TABLES["donkey"], (1, 1, 1, 1), closed=(1,))
    ),
    "telephone": lambda: render_table(
        samples.spinner_table(
            samples.SPINNER_TABLES["telephone"], (1, 1, 1), count=EndsCount("концы", 35, 7, "Маша")
        )
    ),
    "muggins": lambda: render_table(
        samples.spinner_table(
            samples.SPINNER_TABLES["muggins"], (1, 3), count=EndsCount("концы", 35, 35, "Маша")
        )
    ),
    "muggins_two_arms": lambda: render_table(
        samples.spinner_table(
            samples.SPINNER_TABLES["muggins_two_arms"], (4, 5), count=EndsCount("концы", 8)
        )
    ),
    "spinner_double_twelve": lambda: render_table(samples.largest_spinner_table()),
    "score_sheet": lambda: render_score_sheet(samples.score_sheet()),
    "score_sheet_eggs": lambda: render_score_sheet(samples.score_sheet(eggs=True)),
    "score_sheet_room": lambda: render_score_sheet(samples.room_sheet()),
    "score_sheet_race": lambda: render_score_sheet(samples.race_sheet()),
    "standings_bykovo": lambda: render_score_sheet(samples.standings_sheet()),
    "score_sheet_generals": lambda: render_score_sheet(samples.generals_sheet()),
    "no_bazaar": lambda: render_table(samples.no_bazaar_table()),
}


def _image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _on_a_phone(name: str) -> Callable[[], bytes]:
    """The picture `name` as a phone shows it, `PHONE` px wide."""

    def draw() -> bytes:
        image = _image(PICTURES[name]())
        size = (PHONE, round(image.height * PHONE / image.width))
        out = io.BytesIO()
        image.resize(size, Image.Resampling.LANCZOS).save(out, "PNG")
        return out.getvalue()

    return draw


PHONE_PICTURES = {f"{name}_phone": _on_a_phone(name) for name in ("room_ten", "donkey_crowded")}


@pytest.mark.parametrize("name", [*PICTURES, *PHONE_PICTURES])
def test_golden(name: str) -> None:
    png = (PICTURES | PHONE_PICTURES)[name]()
    path = GOLDEN / f"{name}.png"
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(png)
    got, want = _image(png), _image(path.read_bytes())
    assert got.size == want.size
    difference = sum(ImageStat.Stat(ImageChops.difference(got, want)).mean) / 3
    assert difference <= TOLERANCE, f"{name} differs from its golden image by {difference:.2f}"


TALL = {"spinner_double_twelve"}
"""Pictures some 3400 px tall: the whole double-twelve set round a spinner."""


@pytest.mark.parametrize("name", PICTURES)
def test_telegram_photo_limits(name: str) -> None:
    png = PICTURES[name]()
    w, h = Image.open(io.BytesIO(png)).size
    assert len(png) <= (250 if name in TALL else 150) * 1024  # far under Telegram's 10 MB
    assert w == (SHEET_WIDTH if name.startswith(("score_sheet", "standings")) else WIDTH)
    assert w + h <= 10_000
    assert max(w, h) / min(w, h) <= 20


def test_same_state_same_bytes() -> None:
    scene = samples.table(16, (4, 3, 2, 3))
    rebuilt = replace(scene, seats=tuple(replace(seat) for seat in scene.seats))
    assert render_table(scene) == render_table(rebuilt)


def test_every_hand_size_and_an_empty_table() -> None:
    seats = tuple(
        SeatScene(f"Игрок {i}", n, 0, 0, False, i == 0, None, None) for i, n in enumerate((0, 21))
    )
    empty = TableScene(
        None, ((), ()), seats, bazaar=7, last_played=None, bazaar_label=samples.BAZAAR
    )
    assert _image(render_table(empty)).width == WIDTH


@pytest.mark.parametrize("max_pip", range(6, 13))
def test_every_set_the_rules_allow(max_pip: int) -> None:
    """Double-six to double-twelve: its highest tiles down, a value above it refused."""
    top, below = max_pip, max_pip - 1
    first, arms = (below, top), (((below, below), (below, 0)), ((top, top), (top, 1)))
    scene = replace(
        samples.table(6, (5, 6)), first=first, arms=arms, last_played=(top, 1), max_pip=max_pip
    )
    assert render_table(scene)
    with pytest.raises(ValueError, match="pip value"):
        render_table(replace(scene, max_pip=below))
    with pytest.raises(ValueError, match="pips up to"):
        render_table(replace(scene, max_pip=13))


@pytest.mark.parametrize("value", range(MAX_PIP + 1))
def test_pips_read_at_a_glance(value: int) -> None:
    """Each value has its count of round pips, apart, inside its half, the same upside down."""
    places = pip_places(value)
    radius = pip_radius(value)
    assert len(set(places)) == value
    assert all(radius + 0.1 <= c <= 0.9 - radius for place in places for c in place)
    for (ax, ay), (bx, by) in combinations(places, 2):
        assert hypot(ax - bx, ay - by) >= 2 * radius + 0.04, "pips must not run together"
    assert {(round(1 - x, 6), round(1 - y, 6)) for x, y in places} == {
        (round(x, 6), round(y, 6)) for x, y in places
    }
    assert places not in [pip_places(other) for other in range(value)]


@pytest.mark.parametrize("seats", range(2, 11))
def test_double_twelve_extremes(seats: int) -> None:
    """The largest hands the rules allow, hidden and shown, one hand of nearly all the tiles,
    and the whole 91-tile line."""
    most = 91 // seats
    shapes = [
        (1, (most,) * seats, False),
        (1, (most - 1,) + (most,) * (seats - 1), True),
        (1, (91 - seats,) + (1,) * (seats - 1), True),
        (91, (0,) * seats, True),
    ]
    teams = {4: 2, 6: 3, 8: 4, 10: 5}.get(seats, 0)
    for line, hands, round_end in shapes:
        scene = samples.table(line, hands, round_end=round_end, teams=teams, max_pip=12)
        png = render_table(scene)
        assert _image(png).width == WIDTH
        assert len(png) <= 200 * 1024  # a picture grown tall for the whole set


def test_a_seat_that_is_out_shows_no_hand() -> None:
    """Out of the game: the same dimmed panel whatever its hand, and not the panel in play."""
    scene = samples.table(6, (5, 6), out=(0,))
    emptied = replace(scene.seats[0], tiles_left=0)
    assert render_table(scene) == render_table(replace(scene, seats=(emptied, scene.seats[1])))
    playing = replace(scene.seats[0], out=False)
    assert render_table(scene) != render_table(replace(scene, seats=(playing, scene.seats[1])))


def test_seat_counts_out_of_range() -> None:
    scene = samples.table(6, (5, 6))
    for seats in (scene.seats[:1], scene.seats * 6):  # 1 and 12
        with pytest.raises(ValueError, match="seat"):
            render_table(replace(scene, seats=seats))


NAMES = [
    "Маша",
    "Серёжа",
    "Ёжик в тумане",
    "Alex 🐟",
    "🤖 Любитель 2",
    "🦄 Вася 👍🏽",
    "Zoë 👨‍👩‍👧",
    "\u200b\x07",
]


@pytest.mark.parametrize("name", NAMES)
def test_names_draw_only_real_glyphs(name: str) -> None:
    """Cyrillic and Latin stay; emoji the font lacks are dropped, 🐟, 🥚 and 🤖 become icons."""
    shown = clean(name, bold=True)
    assert all(ch in ICONS or ch == " " or ord(ch) in coverage(bold=True) for ch in shown)
    assert all(ch in shown for ch in name if ch.isalpha())
    scene = samples.table(6, (5, 6))
    seats = (replace(scene.seats[0], name=name), scene.seats[1])
    assert render_table(replace(scene, seats=seats))


def test_long_names_are_cut_at_a_word_or_with_an_ellipsis() -> None:
    assert fit("Маша", 32, 400, bold=True) == "Маша"
    cut = fit("Ольга Константиновна Петрова-Водкина", 32, 500, bold=True)
    assert cut == "Ольга Константиновна…"
    cut = fit("Константинопольский", 32, 200, bold=True)
    assert cut.endswith("…") and width(cut, 32, bold=True) <= 200


def test_score_sheet_grows_with_its_rows() -> None:
    row = ScoreRow("Маша", 0, 5, 0, 5, False, False)
    short = _image(render_score_sheet(ScoreSheet((row,), "Раунд 1", False, 0, samples.LABELS)))
    long = _image(render_score_sheet(ScoreSheet((row,) * 4, "Раунд 1", False, 7, samples.LABELS)))
    assert short.width == long.width == 1280
    assert long.height > short.height
