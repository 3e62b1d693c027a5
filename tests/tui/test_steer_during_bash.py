"""A steer typed while a long bash call runs does not end that call (reported by a helper of issue 9, not
reproduced then): steering is delivered after the tool batch (pi-reference §3.6), the call runs to its end and
the steer reaches the model with its result. Tried with the editor focused and with the tool panel open."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message, faux_tool_call
from pi_tui.tui.widgets.transcript_items import ToolItem

from .helpers import make_app, make_session, wait_until
from .test_key_routing import keys_for

COMMAND = "for i in 1 2 3 4 5 6; do echo tick $i; sleep 0.25; done; echo finished"


def user_texts(session: Any) -> list[str]:
    out = []
    for m in session.messages:
        if getattr(m, "role", None) == "user":
            content = m.content
            out.append(content if isinstance(content, str) else " ".join(getattr(b, "text", "") for b in content))
    return out


@pytest.mark.parametrize("panel", [False, True])
@pytest.mark.anyio
async def test_a_steer_during_bash_waits_for_the_call_to_finish(tmp_path: Path, panel: bool) -> None:
    session, faux = make_session(tmp_path, [
        faux_assistant_message(faux_tool_call("bash", {"command": COMMAND}), stop_reason="toolUse"),
        faux_assistant_message("Got the steer."),
    ])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.press(*keys_for("go"), "enter")
        await wait_until(pilot, lambda: any(isinstance(i, ToolItem) and "tick 1" in i.partial_text
                                            for i in app.transcript.items))
        if panel:
            await pilot.press("f2")
            await wait_until(pilot, lambda: app.tool_panel.is_built)
        await pilot.press(*keys_for("use python instead"), "enter")
        await wait_until(pilot, lambda: not app.working, limit=20)
        await session.wait_for_idle()
        tool = next(i for i in app.transcript.items if isinstance(i, ToolItem))
        assert tool.status == "done", (tool.status, tool.result_text)
        assert "tick 6" in tool.result_text and "finished" in tool.result_text
        assert "use python instead" in user_texts(session)
        assert "Got the steer." in "\n".join(str(getattr(m, "content", "")) for m in session.messages)
