"""Flood control: Telegram's per-chat and global limits, answered with 429 `retry_after`."""

from __future__ import annotations

import math
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass

from bot.playground.api.errors import ApiError
from bot.playground.world.models import Chat

COUNTED = frozenset(
    {
        "sendmessage",
        "sendphoto",
        "sendanimation",
        "senddocument",
        "editmessagetext",
        "editmessagecaption",
        "editmessagemedia",
        "editmessagereplymarkup",
    }
)
"""The methods (lower case) the flood limits count: sends and edits."""


@dataclass(frozen=True)
class FloodEvent:
    """A 429 the fake answered: `chat_id` None for the global limit."""

    chat_id: int | None
    method: str
    retry_after: int
    at: float
    early: bool
    """True when the request came while an earlier ban was still running."""


@dataclass(frozen=True)
class FloodLimits:
    """Limits from the Bots FAQ (sends and edits count; deletes and answers do not)."""

    group_per_minute: int = 20
    private_per_second: float = 1.0
    private_burst: int = 3
    global_per_second: int = 30
    extend_on_early_retry: bool = True
    """A request during a ban restarts the ban ("retrying earlier extends the ban")."""


class FloodControl:
    """Counts writes per chat; `gate` and `take` raise 429 like Telegram."""

    def __init__(self, limits: FloodLimits, clock: Callable[[], float]) -> None:
        self.limits = limits
        self.clock = clock
        self.events: list[FloodEvent] = []
        self.early_by_chat: Counter[int | None] = Counter()
        self._bans: dict[int | None, tuple[float, int]] = {}  # until, the original retry_after
        self._group: dict[int, deque[float]] = {}
        self._private: dict[int, tuple[float, float]] = {}  # tokens, at
        self._global: deque[float] = deque()

    @property
    def early_retries(self) -> int:
        return sum(self.early_by_chat.values())

    def banned_until(self, chat_id: int) -> float:
        """When requests for `chat_id` are welcome again (0 when they are now)."""
        until = max(self._bans.get(chat_id, (0.0, 0))[0], self._bans.get(None, (0.0, 0))[0])
        return until if until > self.clock() else 0.0

    def gate(self, chat: Chat, method: str) -> None:
        """A request for `chat` while it (or the bot) is banned: 429 again, counted as early."""
        now = self.clock()
        for key in (chat.id, None):
            until, original = self._bans.get(key, (0.0, 0))
            if until > now:
                self.early_by_chat[key] += 1
                if self.limits.extend_on_early_retry:
                    until = max(until, now + original)
                    self._bans[key] = (until, original)
                raise self._refuse(key, method, until - now, early=True)

    def take(self, chat: Chat, method: str) -> None:
        """Count one send/edit for `chat`, or raise 429 when it is over a limit."""
        now = self.clock()
        window = self._global
        while window and window[0] <= now - 1.0:
            window.popleft()
        if len(window) >= self.limits.global_per_second:
            raise self._ban(None, method, window[0] + 1.0 - now)
        if chat.is_group:
            group = self._group.setdefault(chat.id, deque())
            while group and group[0] <= now - 60.0:
                group.popleft()
            if len(group) >= self.limits.group_per_minute:
                raise self._ban(chat.id, method, group[0] + 60.0 - now)
            group.append(now)
        else:
            tokens, at = self._private.get(chat.id, (float(self.limits.private_burst), now))
            rate = self.limits.private_per_second
            tokens = min(float(self.limits.private_burst), tokens + (now - at) * rate)
            if tokens < 1.0:
                raise self._ban(chat.id, method, (1.0 - tokens) / rate)
            self._private[chat.id] = (tokens - 1.0, now)
        window.append(now)

    def _ban(self, key: int | None, method: str, seconds: float) -> ApiError:
        retry_after = max(1, math.ceil(seconds))
        self._bans[key] = (self.clock() + retry_after, retry_after)
        return self._refuse(key, method, retry_after, early=False)

    def _refuse(self, key: int | None, method: str, seconds: float, *, early: bool) -> ApiError:
        retry_after = max(1, math.ceil(seconds))
        self.events.append(FloodEvent(key, method, retry_after, self.clock(), early))
        return ApiError(
            429,
            f"Too Many Requests: retry after {retry_after}",
            {"retry_after": retry_after},
        )
