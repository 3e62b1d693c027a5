"""Double Escape with an empty editor opens /tree or /fork as pi's ``doubleEscapeAction`` setting says (pi 0.73.1
docs/settings.md: ``tree`` (default) / ``fork`` / ``none``; interactive-mode's editor ``onEscape``: two presses
within 500 ms, only when nothing runs and the editor is empty). It did nothing (issue 12 leftover)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message
from pi_tui.tui.modals.fork_picker import ForkPicker
from pi_tui.tui.modals.session_tree import SessionTreeScreen

from .helpers import make_app, make_session, wait_until
from .test_tree_screen import _prompt

pytestmark = pytest.mark.anyio


class Clock:
    """The app's double-press clock, moved by the test (no sleeping)."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


async def _app_with(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, action: str | None) -> tuple[Any, Clock]:
    agent = tmp_path / "cfg"
    agent.mkdir()
    monkeypatch.setenv("PI_TUI_DIR", str(agent))
    if action is not None:
        (agent / "settings.json").write_text(json.dumps({"doubleEscapeAction": action}))
    session, _ = make_session(tmp_path, [faux_assistant_message("an answer")], persist_settings=True)
    app = make_app(session)
    clock = Clock()
    app.now = clock  # type: ignore[method-assign]
    return app, clock


@pytest.mark.parametrize(("action", "screen"), [(None, SessionTreeScreen), ("tree", SessionTreeScreen),
                                                ("fork", ForkPicker)])
async def test_double_escape_on_an_empty_editor_opens_the_setting_s_screen(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, action: str | None, screen: type) -> None:
    app, clock = await _app_with(tmp_path, monkeypatch, action)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _prompt(pilot, "a question")
        await pilot.press("escape")
        await pilot.pause(0.1)
        assert not isinstance(app.screen, screen)  # one Escape: nothing
        clock.t += 0.2
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, screen))


async def test_no_screen_for_none_slow_presses_or_text_in_the_editor(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app, clock = await _app_with(tmp_path, monkeypatch, "tree")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _prompt(pilot, "a question")
        await pilot.press("escape")
        clock.t += 0.8  # slower than pi's 500 ms
        await pilot.press("escape")
        await pilot.pause(0.2)
        assert not isinstance(app.screen, SessionTreeScreen)
        app.prompt_input.set_text("draft")
        clock.t += 5
        await pilot.press("escape")
        clock.t += 0.1
        await pilot.press("escape")
        await pilot.pause(0.2)
        assert not isinstance(app.screen, SessionTreeScreen) and app.prompt_input.text == "draft"
    (tmp_path / "b").mkdir()
    app, clock = await _app_with(tmp_path / "b", monkeypatch, "none")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _prompt(pilot, "a question")
        await pilot.press("escape")
        clock.t += 0.1
        await pilot.press("escape")
        await pilot.pause(0.2)
        assert not isinstance(app.screen, (SessionTreeScreen, ForkPicker))
