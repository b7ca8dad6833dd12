"""The translation catalogs: the same keys and placeholders in every language, every key the
code names exists, and no user-visible Russian or English text is left in the code."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from fluent.syntax import FluentParser
from fluent.syntax import ast as fluent
from fluent.syntax.serializer import FluentSerializer
from fluent.syntax.visitor import Visitor

from bot.ai import Level
from bot.game.events import EndReason
from bot.game.formats import FORMATS, Sheet
from bot.game.rules import PRESETS
from bot.game.state import Phase
from bot.ui import commands, texts
from bot.ui.games import Seen
from bot.ui.i18n import DEFAULT, LANGUAGES, catalog, language_of, texts_for
from bot.ui.scenes import SHEET_WORDS

ROOT = Path(__file__).resolve().parents[2]
CYRILLIC = re.compile("[\u0400-\u04ff]")


class _Placeholders(Visitor):
    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_VariableReference(self, node: fluent.VariableReference) -> None:  # noqa: N802
        self.names.add(node.id.name)


def entries(language: str) -> dict[str, fluent.Message]:
    """Every message of a catalog by key."""
    resource = FluentParser().parse(catalog(language))
    junk = [entry for entry in resource.body if isinstance(entry, fluent.Junk)]
    assert not junk, f"{language}: unparsable {[j.content for j in junk]}"
    return {e.id.name: e for e in resource.body if isinstance(e, fluent.Message)}


def messages(language: str) -> dict[str, set[str]]:
    """Every message of a catalog and the placeholders it uses."""
    found = {}
    for key, entry in entries(language).items():
        visitor = _Placeholders()
        visitor.visit(entry)
        found[key] = visitor.names
    return found


def test_every_language_has_the_same_keys_and_placeholders() -> None:
    reference = messages(DEFAULT)
    assert len(reference) > 100
    for language in LANGUAGES:
        other = messages(language)
        assert set(other) == set(reference), (
            language,
            set(reference) ^ set(other),
        )
        differing = {k for k in reference if other[k] != reference[k]}
        assert not differing, {k: (reference[k], other[k]) for k in differing}


def test_english_has_no_russian_and_russian_uses_the_seeds_words() -> None:
    english = texts_for("en")
    source = FluentSerializer()
    leaks = {k for k, e in entries("en").items() if CYRILLIC.search(source.serialize_entry(e))}
    # «Козёл» is the game's name, quoted once in the English help
    assert leaks == {"help-private"}, leaks
    russian = catalog("ru")
    for word in ("базар", "рыба", "козёл", "запомненные"):
        assert word in russian
    assert english("sheet-goat") == "goat"


def _keys_named_in(source: str) -> set[str]:
    """Catalog keys in the code: `t("key"`, `GameError("key"`, `close_…(game, "key"`."""
    calls = re.findall(r'\b(?:t|GameError|RulesError)\(\s*"([a-z0-9_-]+)"', source)
    closes = re.findall(r'\.close\(\s*\w+,\s*"([a-z0-9_-]+)"', source)
    return set(calls) | set(closes)


def test_every_key_the_code_names_exists() -> None:
    known = set(messages(DEFAULT))
    named: set[str] = set()
    for path in (ROOT / "bot").rglob("*.py"):
        named |= _keys_named_in(path.read_text("utf-8"))
    assert len(named) > 80
    assert named <= known, named - known
    engine = (ROOT / "bot" / "game" / "engine.py").read_text("utf-8")
    reasons = set(re.findall(r'IllegalMoveError\(\s*"(\w+)"', engine)) | {
        p.value for p in Phase if p is not Phase.PLAYING
    }
    dynamic = (
        {f"illegal-{reason}" for reason in reasons}
        | {f"preset-{name}" for name in PRESETS}
        | {f"computer-{level}" for level in Level}
        | {f"preset-name-{name}" for name in PRESETS}
        | {f"rules-{name}" for name in PRESETS}
        | {f"table-ended-{reason}" for reason in (EndReason.CANCELLED, EndReason.ENDED)}
        | {f"sheet-{word}" for word in SHEET_WORDS}
        | {f"command-{name}" for name in commands.GROUP_COMMANDS}
        | set(commands.PRIVATE_COMMANDS.values())
        | {f"won-{scoring}" for scoring in FORMATS}
        | {f"rules-for-{seen}" for seen in Seen}
        | {f"stats-line-{sheet}" for sheet in Sheet}
        | {f"round-sheet-{sheet}" for sheet in Sheet if sheet is not Sheet.GENERALS}
        | {
            f"option-{name}-{value}"
            for f in FORMATS.values()
            for name, vs in f.choices
            for value in vs
        }
    )
    assert dynamic <= known, dynamic - known


def _literals(tree: ast.AST) -> list[str]:
    """String constants that are not docstrings."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


