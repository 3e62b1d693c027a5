"""tester2 #20: an extension's shortcut (``pi.register_shortcut("ctrl+k", handler, "ext key")``) worked, but
``/hotkeys`` and the F1 palette did not list it: both read only the built-in key descriptions. The keymap is the
one key registry (built-ins and the extensions' shortcuts, each with its description and extension name); both
views read it, and a palette pick runs the shortcut as the key does."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import make_app, make_session, transcript_text, wait_until
from .test_command_registry_ui import _palette_titles

pytestmark = pytest.mark.anyio

EXTENSION = """
def activate(pi):
    pi.register_shortcut("ctrl+k", lambda ctx: pi.notify("ext ctrl+k fired"), "ext key")
"""


async def test_extension_shortcuts_are_in_hotkeys_and_the_palette(tmp_path: Path) -> None:
    ext = tmp_path / "shortcuts.py"
    ext.write_text(EXTENSION)
    session, _ = make_session(tmp_path, [], extension_paths=[str(ext)])
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await wait_until(pilot, lambda: "ext.shortcut:ctrl+k" in app.keymap.keys)
        assert app.keymap.describe("ext.shortcut:ctrl+k") == "ext key (shortcuts)"
        app.prompt_input.insert("/hotkeys")
        await pilot.press("enter")
        await wait_until(pilot, lambda: "Extension shortcuts" in transcript_text(app))
        text = transcript_text(app)
        assert "Ctrl+K" in text and "ext key (shortcuts)" in text
        assert "ext key (shortcuts)" in await _palette_titles(pilot)
        app.dispatch_action("ext.shortcut:ctrl+k")  # what the palette entry runs
        await wait_until(pilot, lambda: "ext ctrl+k fired" in transcript_text(app))


async def test_a_reloaded_extension_without_the_shortcut_leaves_no_entry(tmp_path: Path) -> None:
    ext = tmp_path / "shortcuts.py"
    ext.write_text(EXTENSION)
    session, _ = make_session(tmp_path, [], extension_paths=[str(ext)])
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: "ext.shortcut:ctrl+k" in app.keymap.added)
        ext.write_text("def activate(pi):\n    pass\n")
        app.prompt_input.insert("/reload")
        await pilot.press("enter")
        await wait_until(pilot, lambda: "Reloaded" in transcript_text(app))
        await pilot.pause(0.2)
        assert "ext.shortcut:ctrl+k" not in app.keymap.added and "ext.shortcut:ctrl+k" not in app.keymap.keys
