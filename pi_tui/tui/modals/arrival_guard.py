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

MAX_HOLD_S = 3.0
"""Seconds after a registered dialog was mounted after which it takes keys even while typing goes on (a dialog
that never reported its paint, or a user who keeps typing, must still be able to answer it: tester3 #4, an
extension's select dialog held every key for good and could be neither answered nor cancelled)."""

ENABLED = True
"""Off only in tests that answer a dialog the instant it appears, as no user can (``tests/conftest.py``)."""


class _Hold:
    __slots__ = ("until", "mounted_at")

    def __init__(self) -> None:
        self.until: float | None = None  # grace end, once painted
        self.mounted_at: float | None = None


_holds: WeakKeyDictionary[Screen[Any], _Hold] = WeakKeyDictionary()


def register(screen: Screen[Any]) -> None:
    """Hold keys for ``screen`` (a dialog the app shows on its own) until it has been on screen a moment."""
    if ENABLED:
        _holds[screen] = _Hold()


def painted(screen: Screen[Any]) -> None:
    """``screen`` was mounted: its grace starts once the next frame is drawn (a no-op when not registered).
    Whoever shows a registered dialog calls this once it is mounted (``TextualExtensionUI._show``, the trust
    question); without it the dialog takes keys :data:`MAX_HOLD_S` after a key first found it mounted."""
    hold = _holds.get(screen)
    if hold is not None:
        if hold.mounted_at is None:
            hold.mounted_at = time.monotonic()
        screen.call_after_refresh(_start, screen)


def _start(screen: Screen[Any]) -> None:
    hold = _holds.get(screen)
    if hold is not None and hold.until is None:
        hold.until = time.monotonic() + GRACE_S


def holds(screen: Screen[Any]) -> bool:
    """True while a key for ``screen`` belongs to the editor instead; a held key extends the hold (up to
    :data:`MAX_HOLD_S` after the dialog was mounted)."""
    hold = _holds.get(screen)
    if hold is None:
        return False
    now = time.monotonic()
    if hold.mounted_at is None and screen.is_mounted:
        hold.mounted_at = now  # painted() was not called: the cap below still ends the hold
    if hold.mounted_at is not None and now - hold.mounted_at >= MAX_HOLD_S:
        del _holds[screen]
        return False
    if hold.until is not None and now >= hold.until:
        del _holds[screen]  # from now on every key is the dialog's
        return False
    if hold.until is not None:
        hold.until = now + GRACE_S
    return True
