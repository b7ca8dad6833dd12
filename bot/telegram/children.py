"""The bot's child processes (a replay's drawer, the reviewer): one worker each, spawned,
at a low priority (`NICE`), and ending with the bot however the bot ends (SIGKILL, the OOM
killer). This module imports nothing heavy: a child unpickles `_as_child` first, so it
is the bot's child for good a moment after it starts, not after aiogram's import."""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
from concurrent.futures import ProcessPoolExecutor

NICE = 10
"""A child's niceness: the bot's own process gets some nine tenths of a CPU they share.
Not 19: on a machine whose CPUs are all busy a process at 19 gets next to nothing (a
second of CPU took minutes), and a replay asked for would never come."""
PR_SET_PDEATHSIG = 1
"""Linux's prctl(2) option: the signal a process gets when its parent ends."""


def child_process() -> ProcessPoolExecutor:
    """A process of one worker. Its first task starts it from the calling thread, which
    must last as long as the bot (the parent death signal follows the thread that started
    a process): the event loop's."""
    spawn = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(1, spawn, initializer=_as_child, initargs=(os.getpid(),))


def _as_child(parent: int) -> None:
    """A child's start: Linux kills it when its parent is gone; it yields the CPU to the
    bot's own. Multiprocessing's resource tracker needs nothing of this: it ends once the
    last holder of its pipe (the bot, these children) has."""
    if sys.platform == "linux":
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
            print(f"no parent death signal: {os.strerror(ctypes.get_errno())}", file=sys.stderr)
    if os.getppid() != parent:  # the bot ended before the signal was asked for
        os._exit(1)
    os.nice(NICE)
