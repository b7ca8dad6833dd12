"""A look inside the bot process for bench/soak.py, loaded by Python's `site` at start-up
because the benchmark puts this folder on the bot's PYTHONPATH. It does nothing unless
SOAK_PROBE_FILE is set; then, on SIGUSR1, it writes one JSON line to that file:

- `types`: live objects per type (after a full `gc.collect()`), the 400 commonest;
- `containers`: for every live instance of a class from the bot's own modules (`bot.*`),
  the length of each dict, list, set, deque or weak dictionary among its attributes, keyed
  `module.Class.attribute` (summed over instances), so a growing cache shows by name;
  and the same for containers and functools caches held in globals of the bot's, aiogram's
  and the renderer's modules;
- `tasks`, `threads`, `blocks` (`sys.getallocatedblocks()`), `gc_counts`;
- `malloc`: glibc's own count of what is in use and what is freed but still held (RSS can
  grow by fragmentation alone), and `image_mb`, the pixels of live PIL images.

The benchmark diffs two such lines. Nothing here changes the bot's behaviour: the signal
handler only reads (and collects garbage, which Python does by itself anyway).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import ctypes
import gc
import json
import os
import signal
import sys
import threading
import time
import weakref
from typing import Any

SIZED = (
    dict,
    list,
    set,
    frozenset,
    collections.deque,
    weakref.WeakValueDictionary,
    weakref.WeakKeyDictionary,
    weakref.WeakSet,
)


def containers(objects: list[object]) -> dict[str, int]:
    """`module.Class.attribute` → summed length, for the bot's own objects."""
    found: collections.Counter[str] = collections.Counter()
    for obj in objects:
        kind = type(obj)
        module = kind.__dict__.get("__module__")  # a class attribute, never a descriptor
        if not isinstance(module, str) or not module.startswith("bot."):
            continue
        try:
            attributes = dict(vars(obj))
        except TypeError:  # slots
            names = [n for c in kind.__mro__ for n in c.__dict__.get("__slots__", ())]
            attributes = {n: getattr(obj, n, None) for n in names if isinstance(n, str)}
        for name, value in attributes.items():
            if isinstance(value, SIZED):
                with contextlib.suppress(TypeError):
                    found[f"{module}.{kind.__qualname__}.{name}"] += len(value)
    return dict(found)


def module_globals() -> dict[str, int]:
    """`module.name` → length of every container a module of the bot (or aiogram) holds in a
    global, and the current size of its functools caches."""
    found: dict[str, int] = {}
    for module_name, module in list(sys.modules.items()):
        if not module_name.startswith(("bot.", "aiogram", "render")) or module is None:
            continue
        for name, value in list(vars(module).items()):
            if name.startswith("__"):
                continue
            if isinstance(value, SIZED):
                with contextlib.suppress(TypeError):
                    found[f"{module_name}.{name}"] = len(value)
            info = getattr(value, "cache_info", None)
            if callable(info):
                with contextlib.suppress(Exception):
                    found[f"{module_name}.{name}()"] = int(info().currsize)
    return found


class _MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
            "uordblks", "fordblks", "keepcost",
        )
    ]  # fmt: skip


def malloc_stats() -> dict[str, float] | None:
    """glibc's `mallinfo2()` over all arenas, in MB: `in_use` (allocated by malloc and not
    freed), `free` (freed but kept inside the heap: fragmentation), `mmapped` (big blocks
    of their own), `arena` (the heaps' size); None where it is not glibc ≥ 2.33."""
    try:
        libc = ctypes.CDLL(None)
        call = libc.mallinfo2
    except (OSError, AttributeError):
        return None
    call.restype = _MallInfo2
    info = call()
    mb = 1024 * 1024
    return {
        "arena": round(info.arena / mb, 1),
        "in_use": round(info.uordblks / mb, 1),
        "free": round(info.fordblks / mb, 1),
        "mmapped": round(info.hblkhd / mb, 1),
    }


def image_bytes(objects: list[object]) -> float | None:
    """MB of pixels held by live PIL images (width × height × bytes per pixel)."""
    image_module = sys.modules.get("PIL.Image")
    if image_module is None:
        return None
    kind = image_module.Image
    total = 0
    for obj in objects:
        if isinstance(obj, kind):
            with contextlib.suppress(Exception):
                width, height = obj.size
                total += width * height * len(obj.getbands())
    return round(total / 1024 / 1024, 1)


def running_tasks() -> int | None:
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    return len(asyncio.all_tasks(loop))


def probe(path: str) -> None:
    """Write one line; a failure is written instead of raised (it would stop the bot)."""
    try:
        line = look()
    except Exception as error:
        line = {"error": f"{type(error).__name__}: {error}"}
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps(line) + "\n")


def look() -> dict[str, Any]:
    started = time.perf_counter()
    gc.collect()
    objects = gc.get_objects()
    counts = collections.Counter(type(o).__qualname__ for o in objects)
    line: dict[str, Any] = {
        "at": time.time(),
        "objects": len(objects),
        "types": dict(counts.most_common(400)),
        "containers": containers(objects) | module_globals(),
        "tasks": running_tasks(),
        "threads": threading.active_count(),
        "blocks": sys.getallocatedblocks(),
        "gc_counts": gc.get_count(),
        "malloc": malloc_stats(),
        "image_mb": image_bytes(objects),
    }
    del objects
    line["probe_seconds"] = round(time.perf_counter() - started, 3)
    return line


def _install() -> None:
    path = os.environ.get("SOAK_PROBE_FILE")
    if path:
        signal.signal(signal.SIGUSR1, lambda signum, frame: probe(path))


_install()
