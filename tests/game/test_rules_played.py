"""Each game plays only the shared options its rules leave open (`Format.fixed`): what a
person types or picks otherwise is refused naming the game, a bad option lists that game's
own options; a stored game keeps what it was stored with, and a chat's saved defaults drop
what their game does not play."""

from __future__ import annotations

import json
import random
from dataclasses import fields

import pytest

from bot.game import record as records
from bot.game.engine import new_game
from bot.game.formats import FORMATS, Format
from bot.game.record import Seat
from bot.game.rules import OWN_OPTIONS, PRESETS, DrawMode, RuleError, RuleSet, Spinner
from bot.game.typed import parse_rules, played, saved_rules
from bot.game.values import show_value
from tests.game.test_record import AT, play, same_game

GAMES = list(FORMATS.values())
IDS = [f.id for f in GAMES]


def unplayed(fmt: Format) -> str:
    """An option `fmt`'s game does not play, as a person types it: a value its rules fix
    otherwise, or another game's own option."""
    for key, only in fmt.fixed.items():
        other = next(p.rules for p in PRESETS.values() if getattr(p.rules, key) not in only)
        return f"{key}={show_value(getattr(other, key))}"
    key = next(name for name, owner in OWN_OPTIONS.items() if owner is not fmt)
    return f"{key}={show_value(PRESETS[key_preset(key)].rules.options()[key])}"


def key_preset(key: str) -> str:
    """A preset of the game that owns `key`, where it differs from the default if any."""
    owner = OWN_OPTIONS[key]
    return next(name for name, p in PRESETS.items() if p.rules.format is owner)


@pytest.mark.parametrize("fmt", GAMES, ids=IDS)
def test_an_option_the_game_does_not_play_is_refused_naming_it(fmt: Format) -> None:
    typed = unplayed(fmt)
    with pytest.raises(RuleError) as error:
        parse_rules(f"{fmt.id} {typed}")
    assert error.value.game == fmt.id
    assert error.value.key == typed.partition("=")[0]


@pytest.mark.parametrize("fmt", GAMES, ids=IDS)
def test_a_bad_option_lists_the_games_own_options(fmt: Format) -> None:
    with pytest.raises(RuleError) as error:
        parse_rules(f"{fmt.id} colour=red")
    assert error.value.game == fmt.id
    listed = error.value.valid.split(", ")
    assert listed == list(played(fmt))
    assert {f.name for f in fields(fmt.options)} <= set(listed)
    assert not set(listed) & {k for k, only in fmt.fixed.items() if len(only) == 1}
    assert not set(listed) & {k for k, owner in OWN_OPTIONS.items() if owner is not fmt}


@pytest.mark.parametrize("fmt", GAMES, ids=IDS)
def test_every_preset_plays_what_its_game_fixes(fmt: Format) -> None:
    for preset in PRESETS.values():
        if preset.rules.format is fmt:
            assert parse_rules(preset.name) == preset.rules
            for key, only in fmt.fixed.items():
                assert getattr(preset.rules, key) == only[0]


@pytest.mark.parametrize(
    "typed", ["draw=until_playable", "spinner=four", "redeal_doubles=3", "first_lead=one_one"]
)
def test_fives_and_threes_plays_no_bazaar_no_redeal_no_spinner(typed: str) -> None:
    key, _, value = typed.partition("=")
    with pytest.raises(RuleError) as error:
        parse_rules(f"fives_threes {typed}")
    assert (error.value.key, error.value.value, error.value.game) == (key, value, "fives_threes")
    assert error.value.valid == show_value(
        FORMATS[PRESETS["fives_threes"].rules.scoring].fixed[key][0]
    )


def test_choosing_the_game_by_scoring_brings_its_fixed_options_too() -> None:
    with pytest.raises(RuleError) as error:
        parse_rules("goat scoring=fives_threes")
    assert error.value.game == "fives_threes"


def test_a_stored_fives_and_threes_game_with_a_bazaar_plays_and_replays_as_stored() -> None:
    """Stored before the games said what they play: it loads, plays and its record replays."""
    options = PRESETS["fives_threes"].rules.options() | {"draw": "until_playable", "players": 2}
    stored = json.loads(json.dumps(options))
    rules = RuleSet.from_options(stored)
    assert (rules.draw, rules.options()["draw"]) == (DrawMode.UNTIL_PLAYABLE, "until_playable")
    state, log = play(rules, 7, random.Random(7))
    assert len(state.history) > 1
    seats = [Seat("a"), Seat("b")]
    record = json.loads(
        json.dumps(records.build(rules, seats, 7, log, records.Played(1, started=AT, ended=AT)))
    )
    assert record["rules"]["draw"] == "until_playable"
    assert same_game(records.replay(record), state)
    assert new_game(rules, ["a", "b"], 3)[0].rules == rules


def test_saved_defaults_drop_what_their_game_does_not_play() -> None:
    rules, dropped = saved_rules("fives_threes draw=until_playable spinner=four target=31")
    assert dropped == ("draw=until_playable", "spinner=four")
    assert rules == parse_rules("fives_threes target=31")
    assert rules.spinner is Spinner.NONE
    assert saved_rules("goat spinner=four") == (parse_rules("goat spinner=four"), ())
