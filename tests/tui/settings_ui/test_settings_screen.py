"""``/settings`` in a real PiApp over a real AgentSession (issue 12): each change is in settings.json at once
and in force in the running session; a project override is shown and wins; a bad number is refused with a
message and nothing is saved; the theme is previewed and Esc restores it; the next start reads what was saved."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Static

from pi_tui.coding.agent_session.factory import create_agent_session
from pi_tui.coding.config.settings import SettingsManager
from pi_tui.coding.resources import trust
from pi_tui.tui.modals.fuzzy_picker import FuzzyPicker
from pi_tui.tui.modals.settings_screen import SettingsScreen
from tests.tui.helpers import make_app, settle, wait_until

pytestmark = pytest.mark.anyio

def _saved(home: Path) -> dict[str, Any]:
    return json.loads((home / "settings.json").read_text())


def _app(home: Path, cwd: Path) -> Any:
    session = create_agent_session(str(cwd), no_session=True, persist_settings=True)
    manager = SettingsManager.create(str(cwd), home)
    return make_app(session, settings_manager=manager, cwd=str(cwd))


async def _open(pilot: Any) -> SettingsScreen:
    await settle(pilot)
    pilot.app.prompt_input.insert("/settings")
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, SettingsScreen))
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, SettingsScreen)
    return screen


async def _go_to(pilot: Any, screen: SettingsScreen, setting_id: str) -> None:
    """Filter by the row's label (typed as far as it has no space; the rest set directly), so it is the
    first row shown."""
    from pi_tui.coding.config.settings_schema import spec_by_id

    label = spec_by_id(setting_id).label.lower()
    typed = label.split(" ")[0]
    for char in typed:
        await pilot.press(char)
    assert screen.filter == typed  # typing filters
    screen.filter = label
    screen._redraw()
    await pilot.pause()
    state = screen.highlighted_state()
    assert state is not None and state.spec.id == setting_id, state


async def _clear_filter(pilot: Any, screen: SettingsScreen) -> None:
    while screen.filter:
        await pilot.press("backspace")


def _message(screen: SettingsScreen) -> str:
    return str(screen.query_one("#settings-message", Static).render())


async def test_toggles_and_choices_are_saved_and_applied_at_once(home: Path, tmp_path: Path) -> None:
    app = _app(home, tmp_path)
    async with app.run_test(size=(110, 40)) as pilot:
        screen = await _open(pilot)
        session = app.session
        await _go_to(pilot, screen, "autocompact")
        await pilot.press("enter")
        assert _saved(home)["compaction"]["enabled"] is False
        assert session.settings.compaction.enabled is False
        await _clear_filter(pilot, screen)
        await _go_to(pilot, screen, "steering-mode")
        await pilot.press("enter")  # (Space would go into the filter: it has begun)
        assert _saved(home)["steeringMode"] == "all" and session.agent.steering_mode == "all"
        await _clear_filter(pilot, screen)
        await _go_to(pilot, screen, "retry")
        await pilot.press("enter")
        assert _saved(home)["retry"]["enabled"] is False and session.settings.retry.enabled is False
        await _clear_filter(pilot, screen)
        await _go_to(pilot, screen, "block-images")
        await pilot.press("enter")
        assert _saved(home)["images"]["blockImages"] is True and session.settings.block_images is True
        await _clear_filter(pilot, screen)
        await _go_to(pilot, screen, "hide-thinking")
        await pilot.press("enter")
        assert _saved(home)["hideThinkingBlock"] is True and app.ctx.hide_thinking is True
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, SettingsScreen))
    again = create_agent_session(str(tmp_path), no_session=True, persist_settings=True)  # a restart
    assert not again.settings.compaction.enabled and again.agent.steering_mode == "all"
    assert not again.settings.retry.enabled and again.settings.block_images


async def test_a_space_in_a_filter_filters_and_changes_nothing(home: Path, tmp_path: Path) -> None:
    """New-user run #40: typing "Hide thinking" as the label reads flipped the highlighted setting at the space and
    saved it. A space is part of a filter that has begun; Space on an empty filter still changes the row."""
    app = _app(home, tmp_path)
    async with app.run_test(size=(110, 40)) as pilot:
        screen = await _open(pilot)
        for char in "Hide thinking":
            await pilot.press("space" if char == " " else char)
        await pilot.pause()
        assert screen.filter == "Hide thinking"
        state = screen.highlighted_state()
        assert state is not None and state.spec.id == "hide-thinking"
        assert not (home / "settings.json").exists() or "hideThinkingBlock" not in _saved(home)
        await pilot.press("enter")
        assert _saved(home)["hideThinkingBlock"] is True


async def test_numbers_are_validated_before_they_are_saved(home: Path, tmp_path: Path) -> None:
    app = _app(home, tmp_path)
    async with app.run_test(size=(110, 40)) as pilot:
        screen = await _open(pilot)
        await _go_to(pilot, screen, "compaction-reserve")
        await pilot.press("enter")
        box = screen.query_one("#settings-edit", Input)
        assert screen.editing is not None and box.has_focus and box.value == "16384"
        box.value = "-3"
        await pilot.press("enter")
        assert "outside 0..1000000" in _message(screen) and screen.editing is not None
        assert not (home / "settings.json").exists()  # nothing saved
        box.value = "lots"
        await pilot.press("enter")
        assert "is not a whole number" in _message(screen)
        box.value = "8000"
        await pilot.press("enter")
        assert screen.editing is None
        assert _saved(home)["compaction"]["reserveTokens"] == 8000
        assert app.session.settings.compaction.reserve_tokens == 8000
        await _clear_filter(pilot, screen)
        await _go_to(pilot, screen, "retry-delay")
        await pilot.press("enter")
        screen.query_one("#settings-edit", Input).value = "500"
        await pilot.press("enter")
        assert app.session.settings.retry.base_delay_ms == 500 and _saved(home)["retry"]["baseDelayMs"] == 500
        await _clear_filter(pilot, screen)
        await _go_to(pilot, screen, "retry-max")
        await pilot.press("enter")
        await pilot.press("escape")  # closes the input, not the screen; nothing saved
        assert screen.editing is None and isinstance(app.screen, SettingsScreen)
        assert "maxRetries" not in _saved(home)["retry"]


async def test_a_project_override_is_shown_and_wins(home: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".pi-tui").mkdir(parents=True)
    (project / ".pi-tui" / "settings.json").write_text(json.dumps({"compaction": {"keepRecentTokens": 1000}}))
    trust.decide(str(project), trust.TrustChoice.TRUST, home)
    app = _app(home, project)
    async with app.run_test(size=(110, 40)) as pilot:
        screen = await _open(pilot)
        await _go_to(pilot, screen, "compaction-keep")
        state = screen.highlighted_state()
        assert state is not None and state.overridden and state.value == 1000
        detail = str(screen.query_one("#settings-detail", Static).render())
        assert "sets 1000 and wins here" in detail and "global: not set" in detail
        await pilot.press("enter")
        screen.query_one("#settings-edit", Input).value = "30000"
        await pilot.press("enter")
        assert _saved(home)["compaction"]["keepRecentTokens"] == 30000  # saved globally
        assert app.session.settings.compaction.keep_recent_tokens == 1000  # the project value stays in force
        detail = str(screen.query_one("#settings-detail", Static).render())
        assert "(global: 30000)" in detail


async def test_the_theme_is_previewed_and_escape_restores_it(home: Path, tmp_path: Path) -> None:
    app = _app(home, tmp_path)
    async with app.run_test(size=(110, 40)) as pilot:
        screen = await _open(pilot)
        await _go_to(pilot, screen, "theme")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, FuzzyPicker))
        await pilot.press("down")
        await pilot.pause()
        previewed = app.pi_theme.name
        assert previewed != "dark"
        assert not (home / "settings.json").exists()  # a preview is not saved
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        assert app.pi_theme.name == "dark"
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, FuzzyPicker))
        for char in "nord":
            await pilot.press(char)
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is screen)
        assert app.pi_theme.name == "nord" and _saved(home)["theme"] == "nord"


async def test_thinking_level_and_default_model_lists(home: Path, tmp_path: Path) -> None:
    app = _app(home, tmp_path)
    async with app.run_test(size=(110, 40)) as pilot:
        screen = await _open(pilot)
        await _go_to(pilot, screen, "thinking")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, FuzzyPicker))
        for char in "high":
            await pilot.press(char)
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is screen)
        assert app.session.thinking_level == "high" and _saved(home)["defaultThinkingLevel"] == "high"
        await _clear_filter(pilot, screen)
        await _go_to(pilot, screen, "default-model")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, FuzzyPicker))
        for char in "gamma":
            await pilot.press(char)
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is screen)
        saved = _saved(home)
        assert (saved["defaultProvider"], saved["defaultModel"]) == ("local", "gamma")
    again = create_agent_session(str(tmp_path), no_session=True, persist_settings=True)
    assert again.model is not None and again.model.id == "gamma"


async def test_typing_a_filter_highlights_its_first_match_names_before_keys(home: Path, tmp_path: Path) -> None:
    """Found in the tmux run: with "Hide thinking" highlighted, typing "block" kept it highlighted (its key
    hideThinkingBlock matched), so Space toggled thinking instead of "Block images"."""
    app = _app(home, tmp_path)
    async with app.run_test(size=(110, 40)) as pilot:
        screen = await _open(pilot)
        await pilot.press("down", "down", "down")
        state = screen.highlighted_state()
        assert state is not None and state.spec.id == "hide-thinking"
        for char in "block":
            await pilot.press(char)
        assert [s.spec.id for s in screen.shown] == ["block-images", "hide-thinking"]
        state = screen.highlighted_state()
        assert state is not None and state.spec.id == "block-images"
        await pilot.press("enter")  # (Space would extend the filter that has begun: new-user run #40)
        assert _saved(home) == {"images": {"blockImages": True}}
