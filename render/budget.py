"""Caches of pictures bounded in bytes: a table 10 seats round a double-twelve line is some
840 × 1600 px, 5 MB as RGB, so a cache bounded only in entries could hold hundreds of MB."""

from __future__ import annotations

import ctypes
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import update_wrapper
from typing import Generic, ParamSpec

from PIL import Image

P = ParamSpec("P")


def image_bytes(image: Image.Image) -> int:
    """What Pillow holds for the pixels of `image`: 1 byte a pixel for L and P, else 4 (RGB
    is stored with a pad byte)."""
    return image.width * image.height * (1 if image.mode in {"1", "L", "P"} else 4)


class Bounded(Generic[P]):
    """`function` with its pictures kept, least recently used dropped first, while they
    take more than `budget` bytes (one bigger than the budget is drawn but never kept)."""

    def __init__(self, function: Callable[P, Image.Image], budget: int) -> None:
        self.function = function
        self.budget = budget
        self._kept: OrderedDict[Hashable, Image.Image] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()  # pictures are drawn in worker threads
        update_wrapper(self, function)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> Image.Image:
        key = (args, tuple(kwargs.items()))
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
                return found
        image = self.function(*args, **kwargs)  # drawn outside the lock: drawings overlap
        size = image_bytes(image)
        with self._lock:
            if key not in self._kept and size <= self.budget:
                self._kept[key] = image
                self._bytes += size
                while self._bytes > self.budget:
                    _, dropped = self._kept.popitem(last=False)
                    self._bytes -= image_bytes(dropped)
        return image

    @property
    def held(self) -> int:
        """Bytes of the pictures kept now."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._kept)

    def cache_clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self._bytes = 0


def bounded(budget: int) -> Callable[[Callable[P, Image.Image]], Bounded[P]]:
    """Decorate a function drawing a picture from hashable arguments: `Bounded`."""

    def wrap(function: Callable[P, Image.Image]) -> Bounded[P]:
        return Bounded(function, budget)

    return wrap


MB = 1024 * 1024
BIG_BLOCK = 256 * 1024
"""Blocks this big or bigger get pages of their own (`pictures_off_the_heap`)."""
_M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter


def pictures_off_the_heap() -> bool:
    """glibc: every block of `BIG_BLOCK` or more (a picture's pixels) in pages of its own,
    given back to the system when freed. By default glibc raises that threshold to the
    largest block freed so far (up to 32 MB), so a picture later goes in a heap of a
    drawing thread, which keeps the pages once it is freed (in bench/memory.py 174 MB
    after 22 games; drawing 4 room games in threads: 105 MB held with the threshold
    moving, 79 MB fixed). False where there is no glibc (nothing is changed)."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(_M_MMAP_THRESHOLD, BIG_BLOCK))
