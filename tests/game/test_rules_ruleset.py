"""`RuleSet`, presets and `parse_rules`: validation messages and round trips."""

from __future__ import annotations

import json
import pickle
from dataclasses import fields

import pytest

from bot.game import PRESETS, RuleError, RuleSet, parse_rules
from bot.game.formats import FORMATS
from bot.game.rules import LIMITS, DrawMode, FirstLead, FishMode, NextLead
from bot.game.typed import played
from bot.ui.i18n import texts_for

OPTION_NAMES = [name for name in RuleSet().options() if name not in {"preset", "edition"}]


def rule_error(match: str, key: str | None = None, **kwargs) -> RuleError:
    with pytest.raises(RuleError, match=match) as error:
        RuleSet.of(kwargs)
    if key is not None:
        assert error.value.key == key
    return error.value


# -- validation --------------------------------------------------------------------------


def test_teams_need_4_players():
    error = rule_error("teams need exactly 4 players", "teams", teams=True, players=3)
    assert error.valid == "4"
    assert RuleSet(teams=True, players=4).sides == 2


def test_players_between_2_and_4():
    assert "2–4" in rule_error("players=5", "players", players=5).valid
    rule_error("players=1", "players", players=1)


def test_sea_goat_with_3_players_alone():
    error = rule_error("sea_goat is played by 2 players or by 4 in teams", "players",
                       scoring="sea_goat", players=3)  # fmt: skip
    assert error.valid == "2, 4 (teams=yes)"
    rule_error("not 4 alone", "players", scoring="sea_goat", players=4)
    with pytest.raises(RuleError, match="not 3 alone"):
        parse_rules("sea_goat players=3")
    assert parse_rules("sea_goat teams=yes players=4").sides == 2


def test_hand_size_too_big():
    error = rule_error("hand_size=8", "hand_size", hand_size=8, players=4)
    assert "28 tiles" in str(error)
    assert error.valid == "1–7"
    assert RuleSet(hand_size=7, players=4).hand == 7
    assert RuleSet(hand_size=14, players=2).hand == 14
    rule_error("hand_size=0", "hand_size", hand_size=0)


OWN_RANGES = {
    f.name: f.metadata["range"]
    for fmt in FORMATS.values()
    for f in fields(fmt.options)
    if f.metadata["range"]
}


@pytest.mark.parametrize("name", ["keep", "redeal_doubles", "redeal_suit", "open_threshold"])
def test_negative_counts(name):
    low, high = (LIMITS | OWN_RANGES)[name]
    rule_error(f"{name}=-1: must be from {low} to {high}", name, **{name: -1})


def test_a_games_own_numbers_have_their_ranges():
    assert OWN_RANGES == {"open_threshold": (0, 1000), "record_min": (0, 1000), "minutes": (1, 120)}
    rule_error("minutes=121: must be from 1 to 120", "minutes", scoring="general", teams=True,
               minutes=121)  # fmt: skip


@pytest.mark.parametrize("name", sorted(LIMITS))
def test_every_number_has_a_range(name):
    """A number typed by a user never reaches a clock or the database unbounded."""
    low, high = LIMITS[name]
    rule_error(f"{name}={high + 1}: must be from {low} to {high}", name, **{name: high + 1})
    with pytest.raises(RuleError):
        parse_rules(f"goat {name}={'9' * 400}")
    with pytest.raises(RuleError):  # past Python's own limit for digits
        parse_rules(f"goat {name}={'9' * 5000}")


def test_keep_more_than_the_bazaar():
    rule_error("keep=15: the bazaar has only 14 tiles", "keep", players=2, keep=15)
    assert RuleSet(players=2, keep=14).keep == 14
    rule_error("keep=1: the bazaar has only 0 tiles", "keep", players=4, keep=1)


def test_target_must_be_positive():
    rule_error(r"target=0 \(by the number of players\): goat plays to a target", "target", target=0)
    rule_error("target=10001: must be from 0 to 10000", "target", target=10001)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("players", "4"),
        ("players", True),
        ("teams", 1),
        ("teams", "yes"),
        ("scoring", 3),
        ("fish", "one"),
        ("hand_size", 7.0),
        ("hand_size", False),
        ("target", None),
        ("preset", 3),
    ],
)
def test_bad_types(name, value):
    rule_error("wrong type", name, **{name: value})


