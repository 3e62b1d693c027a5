"""tester2 #8's sibling: ``/copy`` with no clipboard tool fell back to OSC 52 saying only "no clipboard tool found";
it now says what to install, or that no tool can work without a display (over SSH), as Ctrl+V does. (Ctrl+V itself
already said so on today's main: ``test_image_attach.py::test_ctrl_v_without_a_clipboard_tool_says_so``; the
tester's silent Ctrl+V did not reproduce in tmux.)"""

from __future__ import annotations

import asyncio

import pytest

from pi_tui.tui import clipboard


def test_the_hint_names_what_to_install_or_the_missing_display() -> None:
    assert "install wl-clipboard (Wayland) or xclip (X11)" in clipboard.missing_tool_hint({"DISPLAY": ":0"}, "linux")
    over_ssh = clipboard.missing_tool_hint({}, "linux")
    assert "DISPLAY and WAYLAND_DISPLAY are not set" in over_ssh
    assert "pbcopy" in clipboard.missing_tool_hint({}, "darwin")


def test_copy_without_a_tool_says_osc_52_and_what_to_do(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clipboard, "copy_with_tool", lambda text, timeout=2.0: None)
    monkeypatch.setattr(clipboard.sys, "platform", "linux")
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    sent: list[str] = []
    message = asyncio.run(clipboard.copy_text("answer", sent.append))
    assert sent == ["answer"]
    assert "OSC 52" in message and "install wl-clipboard (Wayland) or xclip (X11)" in message
