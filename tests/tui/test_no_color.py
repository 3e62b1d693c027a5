"""NO_COLOR: Textual renders in monochrome; every strip the transcript makes must carry a style (found in tmux:
the app crashed on start with NO_COLOR=1 because blank strips had no style)."""

from __future__ import annotations

import pytest

from .snapshots.scenarios import build_conversation, build_notification_artifact, build_tool_panel


@pytest.mark.anyio
@pytest.mark.parametrize("build", [build_conversation, build_notification_artifact, build_tool_panel])
async def test_scenarios_render_with_no_color(build: object, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app, drive, size = build()  # type: ignore[operator]
    assert app.no_color
    async with app.run_test(size=size) as pilot:
        await drive(pilot)
        await pilot.press("ctrl+o")
        await pilot.pause(0.1)
        assert app.transcript.visible_text().strip()
    assert app.return_code in (None, 0)
