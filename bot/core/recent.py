"""`Recent`: a dictionary that keeps only its most recently used entries."""

from __future__ import annotations

from collections import OrderedDict
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Recent(OrderedDict[K, V]):
    """At most `size` entries; reading or writing one makes it the newest, and a write
    past `size` forgets the least recently used (a cache of what is stored elsewhere)."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def __getitem__(self, key: K) -> V:
        value = super().__getitem__(key)
        self.move_to_end(key)
        return value

    def __setitem__(self, key: K, value: V) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        if len(self) > self.size:
            self.popitem(last=False)
