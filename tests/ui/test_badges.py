"""Badges in words and pictures: the one line a game's result gains stays within a photo
caption's limit in the longest case, and the /stats picture reads on a phone (the checks
the table pictures have: its text at least `MIN_TEXT` px tall on a `PHONE` px wide screen,
every badge's name whole, within Telegram's photo limits) in both languages."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.core.achievements import Achievement
from bot.core.achievements.kinds import Earned, Held
from bot.game.engine import apply, legal_moves, new_game, next_round
from bot.game.rules import RuleSet
from bot.game.state import GameState, Phase
from bot.game.typed import parse_rules
from bot.ui import badges
from bot.ui.endings import end_text
from bot.ui.i18n import LANGUAGES, texts_for
from bot.ui.texts import CAPTION
from render import text
from render.badges import NAME, NOTE, RULE_LINES, TEXT_WIDTH, name_line, render_badges
from render.table import MIN_TEXT, PHONE, WIDTH

LONGEST_NAME = "Ж" * 64 + " " + "Щ" * 64  # Telegram's first and last names at their longest


def a_finished_goat(players: int) -> tuple[GameState, RuleSet]:
    rules = parse_rules("goat", players=players)
    chooser = random.Random(5)
    state = new_game(rules, [str(s) for s in range(players)], 5)[0]
    while state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.ROUND_OVER:
            state = next_round(state)[0]
            continue
        moves = legal_moves(state)
        state = apply(state, moves[chooser.randrange(len(moves))])[0]
    return state, rules


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_result_line_fits_a_caption_in_the_longest_case(language: str) -> None:
    """Four people of the longest names, each earning every achievement at once."""
    t = texts_for(language)
    state, rules = a_finished_goat(4)
    names = [f"{LONGEST_NAME}{s}" for s in range(4)]
    assert state.outcome is not None
    said = end_text(t, state.outcome, names, rules, state.tally)
    every = tuple(Achievement)
    shown = badges.with_earned(t, said, [Earned(name, every) for name in names])
    assert len(shown) <= CAPTION
    line = shown.removeprefix(said + "\n")
    assert line != shown and line.startswith("🏅") and line.endswith("…")
    assert names[0][:20] in line
    short = badges.with_earned(t, "Конец.", [Earned("Маша", (Achievement.FIRST_WIN,))])
    first_win = badges.name(t, Achievement.FIRST_WIN)
    assert short.splitlines()[1] == t("badges-earned", list=f"Маша — {first_win}")


def test_nothing_earned_adds_nothing() -> None:
    t = texts_for("ru")
    assert badges.with_earned(t, "Конец.", []) == "Конец."
    assert badges.with_earned(t, "x" * CAPTION, [Earned("Маша", (Achievement.FISHERMAN,))]) == (
        "x" * CAPTION
    )  # no room left: the result stays as it was


def every_badge() -> list[Held]:
    return [Held(a, i % 4 + 1, i + 1, 20) for i, a in enumerate(Achievement)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_badges_picture_reads_on_a_phone(language: str) -> None:
    t = texts_for(language)
    board = badges.board(t, LONGEST_NAME, every_badge())
    picture = Image.open(io.BytesIO(render_badges(board)))
    assert picture.width == WIDTH
    assert WIDTH + picture.height <= 10_000 and picture.height <= 20 * WIDTH  # Telegram's
    assert min(NOTE, NAME) * PHONE / WIDTH >= MIN_TEXT
    for badge in board.badges:
        assert name_line(badge) == f"{badge.name} {badge.times}".strip()  # whole
        lines = text.wrap(badge.rule, NOTE, TEXT_WIDTH, RULE_LINES)
        assert "".join(lines).replace(" ", "") == badge.rule.replace(" ", "")  # whole
        assert text.width(badge.holders, NOTE) <= TEXT_WIDTH


def test_rare_badges_are_gold_and_common_ones_bronze() -> None:
    rare, common = (Held(Achievement.GENERAL, 1, n, 100) for n in (3, 80))
    assert badges.rarity(rare) < badges.rarity(common)
    t = texts_for("ru")
    caption = badges.caption(t, "Маша", [rare, Held(Achievement.FISHERMAN, 3, 80, 100)])
    assert caption == "🏅 Значки: Маша — Генерал, Рыбак ×3"


@pytest.mark.parametrize("language", LANGUAGES)
def test_stats_with_badges_fit_a_caption_the_badges_line_whole(language: str) -> None:
    t = texts_for(language)
    held = [Held(a, 2, 1, 20) for a in list(Achievement)[:3]]
    line = badges.caption(t, "Маша", held)
    assert badges.with_held(t, "Статистика", "Маша", held) == f"Статистика\n{line}"
    long = badges.with_held(t, "строка\n" * 400, "Маша", held)
    assert len(long) <= CAPTION and long.endswith(f"…\n{line}")
