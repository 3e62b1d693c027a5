"""``/reload`` in a real PiApp over a real AgentSession reloads, besides extensions, skills and templates, what
pi 0.73.1's ``handleReloadCommand`` does (issue 12): context files (AGENTS.md), themes (the theme file read
again), keybindings.json, models.json (new models, the current model's new values) and settings.json (applied
to the running session). One test each; every one types ``/reload`` as a user would."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pi_tui.coding.agent_session.factory import create_agent_session
from pi_tui.coding.config.settings import SettingsManager
from tests.tui.helpers import make_app, settle, wait_until

from .conftest import MODELS

pytestmark = pytest.mark.anyio

REPO_THEMES = Path(__file__).resolve().parents[3] / "themes"


def _app(home: Path, cwd: Path, theme: str = "dark") -> Any:
    session = create_agent_session(str(cwd), no_session=True, persist_settings=True)
    return make_app(session, theme=theme, settings_manager=SettingsManager.create(str(cwd), home), cwd=str(cwd))


async def _reload(pilot: Any) -> None:
    app = pilot.app
    before = len(app.transcript.items)
    app.prompt_input.insert("/reload")
    await pilot.press("enter")
    await wait_until(pilot, lambda: any("Reloaded keybindings, theme, settings and models.json" in str(
        getattr(item, "text", "")) for item in app.transcript.items[before:]))
    await pilot.pause()


async def test_reload_reads_context_files_again(home: Path, tmp_path: Path) -> None:
    app = _app(home, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert "Always answer in haiku." not in app.session.agent.state.system_prompt
        (tmp_path / "AGENTS.md").write_text("Always answer in haiku.\n")
        await _reload(pilot)
        assert "Always answer in haiku." in app.session.agent.state.system_prompt


async def test_reload_reads_the_theme_file_again(home: Path, tmp_path: Path) -> None:
    theme = json.loads((REPO_THEMES / "dark.json").read_text())
    theme["name"] = "mine"
    theme["colors"]["accent"] = "#112233"
    (home / "themes").mkdir()
    (home / "themes" / "mine.json").write_text(json.dumps(theme))
    (home / "settings.json").write_text(json.dumps({"theme": "mine"}))
    app = _app(home, tmp_path, theme="mine")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert app.pi_theme.hex("accent") == "#112233"
        theme["colors"]["accent"] = "#445566"
        (home / "themes" / "mine.json").write_text(json.dumps(theme))
        await _reload(pilot)
        assert app.pi_theme.name == "mine" and app.pi_theme.hex("accent") == "#445566"
        assert app.get_theme(app.theme) is not None and app.get_theme(app.theme).secondary == "#445566"


async def test_reload_reads_keybindings_again(home: Path, tmp_path: Path) -> None:
    app = _app(home, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert app.keymap.action_for("ctrl+e") is None
        (home / "keybindings.json").write_text(json.dumps({"app.tools.expand": "ctrl+e"}))
        await _reload(pilot)
        assert app.keymap.action_for("ctrl+e") == "app.tools.expand"
        assert app.keymap.action_for("ctrl+o") is None and app.ctx.expand_key == "Ctrl+E"
        assert app.keymap.action_for("ctrl+p") == "app.model.cycleForward"  # the other keys are still there
        header = str(app.header_widget.render())
        assert "Ctrl+E expand" in header and "Ctrl+O expand" not in header  # new-user run #27: old keys named
        expanded = app.ctx.expand_tools
        await pilot.press("ctrl+e")  # the new key works at once
        await pilot.pause()
        assert app.ctx.expand_tools is not expanded
        await pilot.press("ctrl+o")  # the old one no longer does
        await pilot.pause()
        assert app.ctx.expand_tools is not expanded


async def test_reload_reads_models_json_again(home: Path, tmp_path: Path) -> None:
    app = _app(home, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        session = app.session
        assert session.model is not None and session.model.id == "alpha"
        models = json.loads(json.dumps(MODELS))
        models["providers"]["local"]["models"][0]["contextWindow"] = 4321
        models["providers"]["local"]["models"].append({"id": "delta"})
        (home / "models.json").write_text(json.dumps(models))
        await _reload(pilot)
        assert "delta" in [m.id for m in session.available_models()]
        assert session.model.id == "alpha" and session.model.context_window == 4321
        (home / "models.json").write_text("{ not json")
        await _reload(pilot)
        assert any("models.json error" in str(getattr(i, "text", "")) for i in app.transcript.items)


async def test_reload_applies_settings_json_to_the_running_session(home: Path, tmp_path: Path) -> None:
    app = _app(home, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        session = app.session
        assert session.settings.compaction.reserve_tokens == 16384 and not app.ctx.hide_thinking
        (home / "settings.json").write_text(json.dumps({
            "compaction": {"reserveTokens": 5000}, "followUpMode": "all", "hideThinkingBlock": True}))
        await _reload(pilot)
        assert session.settings.compaction.reserve_tokens == 5000
        assert session.agent.follow_up_mode == "all" and app.ctx.hide_thinking
