"""Why a move is refused (`Illegal`), and the error that says so."""

from __future__ import annotations

from enum import StrEnum


class Illegal(StrEnum):
    """Why a move (or a step between rounds) is refused; the texts' `illegal-…` keys."""

    NOT_YOUR_TURN = "not_your_turn"
    ROUND_OVER = "round_over"
    GAME_OVER = "game_over"
    UNKNOWN_MOVE = "unknown_move"
    NOT_IN_HAND = "not_in_hand"
    CANNOT_CLOSE = "cannot_close"
    DOES_NOT_FIT = "does_not_fit"
    MUST_LEAD = "must_lead"
    BAD_END = "bad_end"
    NO_DOUBLES = "no_doubles"
    MUST_PLAY = "must_play"
    CANNOT_DRAW = "cannot_draw"
    NO_PASS = "no_pass"
    NO_REST = "no_rest"
    BAD_REST = "bad_rest"
    NO_DEAL = "no_deal"
    BAD_DEAL = "bad_deal"
    NOT_ROUND_OVER = "not_round_over"
    NO_TIME_UP = "no_time_up"
    LEFT = "left"
    OUT = "out"


class IllegalMoveError(ValueError):
    """The move is not allowed now (`reason`), the state is unchanged."""

    def __init__(self, reason: Illegal, message: str) -> None:
        super().__init__(message)
        self.reason = reason
