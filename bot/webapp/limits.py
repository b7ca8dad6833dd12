"""Presses per person: a token bucket each — five a second, the excess refused."""

from __future__ import annotations

from collections.abc import Callable

PRESSES_PER_SECOND = 5.0
KEPT = 10_000  # buckets kept at most; past that the full ones (nobody pressing) are dropped


class Presses:
    """Allows each person `rate` presses a second, `rate` at once."""

    def __init__(self, clock: Callable[[], float], rate: float = PRESSES_PER_SECOND) -> None:
        self.clock = clock
        self.rate = rate
        self._buckets: dict[int, tuple[float, float]] = {}  # person → (tokens, when)

    def allow(self, user_id: int) -> bool:
        """Whether the person may press now (a press allowed is counted)."""
        now = self.clock()
        tokens, when = self._buckets.get(user_id, (self.rate, now))
        tokens = min(self.rate, tokens + (now - when) * self.rate)
        if tokens < 1:
            self._buckets[user_id] = (tokens, now)
            return False
        if len(self._buckets) >= KEPT:
            self._forget_idle(now)
        self._buckets[user_id] = (tokens - 1, now)
        return True

    def _forget_idle(self, now: float) -> None:
        idle = [
            user
            for user, (tokens, when) in self._buckets.items()
            if tokens + (now - when) * self.rate >= self.rate
        ]
        for user in idle:
            del self._buckets[user]
