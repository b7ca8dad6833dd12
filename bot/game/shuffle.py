"""Seeded randomness of our own: the same seed deals the same tiles on any Python version.

A round's deal is a Fisher–Yates shuffle driven by a 512-bit BLAKE2b digest of the game
seed, the round number and the attempt, so replays never depend on `random`'s internals.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import cache
from typing import TypeVar

T = TypeVar("T")
WORD = 1 << 62


def _bits(key: str) -> int:
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=64).digest(), "big")


def shuffled(items: Iterable[T], key: str) -> list[T]:
    """`items` in the order the digest of `key` picks (uniform up to 2⁻⁴⁸ for 91 items):
    swap the `i`th item (from the last down) with the one the next digit of the digest,
    written in the mixed radix `len`, `len - 1` … 2, names."""
    deck = list(items)
    r = _bits(key)
    for span, radices in _spans(len(deck)):
        r, digits = divmod(r, span)  # the next few digits at once: one big-number division
        for radix in radices:
            j = digits % radix  # a machine word's arithmetic, no tuple made
            digits //= radix
            last = radix - 1
            deck[last], deck[j] = deck[j], deck[last]
    return deck


@cache
def _spans(size: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The radices `size` … 2 in runs whose product stays a machine word, with that product."""
    spans: list[tuple[int, tuple[int, ...]]] = []
    span, radices = 1, list[int]()
    for radix in range(size, 1, -1):
        if span * radix >= WORD:
            spans.append((span, tuple(radices)))
            span, radices = 1, []
        span *= radix
        radices.append(radix)
    if radices:
        spans.append((span, tuple(radices)))
    return tuple(spans)


def below(n: int, key: str) -> int:
    """A number in `range(n)` picked by the digest of `key`."""
    return _bits(key) % n


LOTS_EDITION = 3
"""The rules edition from which lots are drawn from `lot_seed`'s digest of the seed."""


def lot_seed(seed: int, edition: int) -> int:
    """The number a game's lots (places and rests by lot) are drawn from. From edition 3 a
    digest of the seed, so a record can replay the lots without the seed, which would give
    away the deals; before, the seed itself. A seed below zero is a record's replay (its
    rounds are dealt from the record), whose lots come from `-seed`."""
    if seed < 0:
        return -seed
    if edition < LOTS_EDITION:
        return seed
    return _bits(f"{seed}:lots") >> (512 - 48)
