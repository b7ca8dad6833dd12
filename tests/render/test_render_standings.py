"""The Bykovo standings: every row and bar inside the picture, and the sheet a real
tournament state makes."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from dataclasses import replace
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.game import GameState, Phase, apply, legal_moves, new_game, next_round, parse_rules
from bot.game.engine import next_resting
from bot.ui.i18n import texts_for
from bot.ui.scenes import score_sheet, table_scene
from render import ScoreRow, ScoreSheet, render_score_sheet
from render.canvas import HEADER, PAD
from render.scene import SheetKind, SheetLabels
from render.sheet import LABELS, ROW, TOP, WIDTH, Piece, bar_colour, compose_score_sheet
from render.theme import GOLD, MUTED, RED
from tests.render import samples

NAMES = (
    "Маша",
    "Серёжа",
    "Ольга Константиновна Петрова-Водкина",
    "Alex 🐟",
    "Дима",
    "Катя",
    "Константинопольский-Заднепроворотный",
)
LONG_NAMES = (
    "W" * 60,
    "Ольга Константиновна Петрова-Водкина",
    "Mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm",
    "🐟🐟🐟🐟🐟🐟🐟🐟🐟🐟🐟🐟🐟🐟🐟🐟",
    "Ю",
    "👍",  # nothing the font can draw: "?"
)
LONG_LABELS = replace(
    samples.STANDINGS_LABELS,
    player="участник турнира вприсядку",
    previous="было до раунда",
    round="за этот раунд",
    total="итого в турнире",
    limit="до вылета из турнира",
    next="следующий раунд",
    plays="играет в следующем раунде",
    sits="сидит в следующем раунде",
    out="выбыл из турнира навсегда",
)
RU = texts_for("ru")
EN = texts_for("en")


def _inside(inner: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    return (
        outer[0] <= inner[0] <= inner[2] <= outer[2]
        and outer[1] <= inner[1] <= inner[3] <= outer[3]
    )


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _check(sheet: ScoreSheet) -> tuple[tuple[Piece, ...], ...]:
    """Every row's pieces lie in its own band of the plate, apart from each other, and the
    picture keeps Telegram's proportions; return the pieces."""
    image, drawn = compose_score_sheet(sheet)
    assert image.width == WIDTH
    assert image.width + image.height <= 10_000
    assert max(image.size) / min(image.size) <= 20
    assert len(drawn) == len(sheet.rows)
    top = HEADER + TOP + LABELS
    assert top + ROW * len(sheet.rows) <= image.height - TOP
    for i, (row, pieces) in enumerate(zip(sheet.rows, drawn, strict=True)):
        band = (PAD + 2, top + i * ROW + 2, WIDTH - PAD - 2, top + (i + 1) * ROW)
        for piece in pieces:
            assert _inside(piece.box, band), (row, piece, band)
        kinds = [piece.kind for piece in pieces]
        assert kinds.count("name") == kinds.count("total") == kinds.count("bar") == 1
        assert kinds.count("round") == 1
        assert ("place" in kinds) == (row.place > 0)
        assert ("lot" in kinds) == (row.place > 0 and row.lot)
        assert ("status" in kinds) == (row.out or row.plays_next is not None)
        bar = next(p.box for p in pieces if p.kind == "bar")
        for fill in (p.box for p in pieces if p.kind == "fill"):
            assert _inside(fill, bar)
            full = fill[2] - fill[0] == bar[2] - bar[0]
            assert full == (row.total >= sheet.limit)
        if row.total == 0 or row.total * 10 >= sheet.limit:
            assert ("fill" in kinds) == (row.total > 0)
        apart = [p for p in pieces if p.kind != "fill"]
        for a, b in combinations(apart, 2):
            assert not _overlap(a.box, b.box), (row, a, b)
    return drawn


rows = st.builds(
    ScoreRow,
    name=st.sampled_from(NAMES + LONG_NAMES),
    previous=st.integers(0, 999),
    round_points=st.integers(0, 999),
    total=st.integers(0, 999),
    remembered=st.just(0),
    opened=st.just(False),
    goat=st.just(False),
    out=st.booleans(),
    place=st.integers(0, 4),
    lot=st.booleans(),
    plays_next=st.none() | st.booleans(),
)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(rows, min_size=4, max_size=7),
    st.sampled_from((100, 75, 60, 50)),
    st.sampled_from((samples.STANDINGS_LABELS, LONG_LABELS)),
    st.booleans(),
)
def test_every_row_and_bar_stays_inside_the_picture(
    table: list[ScoreRow], limit: int, labels: SheetLabels, fish: bool
) -> None:
    title = "Раунд 999: сортир, раунд за " + "Ольга Константиновна Петрова-Водкина" * 3
    _check(ScoreSheet(tuple(table), title, fish, 0, labels, SheetKind.PLACES, limit))