def test_sea_goat_only_flags_need_sea_goat_scoring():
    rule_error("belong to sea_goat", "scoring", bald_goat=True)
    rule_error("belong to sea_goat", "scoring", write_off=True)


# -- parse_rules -----------------------------------------------------------------------


def test_parse_sea_goat_target_125():
    rules = parse_rules("sea_goat target=125")
    assert rules == PRESETS["sea_goat"].rules
    assert rules.scoring == "sea_goat"
    assert rules.target == 125
    assert rules.players == 2
    assert parse_rules("sea_goat target=150").target == 150


def test_parse_defaults_to_goat_and_reads_options():
    assert parse_rules("") == PRESETS["goat"].rules
    rules = parse_rules("draw=one keep=1 fish=all auto_draw=no", players=3)
    assert rules.preset == "goat"
    assert rules.players == 3
    assert rules.draw is DrawMode.ONE
    assert rules.keep == 1
    assert rules.own.fish is FishMode.ALL
    assert rules.auto_draw is False
    assert parse_rules("GOAT Fish=ALL, target=125").own.fish is FishMode.ALL
    assert parse_rules("classic hand_size=6", players=3).hand == 6
    assert parse_rules("classic hand_size=auto", players=3).hand == 5


def test_unknown_key_lists_the_chosen_games_options():
    with pytest.raises(RuleError) as error:
        parse_rules("goat colour=red")
    assert (error.value.key, error.value.game) == ("colour", "goat")
    listed = error.value.valid.split(", ")
    assert listed == list(played(PRESETS["goat"].rules.format))
    assert {"fish", "open_threshold", "spinner"} <= set(listed)
    assert not {"exact", "minutes", "record_min", "scoring"} & set(listed)
    with pytest.raises(RuleError, match="unknown option"):
        parse_rules("goat target")  # no `=`


def test_unknown_preset_lists_the_presets():
    with pytest.raises(RuleError, match="unknown preset") as error:
        parse_rules("chess")
    assert error.value.valid == ", ".join(PRESETS)


@pytest.mark.parametrize(
    ("text", "key", "valid"),
    [
        ("goat fish=some", "fish", "all, one"),
        ("goat draw=two", "draw", "until_playable, one, none"),
        ("goat first_lead=me", "first_lead", ", ".join(e.value for e in FirstLead)),
        ("goat next_lead=me", "next_lead", ", ".join(e.value for e in NextLead)),
        ("goat scoring=chess", "scoring", ", ".join(FORMATS)),
    ],
)
def test_bad_enum_value_lists_the_valid_values(text, key, valid):
    with pytest.raises(RuleError, match="choose one of") as error:
        parse_rules(text)
    assert error.value.key == key
    assert error.value.valid == valid
    assert valid in str(error.value)


def test_bad_bool():
    with pytest.raises(RuleError, match="say yes or no") as error:
        parse_rules("goat auto_draw=maybe")
    assert error.value.key == "auto_draw"
    assert parse_rules("goat auto_draw=да").auto_draw is True
    assert parse_rules("goat voluntary_pass=on").voluntary_pass is True


def test_bad_number():
    with pytest.raises(RuleError, match="whole number") as error:
        parse_rules("goat target=lots")
    assert error.value.key == "target"


@pytest.mark.parametrize(
    "text",
    [
        "sea_goat open_threshold=25",
        "sea_goat fish=all",
        "classic fish=all",
        "goat record_min=30",
        "goat bald_goat=yes",
        "classic write_off=yes",
    ],
)
def test_key_of_another_scoring_family_is_rejected(text):
    key = text.split()[1].partition("=")[0]
    with pytest.raises(RuleError, match="does not apply") as error:
        parse_rules(text)
    assert error.value.key == key


def test_validation_errors_come_through_parse_rules():
    with pytest.raises(RuleError, match="teams need exactly 4"):
        parse_rules("goat teams=yes", players=3)
    with pytest.raises(RuleError, match="hand_size"):
        parse_rules("goat hand_size=9")


