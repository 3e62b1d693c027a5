"""After Ctrl+P (next model) and Shift+Tab (next thinking level) the thinking level is shown (issue 9).

The TUI held the session as ``Any`` and read ``result.get("thinkingLevel")`` from ``cycle_model()``, which
returns ``thinking_level``: the level never appeared. The session is now typed (``TuiSession``), so mypy
rejects such a key; this test keeps the behaviour.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import register_faux_provider
from pi_tui.coding.agent_session.factory import create_agent_session
from pi_tui.tui.widgets.footer import footer_lines
from tests.tui.helpers import make_app, transcript_text, wait_until


def footer_text(app: object) -> str:
    footer = app.footer  # type: ignore[attr-defined]
    a, b = footer_lines(footer.data, footer.pi_theme, 100)
    return a.plain + "\n" + b.plain


@pytest.mark.anyio
async def test_footer_and_notice_show_the_thinking_level_after_ctrl_p_and_shift_tab(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    faux = register_faux_provider(provider="faux", models=[
        {"id": "think-a", "name": "Think A", "reasoning": True, "context_window": 200000},
        {"id": "think-b", "name": "Think B", "reasoning": True, "context_window": 200000},
    ])
    try:
        session = create_agent_session(str(tmp_path), no_session=True)
        for model in faux.models:
            session.models.allow(faux.provider, model.id, model)
        session.set_model(faux.models[0])
        # Faux models are not in the built-in registry: list both as available (keyless, like the offline model).
        monkeypatch.setattr(session.models, "available_models", lambda: list(faux.models))
        app = make_app(session)
        async with app.run_test(size=(110, 30)) as pilot:
            await wait_until(pilot, lambda: app.session_ready)
            await pilot.press("ctrl+p")
            await pilot.pause()
            level = session.thinking_level
            assert session.model is not None and session.model.id == "think-b"
            assert f"Switched to Think B (thinking: {level})" in transcript_text(app)
            await wait_until(pilot, lambda: f"think-b • {level}" in footer_text(app))
            await pilot.press("shift+tab")
            await pilot.pause()
            new_level = session.thinking_level
            assert new_level != level
            assert f"Thinking level: {new_level}" in transcript_text(app)
            await wait_until(pilot, lambda: f"think-b • {new_level}" in footer_text(app))
    finally:
        faux.unregister()
