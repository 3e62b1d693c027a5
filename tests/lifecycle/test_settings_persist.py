"""Issue 9 item 6: what the user changes in the app is written to settings.json and used on the next start.

pi 0.73 persists the theme (``/theme``), ``hideThinkingBlock`` (Ctrl+T), ``defaultProvider``/``defaultModel`` (a
model picked or cycled) and ``defaultThinkingLevel`` (a level set or cycled). Saving keeps unknown keys and never
touches the project file (pi-reference §3.16).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from pi_tui.coding.agent_session.factory import create_agent_session
from pi_tui.coding.config.settings import SettingsManager
from tests.lifecycle.pty_app import PtyApp
from tests.tui.helpers import make_app, make_session, wait_until

MODELS = {
    "providers": {
        "local": {
            "baseUrl": "http://127.0.0.1:9/v1",
            "api": "openai-completions",
            "apiKey": "none",
            "models": [{"id": "alpha", "reasoning": True}, {"id": "beta", "reasoning": True}],
        }
    }
}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    agent_dir = tmp_path / "home"
    agent_dir.mkdir()
    monkeypatch.setenv("PI_TUI_DIR", str(agent_dir))
    for name in list(os.environ):
        if name.endswith("_API_KEY"):
            monkeypatch.delenv(name)
    return agent_dir


def _settings(home: Path) -> dict[str, Any]:
    return json.loads((home / "settings.json").read_text())


def test_picked_model_and_thinking_level_are_the_next_start_defaults(home: Path, tmp_path: Path) -> None:
    (home / "models.json").write_text(json.dumps(MODELS))
    (home / "settings.json").write_text(json.dumps({"myOwnKey": {"keep": True}}))
    project = tmp_path / "project"
    (project / ".pi-tui").mkdir(parents=True)
    (project / ".pi-tui" / "settings.json").write_text('{"quietStartup": true}')
    session = create_agent_session(str(project), no_session=True, persist_settings=True)
    assert session.model is not None and session.model.id == "alpha"
    beta = session.models.find("local", "beta")
    assert beta is not None
    session.set_model(beta)
    session.set_thinking_level("high")
    saved = _settings(home)
    assert saved["defaultProvider"] == "local" and saved["defaultModel"] == "beta"
    assert saved["defaultThinkingLevel"] == "high" and saved["myOwnKey"] == {"keep": True}
    assert (project / ".pi-tui" / "settings.json").read_text() == '{"quietStartup": true}'
    again = create_agent_session(str(project), no_session=True, persist_settings=True)
    assert again.model is not None and again.model.id == "beta" and again.thinking_level == "high"


def test_sessions_without_persistence_write_no_settings(home: Path, tmp_path: Path) -> None:
    (home / "models.json").write_text(json.dumps(MODELS))
    session = create_agent_session(str(tmp_path), no_session=True)
    session.set_thinking_level("low")
    assert not (home / "settings.json").exists()


@pytest.mark.anyio
async def test_ctrl_t_and_theme_are_saved_without_touching_other_keys(tmp_path: Path) -> None:
    global_path = tmp_path / "settings.json"
    global_path.write_text('{\n  // mine\n  "myOwnKey": 1, "theme": "dark"\n}\n')
    project_path = tmp_path / "project-settings.json"
    project_path.write_text('{"theme": "nord"}')
    manager = SettingsManager(global_path, project_path)
    session, _ = make_session(tmp_path)
    app = make_app(session, settings_manager=manager)
    async with app.run_test() as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.press("ctrl+t")
        await pilot.press(*"/theme light", "enter")
        await wait_until(pilot, lambda: app.pi_theme.name == "light")
    saved = json.loads(global_path.read_text())
    assert saved == {"myOwnKey": 1, "theme": "light", "hideThinkingBlock": True}
    assert project_path.read_text() == '{"theme": "nord"}'


def test_run_app_starts_with_the_saved_theme_and_thinking_toggle(home: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 tmp_path: Path) -> None:
    from pi_tui.tui import app as app_module

    (home / "settings.json").write_text(json.dumps({"theme": "light", "hideThinkingBlock": True}))
    seen: dict[str, Any] = {}

    def fake_run(self: Any) -> int:
        seen.update(theme=self.pi_theme.name, hide=self.ctx.hide_thinking)
        return 0

    monkeypatch.setattr(app_module.PiApp, "run", fake_run)
    monkeypatch.delenv("PI_TUI_THEME", raising=False)
    assert app_module.run_app({"cwd": str(tmp_path)}) == 0
    assert seen == {"theme": "light", "hide": True}


def test_user_steps_in_the_real_app_reach_settings_json(tmp_path: Path) -> None:
    home, cwd = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    cwd.mkdir()
    (home / "settings.json").write_text('{"myOwnKey": "kept"}')
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.update({"PI_TUI_DIR": str(home), "PI_TUI_OFFLINE_TPS": "0"})
    env.pop("PI_TUI_THEME", None)
    with PtyApp([], cwd, env) as app:
        app.wait_for("Enter: send", timeout=60)
        time.sleep(0.5)
        app.type_line("/theme nord")
        app.wait_for("Theme: nord")
        app.send("\x14")  # Ctrl+T
        app.wait_for("Thinking blocks: hidden")
        app.send("\x04")  # Ctrl+D
        assert app.wait() == 0
    assert json.loads((home / "settings.json").read_text()) == {
        "myOwnKey": "kept", "theme": "nord", "hideThinkingBlock": True,
    }
