"""Ctrl+C closes any open picker, dialog or screen, as Escape does (new-user run #35).

pi binds ``tui.select.cancel`` to Escape *and* Ctrl+C. Here every screen closes on Escape, but Ctrl+C did nothing
while one was open: a focused Textual ``Input`` or ``TextArea`` takes Ctrl+C as "copy" (and does nothing
without a selection), and nothing else listens. The app now hands such a key to the open screen as Escape, so
each screen's own Escape rule applies (``/tree`` clears its search first, ``/settings`` leaves a sub-list first,
the trust question answers "not this time"), in one place for every screen, present and future.

Kept as they were: Ctrl+C over a mouse selection on the screen (it copies it), Escape itself, and the main
screen (Ctrl+C clears the editor there). A selection inside a dialog's input is not copied by Ctrl+C: a
prefilled rename or label prompt has its text selected from the start, and Ctrl+C would never get out of it.
After Ctrl+C has closed a screen over an empty editor, a second Ctrl+C quits, as two presses do on the main
screen; with text in the editor the second press clears it into the history first (nothing typed is lost).
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.screen import Screen

from pi_tui.tui.keymap import Keymap


def cancel_key(event: events.Key, keymap: Keymap) -> bool:
    """True when ``event`` is one of the keymap's ``tui.select.cancel`` keys other than Escape (Ctrl+C by
    default, remappable in keybindings.json)."""
    return event.key != "escape" and keymap.screen_action(event.key, ("tui.select.cancel",)) is not None


def has_selection(screen: Screen[Any]) -> bool:
    """Is there a mouse selection on ``screen`` for Ctrl+C to copy?"""
    try:
        return bool(screen.get_selected_text())
    except Exception:  # a screen without selection support: nothing to copy
        return False


def escape_for(event: events.Key, screen: Screen[Any], main: Screen[Any], keymap: Keymap) -> events.Key | None:
    """The Escape key event to deliver instead of ``event`` while ``screen`` (not the ``main`` one) is open,
    or ``None`` when ``event`` is to go on as it is (module docstring)."""
    if screen is main or not cancel_key(event, keymap) or has_selection(screen):
        return None
    return events.Key("escape", None)
