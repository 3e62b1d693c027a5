"""Key bindings of the app by pi's action ids, with user overrides from ``keybindings.json``.

Defaults follow pi-reference §3.14; every Alt binding has a non-Alt alternative because many terminals send
Alt+key as Escape followed by the key (Textual then sees two keys):
- ``app.message.followUp``: alt+enter, ctrl+f
- ``app.message.dequeue``: alt+up, ctrl+r
Textual key names are used (``ctrl+o``, ``shift+tab``, ``f2``). ``keybindings.json`` maps an id to a key or a
list of keys (pi's format, e.g. ``{"app.tools.expand": "ctrl+e"}``); unknown ids are reported, not fatal.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_KEYS: dict[str, list[str]] = {
    "tui.input.submit": ["enter"],
    "tui.input.newLine": ["shift+enter", "ctrl+j"],
    "app.message.followUp": ["alt+enter", "ctrl+f"],
    "app.message.dequeue": ["alt+up", "ctrl+r"],
    "app.interrupt": ["escape"],
    "app.clear": ["ctrl+c"],
    "app.exit": ["ctrl+d"],
    "app.thinking.cycle": ["shift+tab"],
    "app.model.cycleForward": ["ctrl+p"],
    "app.model.cycleBackward": ["ctrl+shift+p"],
    "app.model.select": ["ctrl+l"],
    "app.tools.expand": ["ctrl+o"],
    "app.thinking.toggle": ["ctrl+t"],
    "app.tools.panel": ["f2", "ctrl+b"],
    "app.commandPalette": ["f1"],
    "app.editor.external": ["ctrl+g"],
    "app.scroll.pageUp": ["pageup"],
    "app.scroll.pageDown": ["pagedown"],
    "app.scroll.top": ["ctrl+home"],
    "app.scroll.bottom": ["ctrl+end"],
    "app.history.prev": ["up"],
    "app.history.next": ["down"],
    "app.session.tree": [],
    "app.session.fork": [],  # pi: unbound by default
    "app.session.resume": [],
    "app.clipboard.pasteImage": ["ctrl+v"],
}

SCREEN_KEYS: dict[str, list[str]] = {
    # Keys that act only inside one screen (pi's ids): the editor never takes them (``Keymap.action_for`` skips
    # them), so Ctrl+P still cycles models and Enter still sends on the main screen.
    "tui.select.confirm": ["enter", "space"],
    "tui.select.cancel": ["escape", "ctrl+c"],  # pi's; Ctrl+C closes every screen (tui/screen_cancel.py)
    "app.models.save": ["ctrl+s"],
    "app.models.enableAll": ["ctrl+a"],
    "app.models.clearAll": ["ctrl+x"],
    "app.models.toggleProvider": ["ctrl+p"],
    "app.models.reorderUp": ["alt+up"],
    "app.models.reorderDown": ["alt+down"],
    # pi's session-tree keys (docs/keybindings.md "Tree Navigation"): the /tree screen's (``scoped_action_for``)
    "app.tree.foldOrUp": ["ctrl+left", "alt+left"],
    "app.tree.unfoldOrDown": ["ctrl+right", "alt+right"],
    "app.tree.editLabel": ["shift+l"],
    "app.tree.toggleLabelTimestamp": ["shift+t"],
    "app.tree.filter.default": ["ctrl+d"],
    "app.tree.filter.noTools": ["ctrl+t"],
    "app.tree.filter.userOnly": ["ctrl+u"],
    "app.tree.filter.labeledOnly": ["ctrl+l"],
    "app.tree.filter.all": ["ctrl+a"],
    "app.tree.filter.cycleForward": ["ctrl+o"],
    "app.tree.filter.cycleBackward": ["ctrl+shift+o"],
}

DESCRIPTIONS: dict[str, str] = {
    "tui.input.submit": "Send (idle) / queue a steering message (while working)",
    "tui.input.newLine": "Insert a newline",
    "app.message.followUp": "Queue a follow-up message (while working)",
    "app.message.dequeue": "Pull all queued messages back into the editor",
    "app.interrupt": "Abort the run (queued text returns to the editor) / cancel bash",
    "app.clear": "Clear the editor; twice within 500 ms quits",
    "app.exit": "Quit (when the editor is empty)",
    "app.thinking.cycle": "Cycle thinking level",
    "app.model.cycleForward": "Next model",
    "app.model.cycleBackward": "Previous model",
    "app.model.select": "Model picker",
    "app.tools.expand": "Expand/collapse tool output",
    "app.thinking.toggle": "Hide/show thinking blocks",
    "app.tools.panel": "Tool-call panel",
    "app.commandPalette": "Command palette",
    "app.editor.external": "Edit the prompt in $VISUAL / $EDITOR",
    "app.scroll.pageUp": "Scroll the transcript up a page",
    "app.scroll.pageDown": "Scroll the transcript down a page",
    "app.scroll.top": "Scroll to the top",
    "app.scroll.bottom": "Scroll to the bottom (follow again)",
    "app.history.prev": "Previous prompt (empty editor or first line)",
    "app.history.next": "Next prompt",
    "app.session.tree": "Session tree (/tree)",
    "app.tree.foldOrUp": "Tree: fold the branch, or jump to the previous branch start",
    "app.tree.unfoldOrDown": "Tree: unfold the branch, or jump to the next branch start",
    "app.tree.editLabel": "Tree: set or clear the selected entry's label",
    "app.tree.toggleLabelTimestamp": "Tree: show/hide label times",
    "app.tree.filter.default": "Tree: default view",
    "app.tree.filter.noTools": "Tree: hide tool results (toggle)",
    "app.tree.filter.userOnly": "Tree: user messages only (toggle)",
    "app.tree.filter.labeledOnly": "Tree: labelled entries only (toggle)",
    "app.tree.filter.all": "Tree: every entry (toggle)",
    "app.tree.filter.cycleForward": "Tree: next filter",
    "app.tree.filter.cycleBackward": "Tree: previous filter",
    "tui.select.confirm": "/settings, /scoped-models: change the value / toggle the model",
    "tui.select.cancel": "Pickers, dialogs, /settings: close (a sub-list: back, theme preview undone)",
    "app.models.save": "/scoped-models: save the selection to settings.json (enabledModels)",
    "app.models.enableAll": "/scoped-models: enable all (or all matching the filter)",
    "app.models.clearAll": "/scoped-models: clear all (or all matching the filter)",
    "app.models.toggleProvider": "/scoped-models: toggle all models of the selected one's provider",
    "app.models.reorderUp": "/scoped-models: move the selected model up in the cycle order",
    "app.models.reorderDown": "/scoped-models: move the selected model down in the cycle order",
    "app.session.fork": "Fork from an earlier message (/fork)",
    "app.session.resume": "Resume a session (/resume)",
    "app.clipboard.pasteImage": "Paste an image from the clipboard (its text when it holds no image)",
}

SCREEN_KEYS.update({
    # The session picker's keys (pi 0.73.1 session-selector: Tab scope, Ctrl+S sort, Ctrl+N named, Ctrl+P path,
    # Ctrl+R rename, Ctrl+D delete, Ctrl+Backspace delete with an empty filter); app.session.togglePrintRuns
    # is pi-tui's own (issue 12: one-shot ``-p`` runs are hidden until it is pressed).
    "tui.input.tab": ["tab"],
    "app.session.toggleSort": ["ctrl+s"],
    "app.session.toggleNamedFilter": ["ctrl+n"],
    "app.session.togglePath": ["ctrl+p"],
    "app.session.togglePrintRuns": ["ctrl+o"],
    "app.session.rename": ["ctrl+r"],
    "app.session.delete": ["ctrl+d"],
    "app.session.deleteNoninvasive": ["ctrl+backspace"],
})
"""Keys that act only inside one screen (they never reach :meth:`Keymap.action_for`, so Ctrl+D in a picker is
not Quit); remappable in keybindings.json like the others and listed by /hotkeys (``SCREEN_DESCRIPTIONS``)."""

SCREEN_DESCRIPTIONS: dict[str, str] = {
    "tui.input.tab": "Session picker: this folder / all folders",
    "app.session.toggleSort": "Session picker: threaded / most recent",
    "app.session.toggleNamedFilter": "Session picker: named sessions only / all",
    "app.session.togglePath": "Session picker: show file paths",
    "app.session.togglePrintRuns": "Session picker: show / hide one-shot -p runs",
    "app.session.rename": "Session picker: rename the selected session",
    "app.session.delete": "Session picker: delete the selected session (asks first)",
    "app.session.deleteNoninvasive": "Session picker: delete (when the filter is empty)",
}


@dataclass
class Keymap:
    """Keys per action id; ``action_for(key)`` finds the id a pressed key triggers."""

    keys: dict[str, list[str]] = field(
        default_factory=lambda: {k: list(v) for k, v in {**DEFAULT_KEYS, **SCREEN_KEYS}.items()})
    warnings: list[str] = field(default_factory=list)
    screen_keys: dict[str, list[str]] = field(default_factory=lambda: {k: list(v) for k, v in SCREEN_KEYS.items()})
    """Keys of actions that act only inside one screen (``SCREEN_KEYS``); see :meth:`screen_action`."""
    conflicts: list[str] = field(default_factory=list)
    """keybindings.json keys another action of the same screen had (``keymap_conflicts``), one line each."""
    added: dict[str, str] = field(default_factory=dict)
    """Actions added at run time (extension shortcuts, ``ext.shortcut:<key>``) -> their description: /hotkeys
    and the F1 palette list them from here with the built-ins (tester2 #20: they were listed nowhere)."""

    def add_action(self, action: str, keys: list[str], description: str) -> None:
        """Bind ``action`` (one added at run time) to ``keys`` with ``description``."""
        self.keys[action] = list(keys)
        self.added[action] = description

    def remove_action(self, action: str) -> None:
        """Undo :meth:`add_action` (nothing when ``action`` was not added)."""
        self.keys.pop(action, None)
        self.added.pop(action, None)

    def describe(self, action: str) -> str:
        """What ``action`` does (the built-in descriptions, then the added actions'; the id when unknown)."""
        return DESCRIPTIONS.get(action) or SCREEN_DESCRIPTIONS.get(action) or self.added.get(action) or action

    def action_for(self, key: str) -> str | None:
        """The action id bound to ``key`` (Textual key name), or ``None`` (screen-only keys are not looked at)."""
        for action, keys in self.keys.items():
            if key in keys and action not in SCREEN_KEYS:
                return action
        return None

    def scoped_action_for(self, key: str, prefix: str) -> str | None:
        """The screen action (``SCREEN_KEYS``) whose id starts with ``prefix`` (e.g. ``app.tree.``) bound to
        ``key``; a typed capital letter also matches its ``shift+`` name (Textual reports Shift+L as ``L``)."""
        names = {key, f"shift+{key.lower()}"} if len(key) == 1 and key.isupper() else {key}
        for action in SCREEN_KEYS:
            if action.startswith(prefix) and names.intersection(self.keys.get(action) or []):
                return action
        return None

    def screen_action(self, key: str, actions: tuple[str, ...] | list[str]) -> str | None:
        """The first of ``actions`` (a screen's own, e.g. ``SCREEN_KEYS`` ids: /settings, /scoped-models, the
        session picker) that ``key`` is bound to, or ``None``."""
        return next((action for action in actions
                     if key in (self.keys.get(action) or self.screen_keys.get(action, []))), None)

    def display(self, action: str) -> str:
        """Human form of the keys of ``action``: ``Alt+Enter / Ctrl+F``."""
        keys = self.keys[action] if action in self.keys else self.screen_keys.get(action, [])
        return " / ".join(_pretty(k) for k in keys) or "unbound"

    def first(self, action: str) -> str:
        """Human form of the first key of ``action`` (for hints)."""
        keys = (self.keys[action] if action in self.keys else self.screen_keys.get(action)) or []
        return _pretty(keys[0]) if keys else "unbound"


_NAMES = {"pageup": "PageUp", "pagedown": "PageDown", "escape": "Esc", "enter": "Enter", "tab": "Tab"}


def pretty_key(key: str) -> str:
    """A Textual key name as hints show it (``ctrl+p`` → ``Ctrl+P``)."""
    return _pretty(key)


def _pretty(key: str) -> str:
    return "+".join(_NAMES.get(p, p.capitalize() if len(p) > 1 else p.upper()) for p in key.split("+"))


def load_keymap(path: Path | None = None) -> Keymap:
    """Defaults overlaid with the user's ``keybindings.json`` (``path`` or ``<agent dir>/keybindings.json``).

    Reading, JSONC parsing, legacy-name migration and entry validation are
    ``pi_tui.coding.config.keybindings.load_keybindings``'s; its errors become warnings shown at start.
    An id this app does not bind is ignored with a warning: pi's own ids that pi-tui does not remap (the editor's
    ``tui.editor.*`` keys, Textual's) are named as such, any other id is an unknown action id (a typo would
    otherwise be a binding that silently does nothing).
    """
    from pi_tui.coding.config.keybindings import DEFAULT_KEYBINDINGS, load_keybindings, to_textual_key
    from pi_tui.coding.config.paths import get_keybindings_path

    loaded = load_keybindings(path)
    km = Keymap()
    km.warnings.extend(loaded.errors)
    where = path or get_keybindings_path()
    for action in loaded.user:
        if action in DEFAULT_KEYS or action in SCREEN_KEYS:
            continue
        if action in DEFAULT_KEYBINDINGS:
            km.warnings.append(f"{where}: {action} is pi's, but not remappable in pi-tui yet; ignored")
        else:
            near = difflib.get_close_matches(action, [*DEFAULT_KEYS, *SCREEN_KEYS], n=1)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            km.warnings.append(f"{where}: unknown action id {action!r}, ignored{hint}")
    for action, keys in loaded.user.items():
        if action in DEFAULT_KEYS or action in SCREEN_KEYS:
            km.keys[action] = [to_textual_key(k) for k in keys]
        if action in SCREEN_KEYS:
            km.screen_keys[action] = [to_textual_key(k) for k in keys]
    from pi_tui.tui.keymap_conflicts import resolve_conflicts  # a user key another action has: pi's rule

    km.conflicts = [c.message(str(where)) for c in resolve_conflicts(km, list(loaded.user))]
    km.warnings.extend(km.conflicts)
    return km
