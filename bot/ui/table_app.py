"""What one person sees of a game in the table app: plain JSON-ready data for its page.

Built from what the group sees (the table picture's scene, its geometry from the renderer,
the sheet, the round's result as the group reads it) and, for a seat, that seat's own
`SeatView` alone: another hand, the bazaar's tiles and the seed are never in it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any

from bot.core.rows import GameRow, GameStatus
from bot.core.teams import team_slots
from bot.game.events import RoundEnded
from bot.game.moves import Draw, Pass, Play, PlayDoubles
from bot.game.rules import PRESETS, RuleSet
from bot.game.state import GameState, Phase
from bot.game.tiles import TileSet, tiles_of
from bot.game.view import seat_view
from bot.ui import endings, sheets
from bot.ui.games import (
    described,
    game_won,
    option_choices,
    option_label,
    option_value,
    preset_name,
)
from bot.ui.i18n import Texts
from bot.ui.scenes import table_scene
from bot.ui.sheet_kinds import sheet_of, team
from bot.ui.texts import lobby_teams
from bot.ui.told import told
from render.geometry import geometry
from render.layout import Rect
from render.scene import Pips, TableScene

View = dict[str, Any]


SEAT_KEYS = ("you", "seats", "hand", "lobby")
ROUNDS_KEPT = 1024  # rounds before the one played, put in words: every busy table's
"""What differs between the people who read one game: the rest is the same for all of a
language (`shared_view`), built once however many read it."""


def table_view(
    t: Texts, game: GameRow, seat: int | None, now: float, code: str | None = None
) -> View:
    """What one person sees of `game`: `seat` is theirs (None: a watcher); `now` (epoch s)
    runs «Генерал»'s match clock; `code` is the deal code of the last round that ended,
    if storage has one."""
    shared = shared_view(t, game, now, code)
    return shared | seat_part(t, game, shared, seat)


def shared_view(t: Texts, game: GameRow, now: float, code: str | None = None) -> View:
    """What everyone reading `game` in `t`'s language sees alike; the seats are listed as a
    watcher sees them (`seat_part` marks one's own)."""
    state = game.state
    view: View = {
        "version": game.version,
        "title": game_won(t, game.rules),
        "words": words(t),
        "round": 0,
        "clock": None,
        "match": None,
        "layout": None,
        "bazaar": None,
        "count": None,
        "sheet": None,
        "moves": [],
        "result": None,
    }
    if state is None:
        phase = "lobby" if game.status is GameStatus.LOBBY else "over"
        return view | {"phase": phase, "caption": ""}
    clock = "" if game.ends_at is None else sheets.match_clock(t, game.ends_at - now)
    scene = table_scene(t, state, game.names, clock)
    phase = _phase(game, state)
    view |= {
        "phase": phase,
        "round": state.round_no,
        "caption": scene.caption,
        "seats": _seats(game, scene),
        "match": clock or None,
        "layout": _layout(state.rules.tiles, scene),
        "bazaar": scene.bazaar,
        "count": None if scene.count is None else _count(scene),
        "sheet": _sheet(t, state, game.names),
        "moves": told(t, state.history, state, game.names, sheets.EVENT_LINES),
    }
    if phase == "playing" and game.deadline is not None:
        view["clock"] = {"seat": state.to_move, "deadline": game.deadline}
    view["result"] = _result(t, game, state, code)
    return view


def seat_part(t: Texts, game: GameRow, shared: View, seat: int | None) -> View:
    """The `SEAT_KEYS` of `seat`'s view (None: a watcher's), given the `shared_view`."""
    state = game.state
    if state is None:
        return {"you": seat, "hand": None} | _lobby(t, game, seat)
    return {
        "you": seat,
        "seats": [shown | {"you": shown["seat"] == seat} for shown in shared["seats"]],
        "hand": None if seat is None else _hand(state, seat),
        "lobby": None,
    }


@cache
def words(t: Texts) -> dict[str, str]:
    """The page's own labels in `t`'s language."""
    return {
        "your_turn": t("app-your-turn"),
        "watching": t("app-watching"),
        "pick_end": t("app-pick-end"),
        "sheet": t("app-sheet"),
        "hands": t("app-hands"),
        "empty_seat": t("app-empty-seat"),
        "lost": t("app-lost"),
        "lobby": t("lobby-title"),
        "sit": t("join"),
        "start": t("start"),
        "computer_easy": t("add-computer", level=t("computer-easy")),
        "computer_normal": t("add-computer", level=t("computer-normal")),
        "computer_hard": t("add-computer", level=t("computer-hard")),
        "draw": t("draw"),
        "pass": t("pass"),
        "doubles": t("hand-doubles"),
        "open": t("hand-open"),
        "closed": t("hand-closed"),
        "more": t("hand-more"),
        "done": t("hand-done"),
        "cancel": t("hand-cancel"),
        "pick_face": t("hand-pick-face"),
        "pick_double": t("hand-pick-double"),
        "ready": t("hand-ready"),
        "bazaar": t("picture-bazaar"),
        "replay": t("replay-button"),
        "review": t("review-button"),
        "options": t("app-options"),
    }


def _phase(game: GameRow, state: GameState) -> str:
    if game.status in (GameStatus.FINISHED, GameStatus.CANCELLED):
        return "over"
    return {Phase.PLAYING: "playing", Phase.ROUND_OVER: "round_over"}.get(state.phase, "over")


def _lobby(t: Texts, game: GameRow, seat: int | None) -> View:
    """A table being gathered: who sits, how many seats, its rules in words; for its
    creator, the rules to choose from (as the lobby's ⚙ buttons offer them)."""
    creator = any(p.seat == seat and p.user_id == game.creator_id for p in game.players)
    seats = [
        {
            "seat": p.seat,
            "name": p.name,
            "computer": p.computer is not None,
            "tiles": 0,
            "you": p.seat == seat,
            "to_move": False,
        }
        for p in game.players
    ]
    gathering = game.status is GameStatus.LOBBY
    lobby = {
        "players": game.rules.players,
        "creator": creator,
        "rules": t("lobby-rules", rules=described(t, game.rules)),
        "options": _options(t, game.rules) if creator and gathering else None,
        "teams": _teams(t, game, seat) if game.rules.teams else None,
    }
    return {"seats": seats, "lobby": lobby}


def _teams(t: Texts, game: GameRow, seat: int | None) -> View:
    """A team game's lobby: the teams as they would sit now (the lobby message's line) and,
    for a seat, the teams to pick from (its pick marked; picked again, it is let go)."""
    picks = [p.team for p in game.players]
    mine = None if seat is None else game.players[seat].team
    return {
        "line": lobby_teams(t, game.rules, game.names, picks),
        "buttons": [t("team-button", number=team + 1) for team in range(team_slots(game.rules))],
        "picked": mine,
    }


def lobby_choices(rules: RuleSet) -> dict[str, tuple[str, ...]]:
    """What a lobby's creator may choose for these rules: the preset, then each option
    that applies, with its values as typed."""
    return {"preset": tuple(PRESETS), **dict(option_choices(rules))}


def _options(t: Texts, rules: RuleSet) -> list[View]:
    """The rules' choices as rows of labelled values, the current one marked."""
    current = {"preset": rules.preset} | {k: option_value(v) for k, v in rules.options().items()}
    return [
        {
            "key": key,
            "choices": [
                {
                    "value": value,
                    "text": preset_name(t, value)
                    if key == "preset"
                    else option_label(t, key, value, rules),
                    "current": current[key] == value,
                }
                for value in values
            ],
        }
        for key, values in lobby_choices(rules).items()
    ]


def _seats(game: GameRow, scene: TableScene) -> list[View]:
    return [
        {
            "seat": p.seat,
            "name": p.name,
            "computer": p.computer is not None,
            "tiles": shown.tiles_left,
            "to_move": shown.to_move,
            "note": shown.note,
            "out": shown.out,
        }
        for p, shown in zip(game.players, scene.seats, strict=True)
    ]


def _tile(tiles: TileSet, pips: Pips) -> View:
    return {"tile": tiles.tile(*pips), "a": pips[0], "b": pips[1]}


def _box(rect: Rect) -> View:
    return {"x": rect.left, "y": rect.top, "w": rect.width, "h": rect.height}


def _layout(tiles: TileSet, scene: TableScene) -> View:
    """The line as the table picture lays it out (`render.geometry`)."""
    drawn = geometry(scene)
    return {
        "width": drawn.width,
        "height": drawn.height,
        "felt": _box(drawn.felt),
        "spinner": scene.spinner,
        "tiles": [
            _tile(tiles, spot.pips) | _box(spot.rect) | {"last": spot.last, "closed": spot.closed}
            for spot in drawn.tiles
        ],
        "ends": [
            {"arm": end.arm, "value": end.value, "text": end.text} | _box(end.rect)
            for end in drawn.ends
        ],
        "pips": [[list(place) for place in places] for places in drawn.pips],
        "dots": list(drawn.dots),
        "inks": None if drawn.inks is None else list(drawn.inks),
    }


def _count(scene: TableScene) -> View:
    count = scene.count
    assert count is not None
    return {
        "label": count.label,
        "total": count.total,
        "points": count.points,
        "scorer": count.scorer,
    }


def _sheet(t: Texts, state: GameState, names: Sequence[str]) -> View:
    """The score per side in the words of the game's kind of sheet, a row each."""
    rules, tally = state.rules, state.tally
    part = sheet_of(rules).part
    rows = [[part(t, tally, side, team(t, rules, names, side))] for side in range(rules.sides)]
    if tally.carry:
        rows.append([f"🥚 {tally.carry}"])
    return {"rows": rows}


def _hand(state: GameState, seat: int) -> View:
    """The seat's own tiles, from its `SeatView` alone: which may go down now, and whether
    it may draw, pass or put several doubles down at once."""
    view = seat_view(state, seat)
    legal = view.legal_moves()
    tiles = view.rules.tiles
    playable = {m.tile for m in legal if isinstance(m, Play)}
    return {
        "tiles": [
            _tile(tiles, tiles.pips[t]) | {"playable": t in playable} for t in tiles_of(view.hand)
        ],
        "turn": bool(legal),
        "draw": any(isinstance(m, Draw) for m in legal),
        "pass": any(isinstance(m, Pass) for m in legal),
        "doubles": any(isinstance(m, PlayDoubles) for m in legal),
    }


def _result(t: Texts, game: GameRow, state: GameState, code: str | None) -> View | None:
    """The last round's end as the group read it: its lines, the hands its result showed,
    the deal code; at the game's end, how it ended. The next round is dealt as one ends,
    so while it is played this is the round before (the state it ended in is gone then,
    and the words say less, as after a restart): the same all that round long."""
    ended = state.last_round
    if ended is None:
        return None
    if state.phase is Phase.PLAYING and state.outcome is None:
        return _round_before(t, ended, state.rules, tuple(game.names), code)
    end = [] if state.outcome is None else endings.game_end(t, game, state.outcome).split("\n")
    closed = None if state.phase is Phase.PLAYING else state
    return _ended(t, ended, state.rules, game.names, code, closed) | {"end": end}


@lru_cache(maxsize=ROUNDS_KEPT)
def _round_before(
    t: Texts, ended: RoundEnded, rules: RuleSet, names: tuple[str, ...], code: str | None
) -> View:
    return _ended(t, ended, rules, names, code) | {"end": []}


def _ended(
    t: Texts,
    ended: RoundEnded,
    rules: RuleSet,
    names: Sequence[str],
    code: str | None,
    closed: GameState | None = None,
) -> View:
    tiles = rules.tiles
    lines = sheets.round_result(t, ended, rules, names, closed).split("\n")
    hands = [
        {"seat": r.seat, "tiles": [_tile(tiles, tiles.pips[tile]) for tile in r.hand]}
        for r in sheet_of(rules).round_seats(ended, rules, closed)
    ]
    return {
        "round": ended.round_no,
        "lines": lines,
        "hands": hands,
        "code": t("round-deal-code", code=code) if code else None,
    }
