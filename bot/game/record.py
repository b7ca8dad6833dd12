"""A finished game as an open record (docs/RECORD.md, docs/record.schema.json).

Who sat where, each round's deal, every move with its time and what it scored, each
round's result and the places: built by replaying a game's log with the rules it was
played under (`build`), and replayed by the engine from the record alone (`replay`,
`round_states`). The game's seed is never in it: each round starts from its recorded deal,
and lots come from `lots` (`shuffle.lot_seed`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import NamedTuple

from bot.game import notation, serial
from bot.game.deal import deal_given, dealt
from bot.game.engine import new_game, next_round
from bot.game.events import (
    Event,
    RoundEnded,
    RoundStarted,
)
from bot.game.notation import Record, dealt_of
from bot.game.rules import RuleSet
from bot.game.shuffle import LOTS_EDITION
from bot.game.state import GameState

__all__ = [
    "RECORD",
    "Played",
    "Record",
    "Seat",
    "Stamped",
    "build",
    "dealt_of",
    "every_round",
    "replay",
    "round_states",
    "rules_of",
]

RECORD = 1
"""The record format's version; a reader refuses a version it does not know."""
_DEALING = frozenset({"NextRound", "Rest", "Deal"})
"""Log entries that (re)deal a round: the record keeps their deal, not them."""


class Seat(NamedTuple):
    """A seat as the record shows it: a display name and, for a computer, its level."""

    name: str
    computer: str | None = None


class Stamped(NamedTuple):
    """A log entry and when it was made (ISO 8601, UTC), if known."""

    entry: serial.JSON
    at: str | None = None


class Played(NamedTuple):
    """What the bot knows of a game beyond its log: its number, when it started and
    ended, and its rounds' deal codes by round number."""

    game: int
    started: str | None = None
    ended: str | None = None
    codes: Mapping[int, str] = {}


def build(
    rules: RuleSet, seats: Sequence[Seat], seed: int, log: Sequence[Stamped], played: Played
) -> Record:
    """The record of a game played under `rules` from `seed` (never shown) by `seats`, with
    its move `log`."""
    codes = played.codes
    tiles = rules.tiles
    state, events = new_game(rules, [str(s) for s in range(len(seats))], seed)
    rounds: list[Record] = []
    deal = dealt(state, _started(events))
    for stamped in log:
        entry = stamped.entry
        kind = entry["type"]
        before = state
        state, events = serial.step_events(state, entry)
        if kind in _DEALING:
            deal = dealt(state, _started(events))
            continue
        if not rounds or rounds[-1]["round"] != state.round_no:
            rounds.append(notation.round_of(tiles, state.round_no, deal, codes.get(state.round_no)))
        rounds[-1]["moves"].append(notation.move_of(tiles, before, entry, events, stamped.at))
        for event in events:
            if isinstance(event, RoundEnded):
                rounds[-1]["result"] = notation.result_of(tiles, event)
    if not rounds:  # ended before the first move: the deal stands alone
        rounds.append(notation.round_of(tiles, state.round_no, deal, codes.get(state.round_no)))
    return {
        "record": RECORD,
        "game": played.game,
        "format": rules.scoring,
        "preset": rules.preset,
        "rules": rules.options(),
        **({"lots": state.lots} if rules.edition >= LOTS_EDITION else {}),
        "started_at": played.started,
        "ended_at": played.ended,
        "seats": [
            {"seat": i, "name": s.name, "computer": s.computer, "side": rules.side_of(i)}
            for i, s in enumerate(seats)
        ],
        "rounds": rounds,
        "end": notation.end_of(state.outcome),
    }


def replay(record: Record) -> GameState:
    """The state the game ended in, replayed from its record (the seed left out: a replay's
    seed is `-lots`)."""
    *_, (_, states) = every_round(record)
    return states[-1]


def round_states(record: Record, round_no: int) -> list[GameState]:
    """A round as the table saw it: the state after its deal, then after each of its moves."""
    for round_, states in every_round(record):
        if round_["round"] == round_no:
            return states
    raise KeyError(f"the record has no round {round_no}")


def every_round(record: Record) -> Iterator[tuple[Record, list[GameState]]]:
    """Each round of the record with its states (after the deal, then after each move),
    in one replay of the game."""
    state = _start(record)
    for number, round_ in enumerate(record["rounds"]):
        state = _deal(record, state if number == 0 else next_round(state)[0], round_)
        states = [state]
        for item in round_["moves"]:
            state = serial.step(state, notation.entry_of(state.rules.tiles, item))
            states.append(state)
        yield round_, states


def rules_of(record: Record) -> RuleSet:
    return RuleSet.from_options(record["rules"])


def _start(record: Record) -> GameState:
    rules = rules_of(record)
    seats = [str(s["seat"]) for s in record["seats"]]
    return new_game(rules, seats, -int(record.get("lots", 0)))[0]


def _deal(record: Record, state: GameState, round_: Record) -> GameState:
    return deal_given(state, dealt_of(state.rules, round_["deal"]))[0]


def _started(events: Sequence[Event]) -> RoundStarted:
    return next(e for e in events if isinstance(e, RoundStarted))
