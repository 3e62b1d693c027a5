"""Which keys go to the prompt editor when something else has focus (issue 9 #2: nothing typed is lost).

The editor is the only place text can go on the main screen. When focus is elsewhere (the tool panel's list,
its detail pane, nothing after a click) the focused widget keeps only its navigation keys; everything the user
types (printable characters, Enter, pastes) and every key the keymap binds to an app action (the panel toggle,
Ctrl+O, Ctrl+P, ...) is delivered to the editor, which then behaves exactly as if it had focus. Without this the
panel's list swallowed typed text and Enter, and Ctrl+B opened the panel but could not close it.

Kept by the focused widget: the keymap's navigation actions (history Up/Down, PageUp/PageDown, Ctrl+Home/End),
Escape (back to the editor, the app's binding) and Tab/Shift+Tab focus moves. Modal screens (pickers, the
command palette) get every key: the editor is not on their screen.
"""

from __future__ import annotations

from textual import events

from pi_tui.tui.keymap import Keymap

# Actions whose keys the focused widget keeps (they navigate the widget itself, e.g. Up/Down in the panel).
NAVIGATION_ACTIONS = frozenset({
    "app.history.prev", "app.history.next",
    "app.scroll.pageUp", "app.scroll.pageDown", "app.scroll.top", "app.scroll.bottom",
})
FOCUS_KEYS = frozenset({"tab", "shift+tab"})


def editor_takes_key(event: events.Key, keymap: Keymap, busy: bool = False) -> bool:
    """True when ``event`` (pressed while the editor lacks focus) must be delivered to the editor.

    Printable characters and Enter always are; other keys when the keymap binds them to an app action that is
    not a navigation action (``NAVIGATION_ACTIONS``). Tab/Shift+Tab keep moving focus. ``busy``: a run, a user
    ``!cmd``, a compaction or a retry wait is going on; then Escape aborts it at once, as the editor's title says
    (tester3 #1: with the tool panel focused the first Escape only moved focus back to the editor).
    """
    key = event.key
    if key in FOCUS_KEYS:
        return False
    action = keymap.action_for(key)
    if action == "app.interrupt":
        # idle, Escape outside the editor returns to it (the app's binding); busy, or a remapped key, aborts
        return busy or key != "escape"
    if action is not None:
        return action not in NAVIGATION_ACTIONS
    return key == "enter" or event.is_printable
