"""Seeded randomness of our own: the same seed deals the same tiles on any Python version.

A round's deal is a Fisher–Yates shuffle driven by a 512-bit BLAKE2b digest of the game
seed, the round number and the attempt, so replays never depend on `random`'s internals.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import TypeVar

T = TypeVar("T")


def _bits(key: str) -> int:
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=64).digest(), "big")


def shuffled(items: Iterable[T], key: str) -> list[T]:
    """`items` in the order the digest of `key` picks (uniform up to 2⁻⁴⁸ for 91 items)."""
    deck = list(items)
    r = _bits(key)
    for i in range(len(deck) - 1, 0, -1):
        r, j = divmod(r, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def below(n: int, key: str) -> int:
    """A number in `range(n)` picked by the digest of `key`."""
    return _bits(key) % n