def test_the_bar_fills_up_to_the_limit_and_turns_red_near_it() -> None:
    def row(total: int, out: bool = False) -> ScoreRow:
        return ScoreRow("Маша", 0, total, total, 0, False, False, out=out, place=1)

    sheet = ScoreSheet(
        (row(0), row(30), row(44), row(45), row(60), row(133, out=True)),
        "Раунд 3",
        False,
        0,
        samples.STANDINGS_LABELS,
        SheetKind.PLACES,
        limit=60,
    )
    drawn = _check(sheet)
    fills = [next((p.box for p in pieces if p.kind == "fill"), None) for pieces in drawn]
    widths = [0 if box is None else box[2] - box[0] for box in fills]
    assert widths[0] == 0 < widths[1] < widths[2] < widths[3] < widths[4] == widths[5]
    colours = [bar_colour(r, 60) for r in sheet.rows]
    assert colours == [GOLD, GOLD, GOLD, RED, RED, MUTED]


def _play(players: int, seed: int, done: Callable[[GameState], bool]) -> GameState:
    """A Bykovo tournament of random legal moves, round after round, until `done` holds."""
    rules = parse_rules("bykovo", players=players)
    state, _ = new_game(rules, NAMES[:players], seed)
    rng = random.Random(seed)
    while not done(state):
        if state.phase is Phase.ROUND_OVER:
            state, _ = next_round(state)
        elif state.phase is Phase.GAME_OVER:
            raise AssertionError("the tournament ended first")
        else:
            state, _ = apply(state, rng.choice(legal_moves(state)))
    return state


def _picture(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def test_the_first_round_of_six_makes_the_standings() -> None:
    state = _play(6, 1, lambda s: s.phase is not Phase.PLAYING)
    ended = state.last_round
    assert state.phase is Phase.ROUND_OVER and ended is not None
    sheet = score_sheet(RU, state, NAMES)
    assert sheet.limit == state.rules.goal == 60
    assert sorted(row.name for row in sheet.rows) == sorted(NAMES[:6])
    totals = [row.total for row in sheet.rows]
    assert totals == sorted(totals)  # nobody is out yet: by total, the lowest first
    resting = next_resting(state)
    assert len(resting) == 2
    for row in sheet.rows:
        seat = NAMES.index(row.name)
        result = ended.results[seat]
        assert (row.previous, row.round_points, row.total) == (
            result.score_before,
            result.round_points,
            result.score_after,
        )
        if seat in state.resting:  # sat this round out: «—»
            assert row.place == 0 and row.round_points == 0 and row.previous == row.total
        else:
            assert row.place == ended.order.index(seat) + 1
        assert row.lot == (seat in ended.lots)
        assert row.plays_next == (seat not in resting)
        assert not row.out
    assert sum(row.place > 0 for row in sheet.rows) == 4
    assert sheet.labels.plays == "играет" and sheet.labels.sits == "сидит"
    assert score_sheet(EN, state, NAMES).labels.sits == "sits out"
    _check(sheet)
    assert _picture(render_score_sheet(sheet)).width == WIDTH


def test_eliminated_players_are_muted_last_and_the_end_has_no_next_round() -> None:
    state = _play(7, 3, lambda s: s.phase is Phase.ROUND_OVER and any(s.tally.out))
    sheet = score_sheet(RU, state, NAMES)
    outs = [row.out for row in sheet.rows]
    assert any(outs) and outs == sorted(outs)  # those out come after those still in
    assert all(row.plays_next is None for row in sheet.rows if row.out)
    assert sum(row.plays_next is False for row in sheet.rows) == len(next_resting(state))
    _check(sheet)

    over = _play(5, 5, lambda s: s.phase is Phase.GAME_OVER)
    assert over.outcome is not None
    final = score_sheet(RU, over, NAMES)
    assert [NAMES.index(row.name) for row in final.rows] == [p.seat for p in over.outcome.places]
    assert all(row.plays_next is None for row in final.rows)
    _check(final)


def test_other_games_keep_their_score_sheet() -> None:
    goat = parse_rules("goat", players=4)
    game, _ = new_game(goat, NAMES[:4], 2)
    rng = random.Random(2)
    while game.phase is Phase.PLAYING:
        game, _ = apply(game, rng.choice(legal_moves(game)))
    sheet = score_sheet(RU, game, NAMES)
    assert sheet.kind is SheetKind.POINTS
    assert all(row.place == 0 and row.plays_next is None for row in sheet.rows)
    assert compose_score_sheet(sheet)[1] == ()


def test_a_sortir_round_says_so() -> None:
    for seed in range(200):
        state = _play(4, seed, lambda s: s.phase is not Phase.PLAYING)
        ended = state.last_round
        if ended is not None and ended.reason == "sortir":
            break
    else:
        raise AssertionError("no «сортир» in 200 tournaments")
    assert "сортир" in score_sheet(RU, state, NAMES).title
    assert "сортир" in table_scene(RU, state, NAMES).caption
    assert "sortir" in score_sheet(EN, state, NAMES).title
