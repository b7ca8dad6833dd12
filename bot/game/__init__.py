"""The rules engine: pure, deterministic from a seed, no I/O and no clock.

state, events = new_game(parse_rules("goat"), ["ann", "bob", "cat"], seed=7)
moves = legal_moves(state)
state, events = apply(state, moves[0])
"""

from bot.game.engine import (
    IllegalMoveError,
    abandon,
    apply,
    leave,
    legal_moves,
    new_game,
    next_round,
)
from bot.game.moves import Draw, Move, Pass, Play, PlayDoubles
from bot.game.rules import PRESETS, RuleError, RuleSet
from bot.game.state import GameState, Phase
from bot.game.typed import parse_rules
from bot.game.view import SeatView, seat_view

__all__ = [
    "PRESETS",
    "Draw",
    "GameState",
    "IllegalMoveError",
    "Move",
    "Pass",
    "Phase",
    "Play",
    "PlayDoubles",
    "RuleError",
    "RuleSet",
    "SeatView",
    "abandon",
    "apply",
    "leave",
    "legal_moves",
    "new_game",
    "next_round",
    "parse_rules",
    "seat_view",
]
