"""What a player's hand message should show next, as it waits in the outbox."""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.game.state import GameState


@dataclass(frozen=True, slots=True)
class HandNews:
    """What a player's hand message should show: their hand at `version`, or (`closing`)
    a last text without buttons. A waiting one takes the newer state, keeps the tiles drawn
    in the same round, and a fresh message (their turn: it notifies) stays fresh, as does
    one sent `below` something else in the private chat (quietly, unless also fresh)."""

    state: GameState | None
    version: int
    drawn: tuple[int, ...] = ()
    fresh: bool = False
    closing: str | None = None
    below: bool = False

    def then(self, newer: HandNews) -> HandNews:
        if newer.closing is not None or self.state is None or newer.state is None:
            return newer
        below = self.below or newer.below
        if newer.version < self.version:  # another worker's older news, told late
            return replace(self, below=below)
        same_round = self.state.round_no == newer.state.round_no
        drawn = self.drawn + newer.drawn if same_round else newer.drawn
        fresh = self.fresh or newer.fresh
        return HandNews(newer.state, newer.version, drawn, fresh, below=below)
