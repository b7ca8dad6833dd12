"""Every game of the registry is complete for a player, in every language: its human name
wherever a person reads which game it is, how it is won in /help and /rules, a short game
among the lobby's ⚙ choices, what decides it on the score sheet and at the game's end (with
figures that are not all zero), no bazaar where it has none, and /stats that keeps the
games apart. The texts and scenes are called directly with states the engine plays."""

from __future__ import annotations

import random
from functools import cache
from typing import NamedTuple

import pytest

from bot.core.rows import ChatSettings, PlayerStats, PresetStats
from bot.game import GameState, Phase, apply, legal_moves, new_game, next_round
from bot.game.engine import time_up
from bot.game.formats import Sheet
from bot.game.rules import PRESETS, DrawMode, RuleSet
from bot.game.typed import parse_rules
from bot.ui import endings, games, sheet_kinds, sheets, texts
from bot.ui.games import Seen, game_won, how_won, option_choices, option_label, preset_name
from bot.ui.i18n import Texts, texts_for
from bot.ui.scenes import score_sheet, table_scene
from render import SheetKind
from tests.helpers import seats

LANGUAGES = ("ru", "en")
NAMES = ("Маша", "Серёжа", "Оля", "Дима", "Катя", "Петя", "Зоя", "Лёва")
ROUNDS = 400  # «Генерал»: the most rounds played looking for a General before time is up


class Played(NamedTuple):
    """A game played by random legal moves: its first deal and its end, the last round
    closed in it."""

    dealt: GameState
    over: GameState
    names: tuple[str, ...]


def _play(rules: RuleSet, seed: int) -> Played:
    """A whole game; a «Генерал» match ends once a team has made a General and both have
    won a round (or after `ROUNDS`)."""
    rng = random.Random(seed)
    dealt, _ = new_game(rules, seats(rules.players), seed)
    state, rounds = dealt, 0
    while state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.PLAYING:
            state, _ = apply(state, rng.choice(legal_moves(state)))
            continue
        rounds += 1
        if rules.format.timed and (_decided(state) or rounds >= ROUNDS):
            state, _ = time_up(state)
        else:
            state, _ = next_round(state)
    return Played(dealt, state, NAMES[: rules.players])


def _decided(state: GameState) -> bool:
    """Figures that say something: a score (a General) and, in «Генерал», rounds won by
    every team."""
    tally = state.tally
    return any(tally.scores) and all(tally.wins or (1,))


@cache
def played(preset: str) -> Played:
    """The first seed's game whose end has figures to show (no bald goat in round one)."""
    rules = PRESETS[preset].rules
    return next(game for seed in range(1, 50) if _decided((game := _play(rules, seed)).over))


def _cases() -> list[tuple[str, str]]:
    return [(name, language) for name in PRESETS for language in LANGUAGES]


def _shortened(rules: RuleSet) -> RuleSet:
    """The rules with their shortest length but one: a changed option to put in words."""
    fmt = rules.format
    value = next(v for v in fmt.lengths if v and v != rules.options()[fmt.length.value])
    return parse_rules(f"{rules.summary()} {fmt.length.value}={value}")


def _stats(preset: str) -> PlayerStats:
    """A player's two presets: this one and one where points mean the opposite."""
    other = "muggins" if not PRESETS[preset].rules.format.higher_wins else "goat"
    return PlayerStats(
        games=5,
        wins=2,
        favourite_preset=preset,
        presets=(
            PresetStats(preset, games=3, wins=1, points=30, rounds=3, podiums=2),
            PresetStats(other, games=2, wins=1, points=50, rounds=2, podiums=1),
        ),
    )


CASES = pytest.mark.parametrize(("name", "language"), _cases())


