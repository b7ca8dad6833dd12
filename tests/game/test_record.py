"""The open game record (docs/RECORD.md): a random game of every format, leavers and
given deals included, replays from its record to exactly the state it ended in, and every
record holds to docs/record.schema.json."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.game import record as records
from bot.game import serial
from bot.game.engine import apply, legal_moves, new_game
from bot.game.record import Seat, Stamped
from bot.game.rules import PRESETS, RuleSet
from bot.game.state import GameState, Phase
from bot.game.typed import parse_rules

SCHEMA = json.loads((Path(__file__).parents[2] / "docs" / "record.schema.json").read_text())
TABLES = {"sea_goat": 2, "telephone": 3, "muggins": 2, "fives_threes": 2, "room": 6, "bykovo": 6}
AT = "2026-12-04T18:00:00Z"


def play(rules: RuleSet, seed: int, chooser: random.Random) -> tuple[GameState, list[Stamped]]:
    """A random game to its end (or 600 log entries), with now and then a person leaving
    (the computer plays on) or the game abandoned, and «Генерал»'s time running out."""
    state = new_game(rules, [f"u{i}" for i in range(rules.players)], seed)[0]
    log: list[Stamped] = []

    def step(entry: dict[str, Any]) -> None:
        nonlocal state
        state = serial.step(state, entry)
        log.append(Stamped(entry, AT))

    while state.phase is not Phase.GAME_OVER and len(log) < 600:
        if state.phase is Phase.ROUND_OVER:
            if rules.format.timed and state.round_no >= 3:
                step(serial.TIME_UP)
            else:
                step(serial.NEXT_ROUND)
            continue
        roll = chooser.random()
        seat = chooser.randrange(rules.players)
        if roll < 0.002 and not state.sits_out(seat) and seat not in state.left:
            step(serial.abandon_entry(seat))
        elif roll < 0.006 and not state.sits_out(seat) and seat not in state.left:
            step(serial.leave_entry(seat))
        else:
            moves = legal_moves(state)
            step(serial.encode(moves[chooser.randrange(len(moves))]))
    return state, log


def same_game(replayed: GameState, stored: GameState) -> bool:
    """Equal but for the seed (never in a record) and the seats' opaque ids."""
    return replayed._replace(seed=stored.seed, seats=stored.seats) == stored


@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(max_examples=4, deadline=None, derandomize=True)
@given(seed=st.integers(2**32, 2**48 - 1))  # long enough to look for
def test_a_record_replays_to_the_stored_final_state(preset: str, seed: int) -> None:
    rules = parse_rules(preset, players=TABLES.get(preset, 4))
    stored, log = play(rules, seed, random.Random(seed))
    seats = [Seat(f"Игрок {i}", "hard" if i % 2 else None) for i in range(rules.players)]
    record = records.build(rules, seats, seed, log, records.Played(7, started=AT, ended=AT))
    record = json.loads(json.dumps(record))  # as a reader gets it
    jsonschema.validate(record, SCHEMA)
    assert same_game(records.replay(record), stored)
    assert str(seed) not in json.dumps(record)  # the seed would give the deals away
    shown = records.round_states(record, record["rounds"][-1]["round"])
    assert same_game(shown[-1], stored) or stored.phase is Phase.GAME_OVER
    assert len(shown) == len(record["rounds"][-1]["moves"]) + 1


def test_a_given_deal_is_dealt_and_recorded() -> None:
    """`/newgame deal=CODE`'s `Deal` entry: round 1 gets those tiles, and the record says
    so, with its code."""
    rules = parse_rules("goat")
    _, log = play(rules, 11, random.Random(1))
    record = records.build(rules, [Seat("a")] * 4, 11, log, records.Played(1, codes={1: "K7QF2M"}))
    deal = record["rounds"][0]["deal"]
    assert deal["code"] == "K7QF2M"
    given = records.dealt_of(rules, deal)
    other = new_game(rules, ["a", "b", "c", "d"], 99)[0]
    entry = serial.deal_entry(given)
    after = serial.step(other, entry)
    assert after.hands == first_hands(record, rules)
    again = records.build(rules, [Seat("b")] * 4, 99, [Stamped(entry)], records.Played(2))
    assert again["rounds"][0]["deal"]["hands"] == deal["hands"]


def first_hands(record: dict[str, Any], rules: RuleSet) -> tuple[int, ...]:
    return records.round_states(record, 1)[0].hands


def test_a_deal_is_refused_once_someone_has_moved() -> None:
    rules = parse_rules("goat")
    state = new_game(rules, ["a", "b", "c", "d"], 5)[0]
    empty = records.build(rules, [Seat("a")] * 4, 6, [], records.Played(1))
    given = records.dealt_of(rules, empty["rounds"][0]["deal"])
    short = given.hands[0] & (given.hands[0] - 1)  # a tile short
    moved = apply(state, legal_moves(state)[0])[0]
    with pytest.raises(ValueError, match="nobody has moved"):
        serial.step(moved, serial.deal_entry(given))
    with pytest.raises(ValueError, match="not a deal"):
        serial.step(state, serial.deal_entry(given._replace(hands=(short, *given.hands[1:]))))
