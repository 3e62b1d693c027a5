"""Keys that act only inside /settings and /scoped-models (keymap.SCREEN_KEYS, pi's ids) are remappable in
keybindings.json, listed in /hotkeys, and never taken by the editor: Ctrl+P still cycles models, Ctrl+A and
Ctrl+X still edit, Enter still sends."""

from __future__ import annotations

import json
from pathlib import Path

from pi_tui.tui.keymap import DESCRIPTIONS, SCREEN_DESCRIPTIONS, SCREEN_KEYS, Keymap, load_keymap


def test_screen_keys_are_not_editor_actions() -> None:
    keymap = Keymap()
    assert keymap.action_for("ctrl+p") == "app.model.cycleForward"
    assert keymap.action_for("enter") == "tui.input.submit"
    assert keymap.action_for("ctrl+s") is None and keymap.action_for("ctrl+a") is None
    assert keymap.screen_action("ctrl+p", tuple(SCREEN_KEYS)) == "app.models.toggleProvider"
    assert keymap.screen_action("space", ("tui.select.confirm",)) == "tui.select.confirm"
    assert all(action in DESCRIPTIONS or action in SCREEN_DESCRIPTIONS for action in SCREEN_KEYS)


def test_screen_keys_are_remappable(tmp_path: Path) -> None:
    path = tmp_path / "keybindings.json"
    path.write_text(json.dumps({"app.models.save": "ctrl+w", "tui.select.confirm": ["enter"]}))
    keymap = load_keymap(path)
    assert keymap.warnings == []
    assert keymap.screen_action("ctrl+w", ("app.models.save",)) == "app.models.save"
    assert keymap.screen_action("ctrl+s", ("app.models.save",)) is None
    assert keymap.screen_action("space", ("tui.select.confirm",)) is None