@CASES
def test_the_human_name_is_read_wherever_the_game_is_named(name: str, language: str) -> None:
    t = texts_for(language)
    rules = PRESETS[name].rules
    human = preset_name(t, name)
    assert human != name and t(f"preset-{name}").startswith(human)
    changed = _shortened(rules)
    lobby = texts.lobby(t, changed, NAMES[:2], [], True, 10)
    assert t("lobby-rules", rules=games.described(t, changed)) in lobby.splitlines()
    assert f"{human} · " in lobby and changed.summary() not in lobby
    assert "=" not in games.described(t, changed)
    assert t("lobby-rules", rules=t(f"preset-{name}")) in texts.lobby(t, rules, [], [], True, 10)
    settings = texts.chat_settings(t, "Двор", changed, t("language-name"), ChatSettings())
    assert t("settings-rules", rules=games.described(t, changed)) in settings.splitlines()
    for text in (games.help_group(t, 10), games.rules_text(t, rules, Seen.CHAT)):
        assert f"• {human} ({name}): " in text
    for seen in Seen:
        assert games.rules_text(t, rules, seen).startswith(t(f"rules-for-{seen}", rules=""))
        assert human in games.rules_text(t, rules, seen).splitlines()[0]
    shown = texts.stats(t, "Маша", "Двор", _stats(name))
    assert f"• {human}: " in shown and f": {name}\n" not in f"{shown}\n"
    game = played(name)
    caption = sheets.table_caption(t, game.dealt, game.names, ())
    assert caption.splitlines()[0].startswith(f"{human} · ")
    assert score_sheet(t, game.over, game.names).note == game_won(t, rules)
    ended = endings.end_text(t, game.over.outcome, game.names, rules, game.over.tally)
    assert ended.splitlines()[-1] == game_won(t, rules) and ended.endswith(how_won(t, rules))


@CASES
def test_help_and_rules_list_every_game_and_how_it_is_won(name: str, language: str) -> None:
    t = texts_for(language)
    rules = PRESETS[name].rules
    assert str(rules.own.minutes if rules.format.timed else rules.goal) in how_won(t, rules)
    every = [
        t("game-line", name=preset_name(t, p), preset=p, won=how_won(t, preset.rules))
        for p, preset in PRESETS.items()
    ]
    for text in (games.help_group(t, 10), games.rules_text(t, rules, Seen.CHAT)):
        lines = text.splitlines()
        first = lines.index(t("games-title")) + 1
        assert lines[first : first + len(PRESETS)] == every


@CASES
def test_rules_show_no_file_and_no_players_without_a_game(name: str, language: str) -> None:
    t = texts_for(language)
    rules = PRESETS[name].rules
    seats_line = t("rules-seats", players=rules.players, hand=rules.hand)
    for seen in Seen:
        text = games.rules_text(t, rules, seen)
        assert ".md" not in text and "docs/" not in text
        assert (seats_line in text.splitlines()) is (seen is Seen.GAME)
        assert t("rules-won", won=how_won(t, rules)) in text.splitlines()


@CASES
def test_the_lobby_offers_a_short_game_that_reads_well(name: str, language: str) -> None:
    t = texts_for(language)
    rules = PRESETS[name].rules
    key, values = option_choices(rules)[0]
    assert key == rules.format.length.value
    if rules.format.timed:
        short = ["10"]
    else:
        short = [v for v in values if v != "0" and 0.4 <= int(v) / rules.goal <= 0.6]
    assert short and short[0] in values
    for value in values:
        label = option_label(t, key, value, rules)
        assert "=" not in label and (value in label or value == "0"), label
    assert rules.format.lengths == tuple(sorted(rules.format.lengths))  # the short one first


def _check_points(t: Texts, game: Played, round_text: str, end: str) -> None:
    rules = game.over.rules
    assert any(game.over.tally.scores)
    assert t("round-sheet-points", goal=rules.goal) in round_text.splitlines()


def _check_race(t: Texts, game: Played, round_text: str, end: str) -> None:
    rules, outcome = game.over.rules, game.over.outcome
    assert outcome is not None and outcome.places[0].score >= rules.goal > 0
    assert t("round-sheet-race", goal=rules.goal) in round_text.splitlines()
    assert f" — {outcome.places[0].score}" in end and str(rules.goal) in end


def _check_out(t: Texts, game: Played, round_text: str, end: str) -> None:
    rules, ended = game.over.rules, game.over.last_round
    assert ended is not None and ended.out
    assert f"{sheet_kinds.OUT_MARK} " in round_text
    assert t("round-sheet-out", goal=rules.goal) in round_text.splitlines()
    assert end.count(sheet_kinds.OUT_MARK) == rules.sides - 1 and str(rules.goal) in end


