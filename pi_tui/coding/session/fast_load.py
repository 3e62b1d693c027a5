"""One pass over a clean session file: each line read and parsed once, straight into its entry (issue 15).

:func:`stream_clean_file` reads a session file line by line (a binary file iterates on ``\\n`` only, like
:func:`~pi_tui.coding.session.session_file.read_session_file`), so the file is never held as one string (pi fix
0.78.1) and each line's JSON object becomes its entry at once and is dropped (the objects of a 10,000-message
file were all alive at the same time, 30 MB). It gives up (returns ``None``) at the first thing only the full
reader handles: a byte-order mark, a blank or invalid first line, a header that is not the current version (it
needs migrating), NUL bytes, a line that is not complete JSON (torn, glued, broken by raw newlines). The caller
then reads the file with the full reader, whose rules (recovery, migration, warnings) are unchanged; only a
damaged or old file is read a second time.

:func:`paused_gc` stops the cyclic garbage collector while a file is turned into objects: allocating the
~300,000 containers of a 10,000-message session set off hundreds of collections that re-scanned the growing
heap (half of the load time, measured: 1.13 s with, 0.60 s without). Nothing loaded is a cycle that must be
collected meanwhile; the collector runs again afterwards.
"""

from __future__ import annotations

import gc
import json
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from pi_tui.coding.session.entries import CURRENT_SESSION_VERSION, SessionHeader

_UNCLEAN_STARTS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")  # UTF-8 / UTF-16 byte-order marks

_pause_lock = threading.Lock()
_pauses = 0
_was_enabled = False


@contextmanager
def paused_gc() -> Iterator[None]:
    """Run the block with the cyclic garbage collector off (re-entrant and thread-safe: it is on again when
    the last pause ends, if it was on before the first)."""
    global _pauses, _was_enabled
    with _pause_lock:
        if _pauses == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _pause_lock:
            _pauses -= 1
            if _pauses == 0 and _was_enabled:
                gc.enable()


def _loads(line: bytes) -> tuple[bool, Any]:
    try:
        return True, json.loads(line.decode("utf-8"))
    except ValueError:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        return False, None


def stream_clean_file(
    path: str | os.PathLike[str],
    header_from_json: Callable[[Any], SessionHeader | None],
    take: Callable[[int, Any], None],
) -> SessionHeader | None:
    """Read ``path`` in one pass when it is clean: returns its header and has called ``take(number, obj)`` for
    every later JSON object, in order (``number`` counts objects, the header being 1, as the full reader's
    warnings do). ``None`` when the full reader must read the file (module docstring); ``take`` may have been
    called for some objects by then, so the caller discards what it took. Raises ``OSError`` from opening."""
    with open(path, "rb") as handle:
        first = handle.readline()
        if first.startswith(_UNCLEAN_STARTS) or b"\x00" in first:
            return None
        ok, obj = _loads(first.strip())
        header = header_from_json(obj) if ok else None
        if header is None or not isinstance(obj.get("version"), int) or obj["version"] < CURRENT_SESSION_VERSION:
            return None
        number = 1
        for raw in handle:
            line = raw.strip()
            if not line:
                continue
            if b"\x00" in raw:
                return None
            ok, obj = _loads(line)
            if not ok:
                return None
            number += 1
            take(number, obj)
    return header
