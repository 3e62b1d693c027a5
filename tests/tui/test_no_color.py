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


@pytest.mark.anyio
async def test_no_color_output_has_no_colour_codes_at_all(monkeypatch: pytest.MonkeyPatch) -> None:
    """NO_COLOR=1 means no colour, not grey: Textual's default (Monochrome) still emitted 256-colour greys
    (``38;5;248``) in tmux. Bold/italic/reverse may stay (no-color.org)."""
    import re

    from rich.color import ColorSystem

    monkeypatch.setenv("NO_COLOR", "1")
    app, drive, size = build_conversation()
    async with app.run_test(size=size) as pilot:
        await drive(pilot)
        await pilot.pause(0.1)
        # what the driver writes: every segment's style rendered for a 256-colour terminal
        ansi = "\n".join("".join(seg.style.render(seg.text, color_system=ColorSystem.EIGHT_BIT) if seg.style
                                  else seg.text for seg in strip) for strip in app.screen._compositor.render_strips())
        # the editor's cursor is still visible without colour (reverse video)
        assert any(seg.style and seg.style.reverse for strip in app.screen._compositor.render_strips()
                   for seg in strip)
    assert "Summarise notes.md" in re.sub(r"\x1b\[[0-9;]*m", "", ansi)
    params = [p for seq in re.findall(r"\x1b\[([0-9;]*)m", ansi) for p in seq.split(";") if p]
    colour = [p for p in params if p in ("38", "48") or 30 <= int(p) <= 37 or 40 <= int(p) <= 47
              or 90 <= int(p) <= 107]
    assert colour == [], sorted(set(re.findall(r"\x1b\[[0-9;]*m", ansi)))[:10]
