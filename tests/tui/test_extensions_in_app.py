"""Extensions in the app (issue 11): a dropped-in extension's shortcut runs from the keymap, its status
segment is the footer's third line, its dialogs are modals, and a shortcut taken by the app is refused
with one warning."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from pi_tui.tui.modals.confirm import ConfirmModal
from tests.tui.helpers import make_app, make_session, settle, transcript_text, wait_until

EXTENSION = """
def activate(pi):
    async def toggle(ctx):
        ok = await ctx.ui.confirm("Enter plan mode?")
        ctx.ui.set_status("plan", "⏸ plan mode" if ok else None)
        pi.notify("plan mode " + ("on" if ok else "off"))
    pi.register_shortcut("f6", toggle, "Toggle plan mode")
    pi.register_shortcut("ctrl+o", lambda ctx: None, "Taken by the app")
    pi.on("session_start", lambda event, ctx: ctx.ui.set_status("ext", "ext loaded"))
"""


@pytest.mark.anyio
async def test_shortcut_dialog_status_and_refused_key(tmp_path: Path) -> None:
    ext = tmp_path / "plan.py"
    ext.write_text(textwrap.dedent(EXTENSION))
    session, _ = make_session(tmp_path, extension_paths=[str(ext)])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await wait_until(pilot, lambda: app.footer.data.statuses == {"ext": "ext loaded"})
        assert "ext loaded" in app.footer.render().plain.splitlines()[-1]
        assert "Extension shortcut ctrl+o ignored: the key is already app.tools.expand" in transcript_text(app)
        await pilot.press("f6")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmModal))
        await pilot.press("y")
        await wait_until(pilot, lambda: app.footer.data.statuses.get("plan") == "⏸ plan mode")
        await settle(pilot)
        assert "plan mode on" in transcript_text(app)
        lines: Any = app.footer.render().plain.splitlines()
        assert lines[-1] == "ext loaded ⏸ plan mode"
