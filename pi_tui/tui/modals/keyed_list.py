"""Pieces the keymap-driven list screens share (``/settings``, ``/scoped-models``).

:class:`KeyedList` is an ``OptionList`` that keeps only its navigation keys, so Enter, Space and the screen's
other keys reach the screen, which maps them through the keymap (``Keymap.screen_action``; pi's ids such as
``tui.select.confirm``, remappable in keybindings.json). :func:`bind_keymap` binds a screen's actions to the
keys the keymap gives them (Escape included, which the app otherwise binds to "back to the editor").
:class:`FilterList` is the list of a screen with a filter input (the model, fork and session pickers).
"""

from __future__ import annotations

from typing import Any

from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import OptionList

from pi_tui.tui.keymap import Keymap


class KeyedList(OptionList, inherit_bindings=False):
    """An OptionList moved by Up/Down/PageUp/PageDown/Home/End only (no Enter binding of its own)."""

    BINDINGS = [
        Binding("down", "cursor_down", show=False),
        Binding("up", "cursor_up", show=False),
        Binding("pagedown", "page_down", show=False),
        Binding("pageup", "page_up", show=False),
        Binding("home", "first", show=False),
        Binding("end", "last", show=False),
    ]


class FilterList(OptionList):
    """The list under a filter input: it never takes the focus (Tab, Shift+Tab or a click left it on the list,
    where typed letters and Backspace went nowhere; new-user run #43). The screen moves it with ↑/↓ from the
    filter; a click still picks a row and the wheel still scrolls."""

    can_focus = False


def bind_keymap(screen: Screen[Any], keymap: Keymap, actions: dict[str, str]) -> None:
    """Bind, on ``screen`` alone, the keymap's keys of each pi action id in ``actions`` to the screen action
    named by its value (``{"tui.select.cancel": "cancel"}`` runs ``screen.action_cancel``)."""
    for action_id, screen_action in actions.items():
        keys = keymap.keys.get(action_id) or []
        if keys:
            screen._bindings.bind(",".join(keys), screen_action, show=False)