# -- round trips -------------------------------------------------------------------------

VARIED = [
    "goat",
    "goat_teams",
    "sea_goat",
    "classic",
    "sea_goat target=150",
    "sea_goat teams=yes players=4",
    "goat players=2 draw=one keep=1",
    "goat players=3 fish=all open_threshold=25 target=125",
    "goat draw=none voluntary_pass=yes auto_draw=no",
    "classic players=3 hand_size=6",
    "goat_teams fish=all lone_zero=0 redeal_suit=0",
    "sea_goat bald_goat=no write_off=no record_min=30 double_pair=no",
    "goat first_lead=lot next_lead=first_rule",
]


@pytest.mark.parametrize("text", VARIED)
def test_summary_round_trips_through_parse_rules(text):
    rules = parse_rules(text)
    assert parse_rules(rules.summary()) == rules
    assert rules.summary().split()[0] == rules.preset


def test_summary_lists_only_changes():
    assert parse_rules("goat").summary() == "goat"
    assert parse_rules("sea_goat target=150").summary() == "sea_goat target=150"
    assert parse_rules("goat auto_draw=no").summary() == "goat auto_draw=no"


@pytest.mark.parametrize("text", ["goat fish=all scoring=classic", "goat scoring=classic fish=all"])
def test_goat_only_key_is_rejected_whatever_the_order(text):
    with pytest.raises(RuleError) as error:
        parse_rules(text)
    assert error.value.key == "fish"


@pytest.mark.parametrize("text", VARIED)
def test_from_options_inverts_options(text):
    rules = parse_rules(text)
    assert RuleSet.from_options(rules.options()) == rules
    assert RuleSet.from_options(json.loads(json.dumps(rules.options()))) == rules


def test_from_options_validates():
    options = parse_rules("goat").options() | {"fish": "most"}
    with pytest.raises(RuleError, match="choose one of"):
        RuleSet.from_options(options)


def cyrillic(text: str) -> bool:
    return any("\u0400" <= c <= "\u04ff" for c in text)


def test_every_preset_has_descriptions_and_valid_rules():
    assert set(PRESETS) >= {"goat", "goat_teams", "sea_goat", "classic"}
    for name, preset in PRESETS.items():
        assert preset.name == name == preset.rules.preset
        assert cyrillic(texts_for("ru")(f"preset-{name}"))
        assert not cyrillic(texts_for("en")(f"preset-{name}"))
        assert parse_rules(name) == preset.rules
        assert RuleSet.from_options(preset.rules.options()) == preset.rules


def test_preset_rules_match_the_spec():
    goat = PRESETS["goat"].rules
    assert (goat.hand, goat.own.open_threshold, goat.target, goat.own.fish) == (
        7,
        13,
        101,
        FishMode.ONE,
    )
    assert (goat.redeal_doubles, goat.redeal_suit, goat.lone_zero) == (5, 6, 10)
    assert goat.first_lead is FirstLead.ONE_ONE
    assert goat.next_lead is NextLead.WINNER
    assert PRESETS["goat_teams"].rules.teams
    sea = PRESETS["sea_goat"].rules
    assert (sea.target, sea.own.record_min, sea.lone_zero) == (125, 25, 25)
    assert sea.double_pair and sea.own.bald_goat and sea.own.write_off
    classic = PRESETS["classic"].rules
    assert classic.first_lead is FirstLead.HIGHEST_DOUBLE
    assert classic.target == 100
    assert [classic.with_players(n).hand for n in (2, 3, 4)] == [7, 5, 5]


def test_rules_are_immutable_and_hashable_by_value():
    rules = parse_rules("goat")
    with pytest.raises(AttributeError):
        rules.target = 5  # type: ignore[misc]
    assert parse_rules("goat target=101") == rules
    assert rules.with_players(2).players == 2
    assert rules.players == 4


def test_rules_pickle_by_their_options_and_hash_alike() -> None:
    rules = parse_rules("telephone target=150", players=3)
    again = pickle.loads(pickle.dumps(rules))
    assert again == rules and hash(again) == hash(rules) and again.tiles is rules.tiles
    assert {rules: 1}[again] == 1


