"""A keybindings.json key that another action of the same screen already uses is reported once and resolved by
pi's rule (a user binding shadows a default one; of two user bindings the first in the file wins). It used to
lose silently: ``"app.tools.expand": "ctrl+p"`` left Ctrl+P cycling models (issue 9's class)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_tui.tui.keymap import load_keymap

from .helpers import make_app, make_session, transcript_text, wait_until

pytestmark = pytest.mark.anyio


def _keymap(tmp_path: Path, bindings: dict[str, object]):  # type: ignore[no-untyped-def]
    path = tmp_path / "keybindings.json"
    path.write_text(json.dumps(bindings))
    return load_keymap(path)


def test_a_user_key_taken_from_a_default_action_is_reported_and_wins(tmp_path: Path) -> None:
    km = _keymap(tmp_path, {"app.tools.expand": "ctrl+p"})
    assert km.action_for("ctrl+p") == "app.tools.expand"
    assert km.keys["app.model.cycleForward"] == []
    assert len(km.conflicts) == 1
    text = km.conflicts[0]
    assert "Ctrl+P" in text and "app.tools.expand" in text and "app.model.cycleForward" in text
    assert text in km.warnings and str(tmp_path / "keybindings.json") in text


def test_two_user_bindings_of_one_key_the_first_in_the_file_wins(tmp_path: Path) -> None:
    km = _keymap(tmp_path, {"app.thinking.toggle": ["ctrl+y"], "app.tools.panel": ["f2", "ctrl+y"]})
    assert km.action_for("ctrl+y") == "app.thinking.toggle"
    assert km.keys["app.tools.panel"] == ["f2"]
    assert len(km.conflicts) == 1 and "app.thinking.toggle gets it" in km.conflicts[0]
    km = _keymap(tmp_path, {"app.tools.panel": ["f2", "ctrl+y"], "app.thinking.toggle": ["ctrl+y"]})
    assert km.action_for("ctrl+y") == "app.tools.panel"


def test_the_same_key_on_another_screen_is_no_clash(tmp_path: Path) -> None:
    km = _keymap(tmp_path, {"app.tree.filter.noTools": "ctrl+p", "app.session.rename": "ctrl+e"})
    assert km.conflicts == []
    assert km.action_for("ctrl+p") == "app.model.cycleForward"
    assert km.scoped_action_for("ctrl+p", "app.tree.") == "app.tree.filter.noTools"
    km = _keymap(tmp_path, {"app.tree.editLabel": "ctrl+u"})  # the tree's user-only filter has Ctrl+U
    assert km.scoped_action_for("ctrl+u", "app.tree.") == "app.tree.editLabel" and len(km.conflicts) == 1
    assert km.keys["app.tree.filter.userOnly"] == []


def test_no_user_file_no_conflicts(tmp_path: Path) -> None:
    assert load_keymap(tmp_path / "missing.json").conflicts == []


async def test_the_clash_is_shown_at_start_and_in_hotkeys(tmp_path: Path) -> None:
    km = _keymap(tmp_path, {"app.tools.expand": "ctrl+p"})
    session, _ = make_session(tmp_path)
    app = make_app(session, keymap=km)
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await wait_until(pilot, lambda: "app.model.cycleForward" in transcript_text(app))
        start = " ".join(transcript_text(app).split())
        assert start.count("no longer answers to it") == 1  # once
        app.prompt_input.text = "/hotkeys"
        await pilot.press("enter")
        await wait_until(pilot, lambda: " ".join(transcript_text(app).split()).count("no longer answers") == 2)
