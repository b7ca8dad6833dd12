"""The table app's view: JSON-ready, laid out exactly as the table picture, and holding no
tile its reader may not know — for every seat and a watcher, after every move."""

from __future__ import annotations

import io
import json
import random
import re
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image

from bot.ai import Level
from bot.core.rows import GameRow, GameStatus, Player
from bot.game import Phase, apply, legal_moves, new_game, next_round, parse_rules
from bot.game.events import plays_of
from bot.game.rules import PRESETS
from bot.game.state import GameState
from bot.game.tiles import tiles_of
from bot.ui.games import described, option_choices, option_label, option_value
from bot.ui.i18n import texts_for
from bot.ui.scenes import table_scene
from bot.ui.sheet_kinds import sheet_of
from bot.ui.table_app import table_view
from bot.ui.texts import lobby_teams
from render import render_table
from render.geometry import geometry
from render.table import arrange

RU, EN = texts_for("ru"), texts_for("en")
NAMES = ("Маша", "Серёжа", "Оля", "Alexander", "Петя")
NOW = 1_800_000_000.0
TILE_NAME = re.compile(r"(?<![\d-])(\d{1,2})-(\d{1,2})(?![\d-])")


def _row(state: GameState | None, rules_text: str = "goat", players: int = 4) -> GameRow:
    rules = state.rules if state is not None else parse_rules(rules_text, players=players)
    seated = [
        Player(seat=i, user_id=100 + i, name=NAMES[i], computer=Level.EASY if i == 1 else None)
        for i in range(rules.players)
    ]
    if state is None:
        status = GameStatus.LOBBY
    else:
        status = GameStatus.FINISHED if state.phase is Phase.GAME_OVER else GameStatus.ACTIVE
    return GameRow(
        id=1,
        chat_id=-100,
        thread_id=0,
        creator_id=100,
        status=status,
        rules=rules,
        seed=state.seed if state is not None else 0,
        state=state,
        version=7,
        lobby_message_id=None,
        table_message_id=None,
        end_reason=None,
        players=tuple(seated),
        deadline=NOW + 60,
    )


