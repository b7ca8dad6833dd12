"""State ↔ JSON (with a format version), moves ↔ JSON, and replay from a move log.

A game's log is a list of JSON entries: moves (`{"type": "Play", "tile": 9, "end": 1}`),
`{"type": "NextRound"}`, `{"type": "Abandon", "seat": 2}`, `{"type": "Leave", "seat": 2}`
Bykovo's `{"type": "Rest", "seats": [1, 4]}` (who sits the first round out),
`{"type": "Deal", "hands": …}` (the round just begun is dealt given tiles: `deal=CODE`), «Генерал»'s
`{"type": "TimeUp"}` (the match's time is up, after a round), and `{"type": "Rules",
"edition": 2}` where a game stored by an older version went on under today's rules
(`rules.EDITIONS`). Replaying the log from the game's rules, seats and seed gives the
identical state.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields, replace
from typing import Any, NamedTuple

from bot.game import events
from bot.game.deal import Dealt, deal_given
from bot.game.engine import abandon, apply, leave, new_game, next_round, rest_first, time_up
from bot.game.moves import Draw, Move, Pass, Play, PlayDoubles
from bot.game.rules import RuleSet
from bot.game.scoring import Tally
from bot.game.state import GameState, Phase
from bot.game.table import build_table, fitting
from bot.game.tiles import tiles_of

FORMAT = 1

_RECORDS: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        events.RoundStarted,
        events.TilePlayed,
        events.DoublesPlayed,
        events.TilesDrawn,
        events.Knocked,
        events.Passed,
        events.WentOut,
        events.Scored,
        events.SeatResult,
        events.RoundEnded,
        events.Place,
        events.GameEnded,
        Play,
        PlayDoubles,
        Draw,
        Pass,
    )
}
JSON = Any
_ENUMS: dict[str, dict[str, type[Any]]] = {
    "RoundStarted": {"redeals": events.Redeal},
    "RoundEnded": {"reason": events.RoundEnd},
    "GameEnded": {"reason": events.EndReason},
}
"""The fields of records that come back from JSON as enums."""


def encode(value: object) -> JSON:
    """Events, moves and their parts as JSON values; records carry their `type`."""
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        record: NamedTuple = value  # type: ignore[assignment]
        return {"type": type(value).__name__, **{k: encode(v) for k, v in record._asdict().items()}}
    if isinstance(value, (Play, PlayDoubles, Draw, Pass)):
        names = [f.name for f in fields(value)]
        return {"type": type(value).__name__, **{k: encode(getattr(value, k)) for k in names}}
    if isinstance(value, (tuple, list)):
        return [encode(v) for v in value]
    return value


def decode(data: JSON) -> Any:
    """The inverse of `encode`: lists come back as tuples."""
    if isinstance(data, dict):
        cls, enums = _RECORDS[data["type"]], _ENUMS.get(data["type"], {})
        return cls(
            **{
                k: _enum(enums[k], v) if k in enums else decode(v)
                for k, v in data.items()
                if k != "type"
            }
        )
    if isinstance(data, list):
        return tuple(decode(v) for v in data)
    return data


def _enum(kind: type[Any], value: JSON) -> Any:
    """A stored value as its enum (a list: each of its values)."""
    return tuple(map(kind, value)) if isinstance(value, list) else kind(value)


def move_from_json(data: JSON) -> Move:
    move = decode(data)
    if not isinstance(move, (Play, PlayDoubles, Draw, Pass)):
        raise ValueError(f"not a move: {data!r}")
    return move


def state_to_json(state: GameState) -> dict[str, JSON]:
    tally = state.tally
    return {
        "format": FORMAT,
        "rules": state.rules.options(),
        "seats": list(state.seats),
        "seed": state.seed,
        "round_no": state.round_no,
        "phase": state.phase.value,
        "hands": [list(tiles_of(hand)) for hand in state.hands],
        "bazaar": list(state.bazaar),
        "ends": list(state.ends),
        "to_move": state.to_move,
        "lead_tile": state.lead_tile,
        "drawn": state.drawn,
        "idle": state.idle,
        "last_player": state.last_player,
        "history": encode(state.history),
        "tally": {
            "scores": list(tally.scores),
            "remembered": list(tally.remembered),
            "opened": list(tally.opened),
            "carry": tally.carry,
            "out": list(tally.out),
            "before": list(tally.before),
            "wins": list(tally.wins),
            "queue": list(tally.queue),
        },
        "next_leader": state.next_leader,
        "last_round": encode(state.last_round),
        "outcome": encode(state.outcome),
        "left": list(state.left),
        "resting": list(state.resting),
    }


def state_from_json(data: dict[str, JSON]) -> GameState:
    if data.get("format") != FORMAT:
        raise ValueError(f"unknown state format {data.get('format')!r}, expected {FORMAT}")
    rules = RuleSet.from_options(data["rules"])
    tiles = rules.tiles
    history = decode(data["history"])
    ends = tuple(data["ends"])
    on_table = tiles.mask(tile for tile, _, _ in events.plays_of(history))
    spread = build_table(tiles, rules.spinner, events.plays_of(history)).spread
    t = data["tally"]
    return GameState(
        rules=rules,
        seats=tuple(data["seats"]),
        seed=data["seed"],
        round_no=data["round_no"],
        phase=Phase(data["phase"]),
        hands=tuple(tiles.mask(hand) for hand in data["hands"]),
        bazaar=tuple(data["bazaar"]),
        ends=ends,
        on_table=on_table,
        fits=fitting(tiles, ends),
        to_move=data["to_move"],
        lead_tile=data["lead_tile"],
        drawn=data["drawn"],
        idle=data["idle"],
        last_player=data["last_player"],
        history=history,
        tally=Tally(
            scores=tuple(t["scores"]),
            remembered=tuple(t["remembered"]),
            opened=tuple(t["opened"]),
            carry=t["carry"],
            out=tuple(t.get("out", ())),
            before=tuple(t.get("before", ())),
            wins=tuple(t.get("wins", ())),
            queue=tuple(t.get("queue", ())),
        ),
        next_leader=data["next_leader"],
        last_round=decode(data["last_round"]),
        outcome=decode(data["outcome"]),
        left=tuple(data.get("left", ())),
        spread=spread,
        resting=tuple(data.get("resting", ())),
    )


NEXT_ROUND: dict[str, JSON] = {"type": "NextRound"}
TIME_UP: dict[str, JSON] = {"type": "TimeUp"}


def abandon_entry(seat: int) -> dict[str, JSON]:
    return {"type": "Abandon", "seat": seat}


def leave_entry(seat: int) -> dict[str, JSON]:
    return {"type": "Leave", "seat": seat}


def rest_entry(seats: Iterable[int]) -> dict[str, JSON]:
    return {"type": "Rest", "seats": list(seats)}


def rules_entry(rules: RuleSet) -> dict[str, JSON]:
    return {"type": "Rules", "edition": rules.edition}


def deal_entry(given: Dealt) -> dict[str, JSON]:
    """The round just begun is dealt `given` (`/newgame deal=CODE`)."""
    return {
        "type": "Deal",
        "hands": [list(tiles_of(hand)) for hand in given.hands],
        "bazaar": list(given.bazaar),
        "leader": given.leader,
        "lead_tile": given.lead_tile,
        "redeals": [r.value for r in given.redeals],
        "resting": list(given.resting),
    }


def dealt_from_json(data: dict[str, JSON], rules: RuleSet) -> Dealt:
    """A `Deal` entry's deal."""
    return Dealt(
        hands=tuple(rules.tiles.mask(hand) for hand in data["hands"]),
        bazaar=tuple(data["bazaar"]),
        leader=data["leader"],
        lead_tile=data["lead_tile"],
        redeals=tuple(events.Redeal(r) for r in data["redeals"]),
        resting=tuple(data["resting"]),
    )


def step(state: GameState, entry: dict[str, JSON]) -> GameState:
    """Apply one log entry."""
    return step_events(state, entry)[0]


def step_events(
    state: GameState, entry: dict[str, JSON]
) -> tuple[GameState, tuple[events.Event, ...]]:
    """Apply one log entry: the state after it and what happened."""
    kind = entry["type"]
    if kind == "NextRound":
        return next_round(state)
    if kind == "Rest":
        return rest_first(state, entry["seats"])
    if kind == "Deal":
        return deal_given(state, dealt_from_json(entry, state.rules))
    if kind == "TimeUp":
        return time_up(state)
    if kind == "Rules":
        return state._replace(rules=replace(state.rules, edition=entry["edition"])), ()
    if kind == "Abandon":
        return abandon(state, entry["seat"])
    if kind == "Leave":
        return leave(state, entry["seat"]), ()
    return apply(state, move_from_json(entry))


def replay(
    rules: RuleSet, seats: Iterable[str], seed: int, log: Iterable[dict[str, JSON]]
) -> GameState:
    """The state after a game's log, replayed from its seed."""
    state = new_game(rules, tuple(seats), seed)[0]
    for entry in log:
        state = step(state, entry)
    return state
