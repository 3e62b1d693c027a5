"""Per-file serialisation of mutating tools (pi-reference §3.13, pi's ``withFileMutationQueue``).

``edit`` and ``write`` on the same real path run one after another (in call order); different files run
in parallel. The key is the ``realpath`` of the file (the absolute path when it does not exist yet), so
two spellings of one file (symlink, ``./x`` vs ``x``) share a queue. Locks are dropped once idle.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

_locks: dict[str, tuple[asyncio.Lock, int]] = {}


def mutation_queue_key(file_path: str) -> str:
    """The queue key of ``file_path``: its real path, or its absolute path if that cannot be resolved."""
    absolute = os.path.abspath(file_path)
    try:
        return os.path.realpath(absolute, strict=True)
    except OSError:
        return absolute


async def with_file_mutation_queue(file_path: str, fn: Callable[[], Awaitable[T]]) -> T:
    """Run ``await fn()`` once every earlier queued mutation of the same file has finished.

    ``asyncio.Lock`` wakes waiters in FIFO order, which gives pi's call-order guarantee. Exceptions from
    ``fn`` propagate after the next waiter has been released.
    """
    key = mutation_queue_key(file_path)
    lock, users = _locks.get(key, (None, 0))
    if lock is None:
        lock = asyncio.Lock()
    _locks[key] = (lock, users + 1)
    try:
        async with lock:
            return await fn()
    finally:
        current_lock, count = _locks[key]
        if count <= 1:
            del _locks[key]
        else:
            _locks[key] = (current_lock, count - 1)
