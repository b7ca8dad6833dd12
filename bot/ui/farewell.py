"""The last word of a finished game's private hand: the game, the reader's place among the
sides and their score as the game's sheet counts it (a goat said so; «Генерал» counts
Generals)."""

from __future__ import annotations

from bot.game.state import GameState
from bot.ui.games import preset_name
from bot.ui.i18n import Texts
from bot.ui.sheet_kinds import sheet_of

PLAIN = "game-over-private"
"""Without a result to tell (the game has none, or the seat is not placed)."""


def farewell(t: Texts, state: GameState | None, seat: int) -> str:
    """«Игра окончена — Козёл: вы на 2-м месте из 4, 37 очков. Спасибо за игру!»"""
    ended = state.outcome if state is not None else None
    place = next((p for p in ended.places if p.seat == seat), None) if ended else None
    if state is None or ended is None or place is None:
        return t(PLAIN)
    game = preset_name(t, state.rules.preset)
    total = len({p.side for p in ended.places})
    return sheet_of(state.rules).farewell(t, game, place, total)
