"""Issue 9 (small item): a remapped key was still shown under its default name in hints. Every hint (header,
editor title, tool panel title, collapsed-output hints, queue hint) reads the keymap."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message, faux_tool_call
from pi_tui.tui.keymap import Keymap
from pi_tui.tui.widgets.transcript_items import ToolItem

from .helpers import make_app, make_session, transcript_text, wait_until
from .test_key_routing import keys_for


@pytest.mark.anyio
async def test_every_hint_names_the_remapped_key(tmp_path: Path) -> None:
    km = Keymap()
    km.keys["app.tools.expand"] = ["ctrl+e"]
    km.keys["app.tools.panel"] = ["f6"]
    km.keys["app.interrupt"] = ["ctrl+x"]
    session, _ = make_session(tmp_path, [
        faux_assistant_message(faux_tool_call("bash", {"command": "seq 1 30"}, id="c1"), stop_reason="toolUse"),
        faux_assistant_message(faux_tool_call("bash", {"command": "sleep 30"}, id="c2"), stop_reason="toolUse"),
        faux_assistant_message("never"),
    ])
    app = make_app(session, keymap=km)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.press(*keys_for("go"), "enter")
        await wait_until(pilot, lambda: any(isinstance(i, ToolItem) and i.tool_call_id == "c2"
                                            and i.status == "running" for i in app.transcript.items))
        await pilot.press("f6")
        await wait_until(pilot, lambda: app.tool_panel.is_built)
        await pilot.pause(0.1)
        app.transcript.flush()
        text = transcript_text(app)
        assert "Ctrl+E to expand" in text and "Ctrl+O" not in text
        title = str(app.prompt_input.border_title)
        assert "Ctrl+X: abort" in title and "Esc" not in title
        header = app.header_widget.hints
        assert "F6 tools" in header and "Ctrl+E expand" in header and "F2" not in header
        panel_title = str(app.tool_panel.query_one("#tool-title").render())
        assert "F6 close" in panel_title and "F2" not in panel_title
        await pilot.press("ctrl+x")  # the remapped interrupt key aborts from the panel too
        await wait_until(pilot, lambda: not app.working)
