"""Refusals: an action that was not allowed changed nothing and gets a short answer."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from bot.game.engine import IllegalMoveError
from bot.game.rules import RuleError


class GameError(Exception):
    """The action was refused and nothing changed. `key` names the short answer (a catalog
    text the Telegram side words in each reader's language), `values` fill it in."""

    def __init__(self, key: str, **values: str | int) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


class RulesError(GameError):
    """Rules that cannot be played: the engine's `RuleError`; `wrap` names a text around
    the reason."""

    def __init__(self, error: RuleError, wrap: str | None = None) -> None:
        super().__init__(wrap or error.key)
        self.error = error
        self.wrap = wrap


class NotOfferedError(GameError):
    """A lobby choice its rules do not offer (a forged or stale press)."""

    def __init__(self) -> None:
        super().__init__("unknown-button")


@contextmanager
def engine_refusals() -> Iterator[None]:
    """The engine's refusal of a move, as a short answer for the user."""
    try:
        yield
    except IllegalMoveError as error:
        raise GameError(f"illegal-{error.reason}") from None


class StaleVersionError(RuntimeError):
    """The game moved on since the caller read it (another writer came first)."""


class OvertakenError(GameError):
    """Another writer (another process on the same database) stored the turn first: the
    press is stale."""

    def __init__(self) -> None:
        super().__init__("stale")


@contextmanager
def first_writer_wins() -> Iterator[None]:
    """Storing a turn another writer has already moved past: `OvertakenError`."""
    try:
        yield
    except StaleVersionError:
        raise OvertakenError from None
