"""keybindings.json: action id → key(s), in pi's format (pi-reference §3.14, §3.16, §6 "Keybindings").

The file maps pi's action ids (``"app.interrupt"``, ``"tui.editor.cursorUp"``, …) to a key string or a list of
them (``"ctrl+p"``, ``["up", "ctrl+p"]``, ``[]`` to unbind). Legacy names (``cursorUp``, ``interrupt``, …) are
migrated to the current ids as pi does. :func:`load_keybindings` returns the defaults with the user's entries
on top; entries of the wrong type and strings that are not keys (:func:`key_problem`) are reported and ignored (an
entry with no valid key left keeps the default); unknown ids are kept here (the app's keymap reports them).
:func:`to_textual_key` turns pi's key syntax into Textual's key names (this module itself has no Textual import).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pi_tui.coding.config.jsonc import loads_jsonc
from pi_tui.coding.config.paths import get_keybindings_path

DEFAULT_KEYBINDINGS: dict[str, list[str]] = {
    "tui.editor.cursorUp": ["up"],
    "tui.editor.cursorDown": ["down"],
    "tui.editor.cursorLeft": ["left", "ctrl+b"],
    "tui.editor.cursorRight": ["right", "ctrl+f"],
    "tui.editor.cursorWordLeft": ["alt+left", "ctrl+left", "alt+b"],
    "tui.editor.cursorWordRight": ["alt+right", "ctrl+right", "alt+f"],
    "tui.editor.cursorLineStart": ["home", "ctrl+a"],
    "tui.editor.cursorLineEnd": ["end", "ctrl+e"],
    "tui.editor.jumpForward": ["ctrl+]"],
    "tui.editor.jumpBackward": ["ctrl+alt+]"],
    "tui.editor.pageUp": ["pageUp"],
    "tui.editor.pageDown": ["pageDown"],
    "tui.editor.deleteCharBackward": ["backspace"],
    "tui.editor.deleteCharForward": ["delete", "ctrl+d"],
    "tui.editor.deleteWordBackward": ["ctrl+w", "alt+backspace"],
    "tui.editor.deleteWordForward": ["alt+d", "alt+delete"],
    "tui.editor.deleteToLineStart": ["ctrl+u"],
    "tui.editor.deleteToLineEnd": ["ctrl+k"],
    "tui.editor.yank": ["ctrl+y"],
    "tui.editor.yankPop": ["alt+y"],
    "tui.editor.undo": ["ctrl+-"],
    "tui.input.newLine": ["shift+enter"],
    "tui.input.submit": ["enter"],
    "tui.input.tab": ["tab"],
    "tui.input.copy": ["ctrl+c"],
    "tui.select.up": ["up"],
    "tui.select.down": ["down"],
    "tui.select.pageUp": ["pageUp"],
    "tui.select.pageDown": ["pageDown"],
    "tui.select.confirm": ["enter"],
    "tui.select.cancel": ["escape", "ctrl+c"],
    "app.interrupt": ["escape"],
    "app.clear": ["ctrl+c"],
    "app.exit": ["ctrl+d"],
    "app.suspend": ["ctrl+z"],
    "app.thinking.cycle": ["shift+tab"],
    "app.model.cycleForward": ["ctrl+p"],
    "app.model.cycleBackward": ["shift+ctrl+p"],
    "app.model.select": ["ctrl+l"],
    "app.tools.expand": ["ctrl+o"],
    "app.thinking.toggle": ["ctrl+t"],
    "app.session.toggleNamedFilter": ["ctrl+n"],
    "app.editor.external": ["ctrl+g"],
    "app.message.followUp": ["alt+enter"],
    "app.message.dequeue": ["alt+up"],
    "app.clipboard.pasteImage": ["ctrl+v"],
    "app.session.new": [],
    "app.session.tree": [],
    "app.session.fork": [],
    "app.session.resume": [],
    "app.tree.foldOrUp": ["ctrl+left", "alt+left"],
    "app.tree.unfoldOrDown": ["ctrl+right", "alt+right"],
    "app.tree.editLabel": ["shift+l"],
    "app.tree.toggleLabelTimestamp": ["shift+t"],
    "app.session.togglePath": ["ctrl+p"],
    "app.session.toggleSort": ["ctrl+s"],
    "app.session.rename": ["ctrl+r"],
    "app.session.delete": ["ctrl+d"],
    "app.session.deleteNoninvasive": ["ctrl+backspace"],
    "app.models.save": ["ctrl+s"],
    "app.models.enableAll": ["ctrl+a"],
    "app.models.clearAll": ["ctrl+x"],
    "app.models.toggleProvider": ["ctrl+p"],
    "app.models.reorderUp": ["alt+up"],
    "app.models.reorderDown": ["alt+down"],
    "app.tree.filter.default": ["ctrl+d"],
    "app.tree.filter.noTools": ["ctrl+t"],
    "app.tree.filter.userOnly": ["ctrl+u"],
    "app.tree.filter.labeledOnly": ["ctrl+l"],
    "app.tree.filter.all": ["ctrl+a"],
    "app.tree.filter.cycleForward": ["ctrl+o"],
    "app.tree.filter.cycleBackward": ["shift+ctrl+o"],
}
"""pi 0.73.1's default keys per action id (pi-tui's TUI_KEYBINDINGS + the coding agent's KEYBINDINGS)."""