def _played(text: str, players: int, seed: int, moves: int) -> GameState:
    state, _ = new_game(parse_rules(text, players=players), NAMES[:players], seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.phase is not Phase.PLAYING:
            break
        state, _ = apply(state, rng.choice(legal_moves(state)))
    return state


def test_a_view_is_json_and_comes_back_the_same() -> None:
    for state in (None, _played("goat", 4, 5, 9), _played("telephone", 4, 3, 200)):
        for seat in (0, None):
            view = table_view(EN, _row(state), seat, NOW)
            assert json.loads(json.dumps(view)) == view
            assert view["words"]["draw"] == EN("draw")
    ended = table_view(EN, _row(_played("goat", 4, 5, 500)), None, NOW, code="K7F3Q")
    assert "K7F3Q" in ended["result"]["code"]


def test_the_lobby_says_who_sits_and_who_may_start() -> None:
    game = _row(None)
    view = table_view(RU, game, 0, NOW)
    assert view["phase"] == "lobby"
    assert view["lobby"]["players"] == 4 and view["lobby"]["creator"] is True
    assert view["lobby"]["rules"] == RU("lobby-rules", rules=described(RU, game.rules))
    assert [s["name"] for s in view["seats"]] == list(NAMES[:4])
    for seat in (None, 2):  # a watcher, a seat that did not create it: no rules to choose
        other = table_view(RU, game, seat, NOW)["lobby"]
        assert other["creator"] is False and other["options"] is None
        assert other["rules"] == view["lobby"]["rules"]
    assert view["hand"] is None and view["layout"] is None


def test_the_creator_chooses_the_rules_as_the_lobby_offers_them() -> None:
    """The preset, then each option the lobby's ⚙ offers, its values in words and the
    current one marked."""
    game = _row(None, "goat target=51")
    rows = table_view(RU, game, 0, NOW)["lobby"]["options"]
    offered = {"preset": tuple(PRESETS), **dict(option_choices(game.rules))}
    values = {"preset": "goat"} | {k: option_value(v) for k, v in game.rules.options().items()}
    assert [row["key"] for row in rows] == list(offered)
    for row in rows:
        assert [c["value"] for c in row["choices"]] == list(offered[row["key"]])
        (current,) = [c["value"] for c in row["choices"] if c["current"]]
        assert current == values[row["key"]]
    target = next(row for row in rows if row["key"] == "target")
    assert [c["text"] for c in target["choices"] if c["current"]] == [
        option_label(RU, "target", "51", game.rules)
    ]
    assert next(row for row in rows if row["key"] == "preset")["choices"][0]["text"] == RU(
        "preset-name-goat"
    )


def test_a_team_game_s_lobby_shows_the_teams_and_a_seat_picks_one() -> None:
    game = _row(None, "goat_teams")
    game = replace(
        game, players=tuple(replace(p, team=1 if p.seat == 2 else None) for p in game.players)
    )
    mine = table_view(RU, game, 2, NOW)["lobby"]["teams"]
    picks = [p.team for p in game.players]
    assert mine == {
        "line": lobby_teams(RU, game.rules, game.names, picks),
        "buttons": [RU("team-button", number=n) for n in (1, 2)],
        "picked": 1,
    }
    assert table_view(RU, game, None, NOW)["lobby"]["teams"]["picked"] is None
    assert table_view(RU, _row(None), 0, NOW)["lobby"]["teams"] is None


@pytest.mark.parametrize(
    ("text", "players", "seed", "moves"),
    [
        ("goat", 4, 3, 14),
        ("goat", 2, 8, 40),
        ("telephone", 4, 11, 30),
        ("donkey", 4, 4, 40),
        ("fives_threes", 4, 2, 10),
    ],
)
def test_the_layout_is_where_the_picture_draws_the_tiles(
    text: str, players: int, seed: int, moves: int
) -> None:
    state = _played(text, players, seed, moves)
    scene = table_scene(RU, state, NAMES[:players])
    layout = table_view(RU, _row(state), 0, NOW)["layout"]
    picture = Image.open(io.BytesIO(render_table(scene)))
    assert picture.size == (layout["width"], layout["height"])
    placed = arrange(scene).tiles
    assert [(t["x"], t["y"], t["x"] + t["w"], t["y"] + t["h"]) for t in layout["tiles"]] == [
        tuple(t.rect) for t in placed
    ]
    assert [(t["a"], t["b"]) for t in layout["tiles"]] == [t.faces() for t in placed]
    assert [t["last"] for t in layout["tiles"]].count(True) == 1
    drawn = geometry(scene)
    assert [(e["arm"], e["value"]) for e in layout["ends"]] == [
        (e.arm, e.value) for e in drawn.ends
    ]
    values = sorted(e["value"] for e in layout["ends"])
    assert values == sorted(v for v in state.ends if v >= 0)
    last = next(t for t in layout["tiles"] if t["last"])
    # the last tile glows gold in the picture, just outside its rect
    glow = picture.convert("RGB").getpixel((last["x"] + last["w"] // 2, last["y"] - 2))
    assert isinstance(glow, tuple) and glow[0] > glow[2] + 60, glow


# -- the privacy probe -----------------------------------------------------------------------


def _tiles_in(view: Any) -> list[tuple[int, int, int | None]]:
    """Every tile a view holds: as `{"tile", "a", "b"}` and as a name in its texts."""
    found: list[tuple[int, int, int | None]] = []
    if isinstance(view, dict):
        if "tile" in view and "a" in view:
            found.append((view["a"], view["b"], view["tile"]))
        for value in view.values():
            found += _tiles_in(value)
    elif isinstance(view, list):
        for value in view:
            found += _tiles_in(value)
    elif isinstance(view, str):
        found += [(int(a), int(b), None) for a, b in TILE_NAME.findall(view)]
    return found


def _known(state: GameState, seat: int | None) -> int:
    """The tiles `seat` (None: a watcher) may know: the table, their own hand, and the hands
    the group was shown when the last round ended."""
    known = state.rules.tiles.mask(tile for tile, _, _ in plays_of(state.history))
    if seat is not None:
        known |= state.hands[seat]
    if state.last_round is not None:
        for result in state.last_round.results:
            known |= state.rules.tiles.mask(result.hand)
    return known


def _probe(state: GameState, players: int) -> None:
    game = _row(state)
    tiles = state.rules.tiles
    shown: list[Any] = []
    for seat in [*range(players), None]:
        view = table_view(RU, game, seat, NOW)
        text = json.dumps(view, ensure_ascii=False)
        assert str(state.seed) not in text
        known = _known(state, seat)
        for a, b, tile in _tiles_in(view):
            assert a <= tiles.max_pip and b <= tiles.max_pip, (a, b)
            assert tile is None or tile == tiles.tile(a, b)
            assert known >> tiles.tile(a, b) & 1, (seat, f"{a}-{b}", text)
        hand = view["hand"]
        if seat is None:
            assert hand is None
        else:
            assert [t["tile"] for t in hand["tiles"]] == list(tiles_of(state.hands[seat]))
        shown.append(view["result"] and view["result"]["hands"])
    ended = state.last_round
    if ended is not None:  # the hands the group's round result showed, to everyone alike
        closed = None if state.phase is Phase.PLAYING else state
        group = [
            {"seat": r.seat, "tiles": list(r.hand)}
            for r in sheet_of(state.rules).round_seats(ended, state.rules, closed)
        ]
        assert group, "a round's end shows the hands"
        for hands in shown:
            assert [
                {"seat": h["seat"], "tiles": [t["tile"] for t in h["tiles"]]} for h in hands
            ] == group


@pytest.mark.parametrize(
    ("text", "players", "seed"),
    [
        ("goat", 4, 987_654_321),
        ("telephone", 4, 987_654_322),
        ("fives_threes", 3, 987_654_323),
        ("bykovo", 5, 987_654_324),
    ],
)
def test_no_view_holds_a_tile_its_reader_may_not_know(text: str, players: int, seed: int) -> None:
    state, _ = new_game(parse_rules(text, players=players), NAMES[:players], seed)
    rng = random.Random(seed)
    rounds, spinners, resting = 0, 0, 0
    _probe(state, players)
    while state.phase is not Phase.GAME_OVER and rounds < 2:
        if state.phase is Phase.ROUND_OVER:
            rounds += 1
            state, _ = next_round(state)
        else:
            state, _ = apply(state, rng.choice(legal_moves(state)))
        resting += bool(state.resting)
        spinners += state.spread.spinner is not None
        _probe(state, players)
    assert rounds >= 1
    if text == "telephone":
        assert spinners, "a spinner on the table"
    if text == "bykovo":
        assert resting, "a player waits"
