"""``/scoped-models`` in a real PiApp over a real AgentSession (issue 12; pi's scoped-models selector): toggling
a model changes what Ctrl+P cycles through at once, Ctrl+S saves ``enabledModels``, the next start cycles the
saved scope, and the selector's list operations follow pi's (unit tests of toggle/enable_all/clear_all/move)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pi_tui.coding.agent_session.factory import create_agent_session
from pi_tui.coding.config.settings import SettingsManager
from pi_tui.tui.modals.scoped_models import ScopedModelsScreen, clear_all, enable_all, move, toggle
from tests.tui.helpers import make_app, settle, wait_until

pytestmark = pytest.mark.anyio

ALL = ["local/alpha", "local/beta", "local/gamma"]


def test_list_operations_follow_pi() -> None:
    assert toggle(None, "local/beta") == ["local/beta"]
    assert toggle(["local/beta"], "local/alpha") == ["local/beta", "local/alpha"]
    assert toggle(["local/beta", "local/alpha"], "local/beta") == ["local/alpha"]
    assert enable_all(["local/beta"], ALL) is None
    assert enable_all(["local/beta"], ALL, ["local/gamma"]) == ["local/beta", "local/gamma"]
    assert clear_all(None, ALL) == [] and clear_all(None, ALL, ["local/beta"]) == ["local/alpha", "local/gamma"]
    assert move(["local/alpha", "local/beta"], "local/beta", -1) == ["local/beta", "local/alpha"]
    assert move(["local/alpha", "local/beta"], "local/alpha", -1) == ["local/alpha", "local/beta"]


async def _open(pilot: Any) -> ScopedModelsScreen:
    await settle(pilot)
    pilot.app.prompt_input.insert("/scoped-models")
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ScopedModelsScreen))
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, ScopedModelsScreen)
    return screen


async def test_the_selection_limits_ctrl_p_and_ctrl_s_saves_it(home: Path, tmp_path: Path) -> None:
    session = create_agent_session(str(tmp_path), no_session=True, persist_settings=True)
    app = make_app(session, settings_manager=SettingsManager.create(str(tmp_path), home), cwd=str(tmp_path))
    async with app.run_test(size=(110, 40)) as pilot:
        screen = await _open(pilot)
        assert screen.enabled is None and screen.shown == ALL
        await pilot.press("down", "down")  # gamma
        await pilot.press("enter")  # from "all": only gamma
        assert [s.model.id for s in session.scoped_models] == ["gamma"]
        await pilot.press("up", "up")
        assert screen.highlighted_id() == "local/alpha"
        await pilot.press("space")
        assert screen.enabled == ["local/gamma", "local/alpha"]
        assert [s.model.id for s in session.scoped_models] == ["gamma", "alpha"]
        assert not (home / "settings.json").exists() or "enabledModels" not in (home / "settings.json").read_text()
        await pilot.press("ctrl+s")
        assert json.loads((home / "settings.json").read_text())["enabledModels"] == ["local/gamma", "local/alpha"]
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, ScopedModelsScreen))
        session.set_model(session.models.find("local", "alpha"))  # type: ignore[arg-type]
        seen = []
        for _ in range(3):
            await pilot.press("ctrl+p")
            await pilot.pause()
            assert session.model is not None
            seen.append(session.model.id)
        assert seen == ["gamma", "alpha", "gamma"]  # beta is out of the scope
    again = create_agent_session(str(tmp_path), no_session=True, persist_settings=True)  # a restart
    assert [s.model.id for s in again.scoped_models] == ["gamma", "alpha"]


async def test_filter_provider_toggle_reorder_and_clear(home: Path, tmp_path: Path) -> None:
    session = create_agent_session(str(tmp_path), no_session=True, persist_settings=True)
    app = make_app(session, settings_manager=SettingsManager.create(str(tmp_path), home), cwd=str(tmp_path))
    async with app.run_test(size=(110, 40)) as pilot:
        screen = await _open(pilot)
        for char in "bet":
            await pilot.press(char)
        assert screen.shown == ["local/beta"]
        await pilot.press("ctrl+x")  # clear everything the filter shows
        assert screen.enabled == ["local/alpha", "local/gamma"]
        await pilot.press("backspace", "backspace", "backspace")
        assert screen.shown == ["local/alpha", "local/gamma", "local/beta"]  # enabled first
        assert screen.highlighted_id() == "local/beta"  # the highlight stays on its model
        await pilot.press("up")
        assert screen.highlighted_id() == "local/gamma"
        await pilot.press("alt+up")  # gamma first in the cycle order
        assert screen.enabled == ["local/gamma", "local/alpha"]
        assert [s.model.id for s in session.scoped_models] == ["gamma", "alpha"]
        await pilot.press("ctrl+p")  # every local model: all were not enabled, so all are now
        assert screen.enabled is None and session.scoped_models == []
        await pilot.press("ctrl+s")
        assert "enabledModels" not in json.loads((home / "settings.json").read_text())


async def test_an_empty_selection_says_what_it_means_and_is_not_saved(home: Path, tmp_path: Path) -> None:
    """New-user run #34: Ctrl+X showed every model off ("0/2 enabled"), Ctrl+S saved ``"enabledModels": []``,
    and Ctrl+P then cycled through every model."""
    session = create_agent_session(str(tmp_path), no_session=True, persist_settings=True)
    app = make_app(session, settings_manager=SettingsManager.create(str(tmp_path), home), cwd=str(tmp_path))
    async with app.run_test(size=(110, 40)) as pilot:
        screen = await _open(pilot)
        hint = screen.query_one("#scoped-hint")
        # no scope: the hint says what Enter does from here (tester3 #15: it turned every other model off, unsaid)
        assert "all enabled (Enter: only this one)" in str(hint.render())
        await pilot.press("ctrl+x")
        assert screen.enabled == []
        assert "0/3 enabled (none = Ctrl+P cycles every model)" in str(hint.render())
        await pilot.press("ctrl+s")
        settings = home / "settings.json"
        assert not settings.exists() or "enabledModels" not in json.loads(settings.read_text())
        assert "Not saved: enable at least one model." in str(hint.render())
        await pilot.press("enter")  # one model on: the note goes, and Ctrl+S saves
        assert "Not saved" not in str(hint.render())
        await pilot.press("ctrl+s")
        assert json.loads(settings.read_text())["enabledModels"] == ["local/alpha"]