_LEGACY_EDITOR = (
    "cursorUp cursorDown cursorLeft cursorRight cursorWordLeft cursorWordRight cursorLineStart cursorLineEnd "
    "jumpForward jumpBackward pageUp pageDown deleteCharBackward deleteCharForward deleteWordBackward "
    "deleteWordForward deleteToLineStart deleteToLineEnd yank yankPop undo"
).split()
LEGACY_NAMES: dict[str, str] = {name: f"tui.editor.{name}" for name in _LEGACY_EDITOR}
LEGACY_NAMES.update(
    {
        "newLine": "tui.input.newLine",
        "submit": "tui.input.submit",
        "tab": "tui.input.tab",
        "copy": "tui.input.copy",
        "selectUp": "tui.select.up",
        "selectDown": "tui.select.down",
        "selectPageUp": "tui.select.pageUp",
        "selectPageDown": "tui.select.pageDown",
        "selectConfirm": "tui.select.confirm",
        "selectCancel": "tui.select.cancel",
        "interrupt": "app.interrupt",
        "clear": "app.clear",
        "exit": "app.exit",
        "suspend": "app.suspend",
        "cycleThinkingLevel": "app.thinking.cycle",
        "cycleModelForward": "app.model.cycleForward",
        "cycleModelBackward": "app.model.cycleBackward",
        "selectModel": "app.model.select",
        "expandTools": "app.tools.expand",
        "toggleThinking": "app.thinking.toggle",
        "toggleSessionNamedFilter": "app.session.toggleNamedFilter",
        "externalEditor": "app.editor.external",
        "followUp": "app.message.followUp",
        "dequeue": "app.message.dequeue",
        "pasteImage": "app.clipboard.pasteImage",
        "newSession": "app.session.new",
        "tree": "app.session.tree",
        "fork": "app.session.fork",
        "resume": "app.session.resume",
        "treeFoldOrUp": "app.tree.foldOrUp",
        "treeUnfoldOrDown": "app.tree.unfoldOrDown",
        "treeEditLabel": "app.tree.editLabel",
        "treeToggleLabelTimestamp": "app.tree.toggleLabelTimestamp",
        "toggleSessionPath": "app.session.togglePath",
        "toggleSessionSort": "app.session.toggleSort",
        "renameSession": "app.session.rename",
        "deleteSession": "app.session.delete",
        "deleteSessionNoninvasive": "app.session.deleteNoninvasive",
    }
)
"""Pre-0.6x action names → current ids (a current id in the same file wins over its legacy name)."""


