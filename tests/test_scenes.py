"""Engine states drawn through the renderer: the scene says what the state says."""

from __future__ import annotations

import io
import random

from PIL import Image

from bot.game import Phase, apply, legal_moves, new_game, parse_rules
from bot.game.events import plays_of
from bot.game.state import GameState
from bot.ui.i18n import texts_for
from bot.ui.scenes import score_sheet, table_scene
from render import render_score_sheet, render_table

NAMES = ("Маша", "Серёжа", "Alexander the Great", "Оля")
RU = texts_for("ru")


def _round(text: str, players: int, seed: int, stop_after: int | None = None) -> GameState:
    rules = parse_rules(text, players=players)
    state, _ = new_game(rules, NAMES[:players], seed)
    rng = random.Random(seed)
    moves = 0
    while state.phase is Phase.PLAYING and moves != stop_after:
        state, _ = apply(state, rng.choice(legal_moves(state)))
        moves += 1
    return state


def _picture(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    width, height = image.size
    assert width + height <= 10_000
    assert max(width, height) / min(width, height) <= 20
    return image


def test_a_round_in_play_shows_the_line_the_hands_and_the_mover() -> None:
    state = _round("goat", 4, seed=3, stop_after=10)
    scene = table_scene(RU, state, NAMES)
    tiles = state.rules.tiles
    placed = [tiles.pips[t] for t, _, _ in plays_of(state.history)]
    shown = ([scene.first] if scene.first else []) + [pips for arm in scene.arms for pips in arm]
    assert sorted(sorted(p) for p in shown) == sorted(sorted(p) for p in placed)
    assert [s.tiles_left for s in scene.seats] == list(state.hand_sizes())
    assert [s.to_move for s in scene.seats] == [i == state.to_move for i in range(4)]
    assert all(s.revealed is None for s in scene.seats)
    assert sorted(scene.last_played or ()) == sorted(placed[-1])
    assert _picture(render_table(scene)).width > 0


def test_the_open_ends_of_the_scene_are_the_engines() -> None:
    state = _round("goat", 3, seed=5, stop_after=8)
    scene = table_scene(RU, state, NAMES)
    assert scene.first is not None
    ends = tuple(arm[-1][1] if arm else scene.first[i] for i, arm in enumerate(scene.arms))
    assert ends == state.ends


def test_round_end_reveals_every_hand_and_the_score_sheet_matches() -> None:
    state = _round("goat_teams", 4, seed=11)
    ended = state.last_round
    assert ended is not None
    scene = table_scene(RU, state, NAMES)
    tiles = state.rules.tiles
    for seat, result in zip(scene.seats, ended.results, strict=True):
        assert seat.revealed == tuple(tiles.pips[t] for t in result.hand)
        assert not seat.to_move
    sheet = score_sheet(RU, state, NAMES)
    assert [row.name for row in sheet.rows] == ["Маша и Alexander the Great", "Серёжа и Оля"]
    for side, row in enumerate(sheet.rows):
        result = next(r for r in ended.results if r.side == side)
        assert (row.previous, row.round_points, row.total) == (
            result.score_before,
            result.round_points,
            result.score_after,
        )
        assert row.remembered == result.remembered_after
    assert sheet.fish == (ended.reason == "fish")
    _picture(render_table(scene))
    _picture(render_score_sheet(sheet))
