"""What a send or edit carries about how it waits for its places: a lane's `Ticket` (its
chat's place and its turn in the bot, taken before its job runs) and whether it was asked
for at leisure (`at_leisure`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from bot.telegram.gates import Gate


@dataclass(slots=True)
class Ticket:
    """A lane's job in progress: its chat's place and its turn in the bot, taken before
    the job (so that it draws the newest state) and used by its first send or edit (the
    place given back when it sends none), and whether it is urgent."""

    chat: int
    gate: Gate | None
    urgent: Callable[[], bool]
    held: bool = True
    turn: bool = True

    def give_back(self) -> None:
        if self.held and self.gate is not None:
            self.gate.give_back()
        self.held = False


current_ticket: ContextVar[Ticket | None] = ContextVar("outbox_ticket", default=None)
leisurely: ContextVar[bool] = ContextVar("leisurely", default=False)


@contextmanager
def at_leisure() -> Iterator[None]:
    """The sends inside are what a person asked for at leisure (a replay, a review): in
    the bot as a whole they wait behind the urgent ones (a turn's hand, results, replies),
    however long it takes, and are never skipped."""
    token = leisurely.set(True)
    try:
        yield
    finally:
        leisurely.reset(token)