@dataclass
class Keybindings:
    """``bindings``: every action id → keys (defaults overridden by the file); ``user``: the file's valid entries;
    ``errors``: one message per ignored entry or unreadable file."""

    bindings: dict[str, list[str]] = field(default_factory=dict)
    user: dict[str, list[str]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    def keys_for(self, action: str) -> list[str]:
        """Keys bound to ``action`` (``[]`` if unbound or unknown)."""
        return list(self.bindings.get(action, []))

    def actions_for(self, key: str) -> list[str]:
        """Actions whose keys include ``key`` (pi syntax, compared after normalisation)."""
        wanted = normalize_key(key)
        return [
            action for action, keys in self.bindings.items() if any(normalize_key(k) == wanted for k in keys)
        ]


def migrate_keybindings(raw: dict[str, Any]) -> dict[str, Any]:
    """Rename legacy action names; a legacy name is dropped when its current id is also present."""
    migrated: dict[str, Any] = {}
    for key, value in raw.items():
        target = LEGACY_NAMES.get(key, key)
        if target != key and target in raw:
            continue
        migrated[target] = value
    return migrated


def load_keybindings(path: Path | None = None) -> Keybindings:
    """Defaults + ``<agentDir>/keybindings.json`` (or ``path``). Never raises."""
    result = Keybindings(bindings={k: list(v) for k, v in DEFAULT_KEYBINDINGS.items()})
    target = path or get_keybindings_path()
    try:
        text = target.read_text(encoding="utf-8")
    except FileNotFoundError:
        return result
    except OSError as error:
        result.errors.append(f"{target}: cannot read key bindings: {error.strerror}")
        return result
    try:
        raw = loads_jsonc(text) if text.strip() else {}
    except ValueError as error:
        result.errors.append(f"{target}: invalid JSON ({error}); default key bindings used")
        return result
    if not isinstance(raw, dict):
        result.errors.append(f"{target}: key bindings must be a JSON object; default key bindings used")
        return result
    for action, value in migrate_keybindings(raw).items():
        if isinstance(value, str):
            keys = [value]
        elif isinstance(value, list) and all(isinstance(item, str) for item in value):
            keys = list(value)
        else:
            result.errors.append(f"{target}: {action} must be a key string or a list of key strings; ignored")
            continue
        valid = []
        for key in keys:
            problem = key_problem(key)
            if problem is None:
                valid.append(key)
            else:
                result.errors.append(f'{target}: {action}: "{key}" is not a key ({problem}); ignored')
        if keys and not valid:  # nothing usable left: keep the default rather than unbind
            continue
        result.user[action] = valid
        result.bindings[action] = valid
    return result


_KEY_MODIFIERS = frozenset({"ctrl", "shift", "alt", "meta", "super"})
_SPECIAL_KEYS = frozenset(
    "escape esc enter return tab space backspace delete del insert clear home end pageup pagedown up down left "
    "right".split()
)
_SYMBOL_KEYS = frozenset("`-=[]\\;',./!@#$%^&*()_+|~{}:<>?")
_FUNCTION_KEYS = frozenset(f"f{n}" for n in range(1, 13))


def key_problem(key: str) -> str | None:
    """Why ``key`` is not a key in pi's format, or None when it is (pi docs/keybindings.md "Key Format":
    ``modifier+key``; modifiers ``ctrl``, ``shift``, ``alt`` (pi-tui also takes ``meta``, ``super``), each at
    most once; the key one of a-z, 0-9, pi's symbols, ``escape``/``esc``, ``enter``/``return``, ``tab``,
    ``space``, ``backspace``, ``delete``, ``insert``, ``clear``, ``home``, ``end``, ``pageUp``, ``pageDown``, the
    arrows, ``f1``-``f12``; ``+`` alone or after a modifier (``ctrl++``) is the plus key). Case-insensitive."""
    text = key.strip().lower()
    if not text:
        return "empty"
    if text == "+" or text.endswith("++"):
        head, base = (text[:-2] if text != "+" else ""), "+"
    elif text.endswith("+"):
        return "no key after the last +"
    else:
        head, _, base = text.rpartition("+")
    modifiers = head.split("+") if head else []
    for modifier in modifiers:
        if modifier not in _KEY_MODIFIERS:
            return f"unknown modifier {modifier!r}; use ctrl, shift or alt"
    if len(set(modifiers)) != len(modifiers):
        return "a modifier is repeated"
    if len(base) == 1 and (base.isascii() and base.isalnum() or base in _SYMBOL_KEYS):
        return None
    if base in _SPECIAL_KEYS or base in _FUNCTION_KEYS:
        return None
    return f"unknown key {base!r}"


_MODIFIERS = ("alt", "ctrl", "meta", "shift", "super")
_NAMED = {
    "pageup": "pageup",
    "pagedown": "pagedown",
    "esc": "escape",
    "return": "enter",
    "del": "delete",
    "space": "space",
}


def normalize_key(key: str) -> str:
    """Canonical pi key: lowercase, modifiers sorted (``shift+ctrl+P`` → ``ctrl+shift+p``)."""
    if key.strip() == "+":
        return "+"
    parts = key.strip().lower().split("+")
    if key.strip().endswith("+") and key.strip() != "+":  # "ctrl++" means ctrl and the plus key
        parts = [*[p for p in parts if p], "+"]
    modifiers = sorted({part for part in parts[:-1] if part in _MODIFIERS})
    base = parts[-1] if parts else ""
    return "+".join([*modifiers, _NAMED.get(base, base)])


def to_textual_key(key: str) -> str:
    """pi key syntax → Textual key name: ``shift+ctrl+p`` → ``ctrl+shift+p``, ``pageUp`` → ``pageup``,
    ``ctrl+]`` → ``ctrl+right_square_bracket``, ``ctrl+-`` → ``ctrl+minus``."""
    normalized = normalize_key(key)
    if normalized.endswith("+"):
        head = normalized[:-1].rstrip("+")
        modifiers, base = (head.split("+") if head else []), "+"
    else:
        *modifiers, base = normalized.split("+")
    if len(base) == 1 and not base.isalnum():
        base = unicodedata.name(base, base).lower().replace(" ", "_").replace("-", "_")
        base = {"hyphen_minus": "minus", "plus_sign": "plus", "solidus": "slash"}.get(base, base)
    return "+".join([*modifiers, base])
