"""keybindings.json loading (pi's action ids, legacy names) and key-name conversion."""

from __future__ import annotations

import json
from pathlib import Path

from pi_tui.coding.config.keybindings import (
    DEFAULT_KEYBINDINGS,
    load_keybindings,
    normalize_key,
    to_textual_key,
)


def test_defaults_when_no_file(tmp_path: Path) -> None:
    bindings = load_keybindings(tmp_path / "none.json")
    assert bindings.keys_for("app.interrupt") == ["escape"]
    assert bindings.keys_for("app.message.followUp") == ["alt+enter"]
    assert bindings.errors == [] and bindings.user == {}
    assert len(bindings.bindings) == len(DEFAULT_KEYBINDINGS)


def test_user_overrides_legacy_names_and_bad_entries(tmp_path: Path) -> None:
    path = tmp_path / "keybindings.json"
    path.write_text(
        json.dumps(
            {
                "app.model.select": "ctrl+k",
                "cursorUp": ["up", "ctrl+p"],
                "interrupt": "ctrl+g",
                "app.interrupt": ["escape", "ctrl+["],
                "app.session.new": [],
                "app.thinking.toggle": 5,
                "ext.custom": "f5",
            }
        )
    )
    bindings = load_keybindings(path)
    assert bindings.keys_for("app.model.select") == ["ctrl+k"]
    assert bindings.keys_for("tui.editor.cursorUp") == ["up", "ctrl+p"]
    assert bindings.keys_for("app.interrupt") == ["escape", "ctrl+["]  # current id wins over legacy name
    assert bindings.keys_for("app.session.new") == []
    assert bindings.keys_for("app.thinking.toggle") == ["ctrl+t"]
    assert bindings.keys_for("ext.custom") == ["f5"]
    assert len(bindings.errors) == 1 and "app.thinking.toggle" in bindings.errors[0]
    assert "app.model.select" in bindings.actions_for("CTRL+K")


def test_invalid_file_keeps_defaults(tmp_path: Path) -> None:
    path = tmp_path / "keybindings.json"
    path.write_text("[1, 2")
    bindings = load_keybindings(path)
    assert bindings.keys_for("app.exit") == ["ctrl+d"] and len(bindings.errors) == 1


def test_key_names() -> None:
    assert normalize_key("shift+ctrl+P") == "ctrl+shift+p"
    assert to_textual_key("shift+ctrl+p") == "ctrl+shift+p"
    assert to_textual_key("pageUp") == "pageup"
    assert to_textual_key("ctrl+]") == "ctrl+right_square_bracket"
    assert to_textual_key("ctrl+-") == "ctrl+minus"
    assert to_textual_key("alt+enter") == "alt+enter"
    assert to_textual_key("ctrl++") == "ctrl+plus"


def test_a_key_that_is_not_a_key_is_refused_and_the_default_kept(tmp_path: Path) -> None:
    """New-user run: ``"app.editor.external": "notakey+++"`` bound the plus key, so typing ``a+b`` opened the
    external editor. pi's key format (docs/keybindings.md "Key Format"): modifiers ctrl/shift/alt, then one
    letter, digit, symbol, special key or f1-f12."""
    path = tmp_path / "keybindings.json"
    path.write_text(json.dumps({
        "app.editor.external": "notakey+++",
        "app.model.select": ["ctrl+k", "hyper+k", "ctrl+"],
        "app.tools.expand": ["ctrl+shift+alt+x"],
        "app.thinking.toggle": ["f13"],
    }))
    bindings = load_keybindings(path)
    assert bindings.keys_for("app.editor.external") == ["ctrl+g"]  # nothing valid left: the default stays
    assert bindings.keys_for("app.model.select") == ["ctrl+k"]  # the valid key of the list is kept
    assert bindings.keys_for("app.tools.expand") == ["ctrl+shift+alt+x"]
    text = "\n".join(bindings.errors)
    assert '"notakey+++"' in text and "app.editor.external" in text
    assert '"hyper+k"' in text and '"ctrl+"' in text and '"f13"' in text
    assert len(bindings.errors) == 4


def test_pis_key_format_is_accepted() -> None:
    from pi_tui.coding.config.keybindings import key_problem

    for key in ("a", "Z", "0", "ctrl+a", "shift+ctrl+p", "alt+enter", "pageUp", "PageDown", "esc", "return", "f1",
                "f12", "ctrl+]", "ctrl+-", "ctrl++", "+", "ctrl+alt+]", "space", "insert", "clear", "backspace",
                "ctrl+backspace", "shift+tab", "?", "ctrl+\\"):
        assert key_problem(key) is None, key
    for key in ("", "notakey", "notakey+++", "hyper+k", "ctrl+", "f13", "ctrl+ctrl", "ctrl+ab", "é"):
        assert key_problem(key) is not None, key