def _check_places(t: Texts, game: Played, round_text: str, end: str) -> None:
    rules, ended = game.over.rules, game.over.last_round
    assert ended is not None and ended.order
    assert any(line.startswith(t("round-places", places="")) for line in round_text.splitlines())
    assert t("round-sheet-places", goal=rules.goal) in round_text.splitlines()
    assert str(rules.goal) in end


def _check_generals(t: Texts, game: Played, round_text: str, end: str) -> None:
    state, outcome = game.over, game.over.outcome
    rules, tally = state.rules, state.tally
    assert outcome is not None and any(tally.scores) and all(tally.wins)
    for side in range(rules.sides):
        who = sheet_kinds.team(t, rules, game.names, side)
        standing = t(
            "general-standing", name=who, generals=tally.scores[side], wins=tally.wins[side]
        )
        assert standing in round_text.splitlines()
        place = next(p.place for p in outcome.places if p.side == side)
        line = t(
            "game-place-generals",
            place=place,
            name=who,
            generals=tally.scores[side],
            wins=tally.wins[side],
        )
        assert line in end.splitlines()
    assert str(rules.own.minutes) in end


CHECKS = {
    Sheet.POINTS: _check_points,
    Sheet.RACE: _check_race,
    Sheet.OUT: _check_out,
    Sheet.PLACES: _check_places,
    Sheet.GENERALS: _check_generals,
}


@CASES
def test_the_sheet_and_the_end_show_what_decides_the_game(name: str, language: str) -> None:
    t = texts_for(language)
    game = played(name)
    state, rules = game.over, game.over.rules
    assert state.last_round is not None and state.outcome is not None
    round_text = sheets.round_result(t, state.last_round, rules, game.names, state)
    end = endings.end_text(t, state.outcome, game.names, rules, state.tally)
    CHECKS[rules.format.sheet](t, game, round_text, end)
    assert end in endings.score_text(t, state, game.names)
    sheet = score_sheet(t, state, game.names)
    assert sheet.kind is SheetKind(rules.format.sheet)
    assert any(row.total for row in sheet.rows)
    if sheet.kind is SheetKind.GENERALS:
        assert all(row.wins for row in sheet.rows)
    if sheet.kind is SheetKind.PLACES:
        assert sheet.limit == rules.goal and any(row.place for row in sheet.rows)
    if sheet.kind is SheetKind.OUT:
        assert any(row.out for row in sheet.rows)


@CASES
def test_no_bazaar_is_named_where_the_game_has_none(name: str, language: str) -> None:
    t = texts_for(language)
    game = played(name)
    rules = game.dealt.rules
    word = t("picture-bazaar")
    scene = table_scene(t, game.dealt, game.names)
    caption = sheets.table_caption(t, game.dealt, game.names, ())
    if rules.draw is DrawMode.NONE:
        assert scene.bazaar is None and word not in scene.bazaar_label
        assert word not in caption.lower()
        ended = game.over.last_round
        assert ended is not None
        assert word not in sheets.round_result(t, ended, rules, game.names, game.over).lower()
    else:
        assert scene.bazaar == len(game.dealt.bazaar) and scene.bazaar_label == word
        assert f"{word}: {len(game.dealt.bazaar)}" in caption


@CASES
def test_stats_keep_the_games_apart(name: str, language: str) -> None:
    t = texts_for(language)
    numbers = _stats(name)
    shown = texts.stats(t, "Маша", None, numbers).splitlines()
    assert t("stats-by-game") in shown
    lines = [line for line in shown if line.startswith("• ")]
    assert [line.split(":")[0] for line in lines] == [
        f"• {preset_name(t, p.preset)}" for p in numbers.presets
    ]
    figure = {
        Sheet.POINTS: "10.0",
        Sheet.RACE: "10.0",
        Sheet.OUT: "10.0",
        Sheet.PLACES: " 2",  # in the top three
        Sheet.GENERALS: " 30",  # Generals made
    }[PRESETS[name].rules.format.sheet]
    assert figure in lines[0]
    assert "25.0" in lines[1] and "25.0" not in lines[0]  # never one mean of both
