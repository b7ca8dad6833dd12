"""The kinds of score sheet: one class each in `bot.ui.sheet_kinds`, one line mapping the
format's `Sheet` to it; every format's sheet resolves, and every text a kind names exists
in both languages."""

from __future__ import annotations

import pytest

from bot.game.formats import FORMATS, Sheet
from bot.game.rules import PRESETS
from bot.ui.i18n import LANGUAGES, texts_for
from bot.ui.sheet_kinds import SHEETS, WAITING, PointsSheet, sheet_of
from render import SheetKind

WORDS = ("fish", "won", "left", "hand_out", "hand_waiting")
"""The catalog keys a kind of sheet names."""


def test_every_sheet_has_its_own_class() -> None:
    assert set(SHEETS) == set(Sheet)
    classes = [type(kind) for kind in SHEETS.values()]
    assert len(set(classes)) == len(classes)
    assert all(isinstance(kind, PointsSheet) for kind in SHEETS.values())
    assert type(SHEETS[Sheet.POINTS]) is PointsSheet  # the base is the points sheet


@pytest.mark.parametrize("sheet", list(Sheet))
def test_a_kind_draws_its_own_picture(sheet: Sheet) -> None:
    assert SHEETS[sheet].kind is SheetKind(sheet.value)


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_format_and_preset_resolves_to_its_kind(name: str) -> None:
    rules = PRESETS[name].rules
    assert sheet_of(rules) is SHEETS[rules.format.sheet]
    assert rules.format in FORMATS.values()


def test_only_the_sheets_that_differ_change_a_word() -> None:
    base = SHEETS[Sheet.POINTS]
    changed = {
        sheet: {word for word in WORDS if getattr(kind, word) != getattr(base, word)}
        for sheet, kind in SHEETS.items()
    }
    assert changed == {
        Sheet.POINTS: set(),
        Sheet.RACE: {"won", "left"},
        Sheet.OUT: set(),
        Sheet.PLACES: {"fish", "hand_out"},
        Sheet.GENERALS: {"hand_waiting"},
    }
    assert {"hand-resting", "hand-queued"} == WAITING


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_word_a_kind_names_is_in_the_catalog(language: str) -> None:
    t = texts_for(language)
    missing = {
        (sheet, getattr(kind, word))
        for sheet, kind in SHEETS.items()
        for word in WORDS
        if not t.has(getattr(kind, word))
    }
    assert not missing