# -- a game's own options, stored by the previous version ------------------------------------

STORED_BEFORE_OWN_OPTIONS = {
    "sea_goat record_min=30": '{"preset": "sea_goat", "scoring": "sea_goat", "players": 2, "teams": false, "team_size": 2, "max_pip": 6, "hand_size": null, "redeal_doubles": 5, "redeal_suit": 6, "first_lead": "one_one", "next_lead": "winner", "draw": "until_playable", "keep": 0, "auto_draw": true, "voluntary_pass": false, "open_threshold": 13, "lone_zero": 25, "fish": "one", "target": 125, "record_min": 30, "double_pair": true, "spinner": "none", "doubles": 1, "closed_doubles": false, "bald_goat": true, "write_off": true, "turn_timeout": 60, "minutes": 30, "exact": false, "edition": 4}',  # noqa: E501
    "general minutes=60": '{"preset": "general", "scoring": "general", "players": 4, "teams": true, "team_size": 2, "max_pip": 6, "hand_size": null, "redeal_doubles": 0, "redeal_suit": 0, "first_lead": "one_one", "next_lead": "first_rule", "draw": "none", "keep": 0, "auto_draw": true, "voluntary_pass": false, "open_threshold": 13, "lone_zero": 0, "fish": "one", "target": 101, "record_min": 25, "double_pair": false, "spinner": "none", "doubles": 1, "closed_doubles": false, "bald_goat": false, "write_off": false, "turn_timeout": 60, "minutes": 60, "exact": false, "edition": 4}',  # noqa: E501
    "fives_threes exact=yes": '{"preset": "fives_threes", "scoring": "fives_threes", "players": 4, "teams": false, "team_size": 2, "max_pip": 6, "hand_size": null, "redeal_doubles": 0, "redeal_suit": 0, "first_lead": "lot", "next_lead": "winner", "draw": "none", "keep": 0, "auto_draw": true, "voluntary_pass": false, "open_threshold": 13, "lone_zero": 0, "fish": "one", "target": 61, "record_min": 25, "double_pair": false, "spinner": "none", "doubles": 1, "closed_doubles": false, "bald_goat": false, "write_off": false, "turn_timeout": 60, "minutes": 30, "exact": true, "edition": 4}',  # noqa: E501
    "goat fish=all open_threshold=0": '{"preset": "goat", "scoring": "goat", "players": 4, "teams": false, "team_size": 2, "max_pip": 6, "hand_size": null, "redeal_doubles": 5, "redeal_suit": 6, "first_lead": "one_one", "next_lead": "winner", "draw": "until_playable", "keep": 0, "auto_draw": true, "voluntary_pass": false, "open_threshold": 0, "lone_zero": 10, "fish": "all", "target": 101, "record_min": 25, "double_pair": false, "spinner": "none", "doubles": 1, "closed_doubles": false, "bald_goat": false, "write_off": false, "turn_timeout": 60, "minutes": 30, "exact": false, "edition": 4}',  # noqa: E501
}
"""`RuleSet.options()` as the version before a game owned its options stored it."""


@pytest.mark.parametrize("typed", STORED_BEFORE_OWN_OPTIONS)
def test_rules_stored_before_a_game_owned_its_options_load_and_store_the_same(typed):
    stored = json.loads(STORED_BEFORE_OWN_OPTIONS[typed])
    rules = RuleSet.from_options(stored)
    assert rules == parse_rules(typed)
    assert rules.options() == stored  # every option, every game's own included
    assert json.dumps(rules.options()) == STORED_BEFORE_OWN_OPTIONS[typed]  # in their order


def test_a_game_owns_its_options():
    rules = parse_rules("sea_goat record_min=30")
    assert rules.own == rules.format.options(record_min=30, bald_goat=True, write_off=True)
    assert rules.changed({"record_min": 40}).own.record_min == 40
    assert parse_rules("classic").changed({"scoring": "goat"}).own == PRESETS["goat"].rules.own
    with pytest.raises(RuleError, match="belong to sea_goat"):
        rules.changed({"scoring": "goat"})  # a Sea Goat option kept in another game
