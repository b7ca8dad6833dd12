"""What recent lines needed to fit, so that the next move's line starts its search there.

A line one tile longer than one laid out before needs no less: no larger unit, no fewer
growth steps, since the tiles it shares with the shorter line lie where they lay (adding a
tile never moves the others, `render.layout`). So a search may start from what the
shorter line needed and find the same answer with fewer tries. The pictures are drawn in
threads: the memory is locked.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from threading import Lock
from typing import TypeVar

from render.scene import Pips

Arms = tuple[tuple[Pips, ...], ...]
Line = tuple[Pips | None, Arms, Hashable]
"""The first tile, the arms and where they are laid out (bounds, tracks …)."""

T = TypeVar("T")


class NoFitError(Exception):
    """The chain does not fit the bounds at this unit."""


KEPT = 4096
"""How many lines are remembered: a few moves of every busy table."""


def line_of(first: Pips | None, arms: Sequence[Sequence[Pips]], where: Hashable) -> Line:
    return first, tuple(map(tuple, arms)), where


class Fitted:
    """A number each recent line needed (a unit, growth steps), the least recently used
    forgotten first."""

    def __init__(self, kept: int = KEPT) -> None:
        self._kept = kept
        self._needed: OrderedDict[Line, int] = OrderedDict()
        self._lock = Lock()

    def known(self, line: Line) -> int | None:
        """What `line` itself, or the line one tile shorter than it, needed, if either was
        laid out lately."""
        first, arms, where = line
        shorter = (
            (first, (*arms[:n], arm[:-1], *arms[n + 1 :]), where)
            for n, arm in enumerate(arms)
            if arm
        )
        with self._lock:
            for seen in (line, *shorter):
                needed = self._needed.get(seen)
                if needed is not None:
                    self._needed.move_to_end(seen)
                    return needed
        return None

    def keep(self, line: Line, needed: int) -> None:
        with self._lock:
            self._needed[line] = needed
            self._needed.move_to_end(line)
            if len(self._needed) > self._kept:
                self._needed.popitem(last=False)


def fewest(fit: Callable[[int], T], low: int, most: int) -> tuple[T, int]:
    """What `fit(n)` gives for the fewest `n` from `low` to `most` at which it does not raise
    `NoFitError` (`fit` must keep fitting at larger `n`), and that `n`: a shorter line's `n`
    is tried first; `NoFitError` if not even `most` fits."""
    try:
        return fit(low), low
    except NoFitError:
        found, high = fit(most), most
    low += 1
    while low < high:  # `found` fits at `high`; below `low` nothing does
        mid = (low + high) // 2
        try:
            found, high = fit(mid), mid
        except NoFitError:
            low = mid + 1
    return found, high
