"""Keys typed before a dialog the user did not ask for was on screen go to the editor, not into the dialog.

The trust question at start-up and an extension's ``ctx.ui`` dialogs appear on their own, while the user may be
typing a prompt; Textual hands every key still queued to the new screen's focused widget, so the Enter that ended
the prompt chose the dialog's first option (tester2 #4: the folder was trusted, remembered, unseen, and the prompt
was lost). A dialog registered here (:func:`register`) holds keys from the moment it is pushed until ``GRACE_S``
after it was painted, and each held key extends the hold while typing goes on; :func:`holds` tells the app's key
routing to give those keys to the editor. A dialog the user opened (``/tree``, ``/resume``) is not registered:
keys typed right after its command are meant for it.
"""

from __future__ import annotations

import time
from typing import Any
from weakref import WeakKeyDictionary

from textual.screen import Screen

GRACE_S = 0.6
"""Seconds after a registered dialog was painted (and after the last held key) before keys reach it."""

ENABLED = True
"""Off only in tests that answer a dialog the instant it appears, as no user can (``tests/conftest.py``)."""

_until: WeakKeyDictionary[Screen[Any], float | None] = WeakKeyDictionary()


def register(screen: Screen[Any]) -> None:
    """Hold keys for ``screen`` (a dialog the app shows on its own) until it has been on screen a moment."""
    if ENABLED:
        _until[screen] = None


def painted(screen: Screen[Any]) -> None:
    """``screen`` was mounted: its grace starts once the next frame is drawn (a no-op when not registered)."""
    if screen in _until:
        screen.call_after_refresh(_start, screen)


def _start(screen: Screen[Any]) -> None:
    if screen in _until and _until[screen] is None:
        _until[screen] = time.monotonic() + GRACE_S


def holds(screen: Screen[Any]) -> bool:
    """True while a key for ``screen`` belongs to the editor instead; a held key extends the hold."""
    if screen not in _until:
        return False
    until = _until[screen]
    now = time.monotonic()
    if until is not None and now >= until:
        del _until[screen]  # from now on every key is the dialog's
        return False
    if until is not None:
        _until[screen] = now + GRACE_S
    return True
