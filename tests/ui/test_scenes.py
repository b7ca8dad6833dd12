"""Engine states drawn through the renderer: the scene says what the state says."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from dataclasses import replace

import pytest
from PIL import Image

from bot.ai import Level
from bot.game import Phase, apply, legal_moves, new_game, next_round, parse_rules
from bot.game.events import DoublesPlayed, Scored, TilePlayed, plays_of
from bot.game.state import GameState
from bot.game.table import CLOSED
from bot.ui.i18n import texts_for
from bot.ui.scenes import score_sheet, table_scene
from bot.ui.sheets import scores_line
from bot.ui.texts import computer_name
from bot.ui.told import describe, of_round, told
from render import SheetKind, render_score_sheet, render_table

NAMES = ("Маша", "Серёжа", "Alexander the Great", "Оля")
RU = texts_for("ru")
EN = texts_for("en")


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


def _until(text: str, players: int, seed: int, done: Callable[[GameState], bool]) -> GameState:
    """Play random legal moves, round after round, until `done` holds."""
    state, _ = new_game(parse_rules(text, players=players), NAMES[:players], seed)
    rng = random.Random(seed)
    while not done(state):
        if state.phase is Phase.ROUND_OVER:
            state, _ = next_round(state)
        elif state.phase is Phase.GAME_OVER:
            raise AssertionError("the game ended first")
        else:
            state, _ = apply(state, rng.choice(legal_moves(state)))
    return state


def _won_in_play(state: GameState) -> bool:
    return state.last_round is not None and state.last_round.reason == "target"


def _closed_down(state: GameState) -> bool:
    return state.table.closed != 0 and state.table.spread.spinner is not None


@pytest.mark.parametrize("preset", ["donkey", "telephone", "muggins"])
def test_a_spinner_table_shows_its_arms_and_open_ends(preset: str) -> None:
    state = _until(
        preset, 2, 1, lambda s: len(s.table.arms) == 4 and sum(map(len, s.table.arms)) > 6
    )
    scene = table_scene(RU, state, NAMES)
    assert scene.spinner and len(scene.arms) == 4
    assert scene.first is not None and scene.first[0] == scene.first[1]
    ends = tuple(arm[-1][1] if arm else scene.first[0] for arm in scene.arms)
    open_ends = tuple(CLOSED if arm in scene.closed else end for arm, end in enumerate(ends))
    assert open_ends == state.ends
    _picture(render_table(scene))


def test_a_line_is_no_spinner_table() -> None:
    scene = table_scene(RU, _round("goat", 2, seed=4, stop_after=6), NAMES)
    assert not scene.spinner and scene.closed == () and scene.count is None


def test_a_closed_double_lies_face_down_at_its_arms_end() -> None:
    state = next(
        state
        for seed in range(40)
        for state in [_until_or_none("donkey", 2, seed, _closed_down)]
        if state is not None
    )
    scene = table_scene(RU, state, NAMES)
    table = state.table
    assert scene.closed
    for arm in scene.closed:
        assert table.closed >> table.arms[arm][-1] & 1
        assert state.ends[arm] == CLOSED
    _picture(render_table(scene))


def _until_or_none(
    text: str, players: int, seed: int, done: Callable[[GameState], bool]
) -> GameState | None:
    try:
        return _until(text, players, seed, done)
    except AssertionError:
        return None


@pytest.mark.parametrize("preset", ["telephone", "muggins"])
def test_a_race_shows_the_ends_sum_and_the_points_just_scored(preset: str) -> None:
    state = _until(preset, 3, 2, lambda s: bool(s.history) and isinstance(s.history[-1], Scored))
    scored = state.history[-1]
    assert isinstance(scored, Scored)
    scene = table_scene(EN, state, NAMES)
    assert scene.count is not None
    assert (scene.count.label, scene.count.total) == ("ends", scored.ends_sum)
    assert (scene.count.points, scene.count.scorer) == (scored.points, NAMES[scored.seat])
    _picture(render_table(scene))


@pytest.mark.parametrize("preset", ["telephone", "muggins"])
def test_a_move_that_scores_nothing_shows_the_sum_alone(preset: str) -> None:
    state = _until(
        preset,
        2,
        5,
        lambda s: len(s.history) > 4 and isinstance(s.history[-1], TilePlayed | DoublesPlayed),
    )
    count = table_scene(RU, state, NAMES).count
    assert count is not None and count.label == "концы"
    assert (count.points, count.scorer) == (0, "")


def test_a_race_won_in_play_ends_with_its_caption_and_the_points_in_play() -> None:
    state = next(
        state
        for seed in range(40)
        for state in [_until_or_none("telephone target=20", 3, seed, _won_in_play)]
        if state is not None
    )
    ended = state.last_round
    assert ended is not None and state.phase is Phase.GAME_OVER
    sheet = score_sheet(RU, state, NAMES)
    winner = ended.results[ended.seat]
    assert sheet.title == f"{NAMES[ended.seat]} набирает {winner.score_after} — игра окончена"
    assert sheet.kind is SheetKind.RACE and not any(row.goat for row in sheet.rows)
    for row, result in zip(sheet.rows, ended.results, strict=True):
        assert row.previous + row.play_points + row.round_points == row.total
        assert (row.play_points, row.total) == (result.play_points, result.score_after)
    assert table_scene(RU, state, NAMES).caption == sheet.title
    _picture(render_score_sheet(sheet))


def test_computers_keep_their_robot_and_their_number_apart_from_the_score() -> None:
    """«🤖 Любитель 2: 2 · 🤖 Мастер 3: 35»: the name, a colon, the score, for everyone; the
    table shows the robot, so the picture differs from a person's of the same name."""
    names = ("Маша", computer_name(RU, Level.NORMAL, 2), computer_name(RU, Level.HARD, 3))
    state = _round("room max_pip=9", 3, seed=4, stop_after=6)
    parts = zip(names, state.tally.scores, strict=True)
    assert scores_line(RU, state, names).split(" · ") == [f"{n}: {score}" for n, score in parts]
    scene = table_scene(RU, state, names)
    assert [seat.name for seat in scene.seats] == list(names)
    person = replace(scene.seats[1], name=names[1].removeprefix("🤖 "))
    assert render_table(scene) != render_table(
        replace(scene, seats=(scene.seats[0], person, scene.seats[2]))
    )


def _all_told(state: GameState) -> list[str]:
    """Every line of the round, as the group reads them: each move's line, what it scored
    joined to it (a score before any move is a line of its own)."""
    lead = next((e for e in state.history if isinstance(e, TilePlayed)), None)
    lines: list[str] = []
    for event in of_round(state.history, state.round_no):
        line = describe(EN, event, state.rules, NAMES, lead)
        if line is None:
            continue
        if isinstance(event, Scored) and lines:
            lines[-1] = f"{lines[-1]} · {line}"
        else:
            lines.append(line)
    return lines


@pytest.mark.parametrize("preset", ["goat", "muggins", "fives_threes", "general"])
def test_the_last_lines_told_are_the_round_s_last_lines(preset: str) -> None:
    """`told` reads the round from its end; it says what reading it all would end with."""
    state, _ = new_game(parse_rules(preset, players=4), NAMES[:4], 5)
    rng = random.Random(5)
    for _ in range(120):
        if state.phase is Phase.GAME_OVER:
            break
        whole = _all_told(state)
        for last in (1, 2, 4, 40):
            assert told(EN, state.history, state, NAMES, last) == whole[-last:]
        if state.phase is Phase.ROUND_OVER:
            state, _ = next_round(state)
        else:
            state, _ = apply(state, rng.choice(legal_moves(state)))
