"""New-user run #26: an assistant turn with only a tool call (no text) takes no rows, so the tool follows the
prompt (and the previous tool) after one blank row, as other blocks do; at 60x16 those rows mattered."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message, faux_text, faux_tool_call
from pi_tui.tui.widgets.transcript_items import AssistantItem

from .helpers import make_app, make_session, transcript_text, wait_until

pytestmark = pytest.mark.anyio


def _blank_run(lines: list[str], after: str, before: str) -> int:
    """Blank lines between the last line containing ``after`` and the next one containing ``before``."""
    start = max(i for i, line in enumerate(lines) if after in line)
    end = next(i for i in range(start + 1, len(lines)) if before in lines[i])
    return sum(1 for line in lines[start + 1:end] if not line.strip())


async def test_a_tool_call_only_turn_leaves_no_gap(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello\n")
    session, _ = make_session(tmp_path, [
        faux_assistant_message([faux_tool_call("read", {"path": "notes.txt"})], stop_reason="toolUse"),
        faux_assistant_message([faux_tool_call("read", {"path": "notes.txt"})], stop_reason="toolUse"),
        faux_assistant_message([faux_text("done")]),
    ])
    app = make_app(session)
    async with app.run_test(size=(60, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.insert("read it")
        await pilot.press("enter")
        await wait_until(pilot, lambda: "done" in transcript_text(app))
        await pilot.pause(0.2)
        ctx = app.transcript.ctx
        empty = [i for i in app.transcript.items if isinstance(i, AssistantItem) and not i.plain_text().strip()]
        assert len(empty) == 2 and all(i.strips(ctx, 58) == [] for i in empty)
        assert all(i.guess_height(ctx, 58) == 0 for i in empty)
        lines = transcript_text(app).split("\n")
        # the user bubble's padding row, one spacer, the tool box's padding row: as between other blocks
        assert _blank_run(lines, "read it", "read notes.txt") == 3
        tool_gap = _blank_run(lines[: max(i for i, line in enumerate(lines) if "read notes.txt" in line) + 1],
                              "hello", "read notes.txt")
        assert tool_gap == 3, lines
