"""An option a game does not play is answered in the reader's language naming the game and
what it plays; a bad option lists that game's options, not every game's."""

from __future__ import annotations

import pytest

from bot.core.errors import RulesError
from bot.game.formats import FORMATS, Format
from bot.game.rules import RuleError
from bot.game.typed import parse_rules, played
from bot.game.values import show_value
from bot.ui import texts
from bot.ui.i18n import LANGUAGES, texts_for
from tests.game.test_rules_played import IDS, unplayed

CASES = [(f, language) for f in FORMATS.values() for language in LANGUAGES]
CASE_IDS = [f"{i}-{language}" for i in IDS for language in LANGUAGES]


def answer(language: str, typed: str) -> str:
    with pytest.raises(RuleError) as error:
        parse_rules(typed)
    return texts.refusal(texts_for(language), RulesError(error.value))


@pytest.mark.parametrize(("fmt", "language"), CASES, ids=CASE_IDS)
def test_an_option_the_game_does_not_play_names_the_game(fmt: Format, language: str) -> None:
    t = texts_for(language)
    typed = unplayed(fmt)
    key, _, value = typed.partition("=")
    game = t(f"preset-name-{fmt.id}")
    said = answer(language, f"{fmt.id} {typed}")
    if key in fmt.fixed:
        only = ", ".join(map(show_value, fmt.fixed[key]))
        assert said == t("rule-error-not-played", game=game, key=key, value=value, valid=only)
    else:
        text = t("rule-error-not-its", game=game, key=key)
        options = ", ".join(played(fmt))
        assert said == t("rule-error-options", text=text, game=game, options=options)


@pytest.mark.parametrize(("fmt", "language"), CASES, ids=CASE_IDS)
def test_a_bad_option_lists_the_games_own_options(fmt: Format, language: str) -> None:
    t = texts_for(language)
    game = t(f"preset-name-{fmt.id}")
    said = answer(language, f"{fmt.id} colour=red")
    text = t("rule-error-key", key="colour")
    assert said == t("rule-error-options", text=text, game=game, options=", ".join(played(fmt)))
    assert len(played(fmt)) < 28