@pytest.mark.parametrize(
    "folder",
    [
        "bot",
        "bot/core",
        "bot/ui",
        "bot/ui/sheet_kinds",
        "bot/telegram",
        "bot/telegram/handlers",
        "bot/telegram/messenger",
        "render",
    ],
)
def test_no_russian_text_is_left_in_the_code(folder: str) -> None:
    """Words for players live in the catalogs (the engine's «да»/«нет» option values and the
    renderer's sample scenes are input and test data, not texts)."""
    for path in sorted((ROOT / folder).glob("*.py")):
        if path.name == "samples.py":
            continue
        russian = [s for s in _literals(ast.parse(path.read_text("utf-8"))) if CYRILLIC.search(s)]
        assert not russian, (path.name, russian)


@pytest.mark.parametrize(
    ("chosen", "telegram", "language"),
    [
        ("en", "ru", "en"),
        (None, "en-GB", "en"),
        (None, "uk", "ru"),
        (None, "de", "en"),
        (None, None, "ru"),
        ("xx", None, "ru"),
    ],
)
def test_the_private_language_follows_the_choice_then_telegram(
    chosen: str | None, telegram: str | None, language: str
) -> None:
    assert language_of(chosen, telegram) == language


def test_numbers_are_shown_as_typed_and_names_without_isolation_marks() -> None:
    for language in LANGUAGES:
        line = texts_for(language)(
            "rating-row",
            rank=1,
            name="Маша",
            rating="1040",
            provisional="",
            games=1200,
            wins=3,
            goats=0,
            points=35,
        )
        assert "1200" in line and "1040" in line and "\u2068" not in line


BAD_RULES = [
    "goat target=abc",
    "goat target=-5",
    "goat players=9",
    "sea_goat players=3",
    "goat teams=maybe",
    "goat first_lead=whoever",
    "goat colour=red",
    "chess",
    "classic record_min=30",
    "general players=5",
    "room max_pip=7",
    "goat hand_size=20",
    "goat keep=99",
    "classic target=0",
    "bykovo teams=yes",
    "general teams=no",
    "goat turn_timeout=x",
]
"""`/newgame` texts the rules refuse, each for another reason."""


def option_words() -> set[str]:
    """The Latin words a refusal may quote: option names, presets and option values."""
    from enum import Enum

    from bot.game.rules import RuleSet
    from bot.game.typed import ALIASES, PRESET_ALIASES

    words = {*ALIASES, *PRESET_ALIASES, *PRESETS, "yes", "no"}
    for name, value in RuleSet().options().items():
        words.add(name)
        if isinstance(value, Enum):
            words.update(str(member.value) for member in type(value))
    return words


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_refused_rule_is_worded_in_the_readers_language(language: str) -> None:
    """A refusal's words are the catalog's, in the reader's language; the only Latin words
    in a Russian one are what a user types (option names, presets, values)."""
    from bot.core.errors import RulesError
    from bot.game.rules import RuleError
    from bot.game.typed import parse_rules

    t = texts_for(language)
    allowed = option_words() | {word.split("=")[0] for word in " ".join(BAD_RULES).split()}
    allowed |= {word.split("=")[-1] for word in " ".join(BAD_RULES).split()}
    for text in BAD_RULES:
        with pytest.raises(RuleError) as refused:
            parse_rules(text)
        answer = texts.refusal(t, RulesError(refused.value))
        if language == "ru":
            latin = set(re.findall(r"[A-Za-z_]+", answer)) - allowed
            assert not latin, (text, answer)
        else:
            assert not CYRILLIC.search(answer), (text, answer)
