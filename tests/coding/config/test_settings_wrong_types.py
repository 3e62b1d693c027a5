"""New-user run #6: a settings.json value of the wrong type is one clear warning naming the key and the file,
the default is used, and saving another setting keeps the bad value in the file for the user to fix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_tui.coding.agent_session.factory import create_agent_session
from pi_tui.coding.config.paths import ENV_AGENT_DIR
from pi_tui.coding.config.settings import SettingsManager

BAD = {"defaultModel": "kw-model", "defaultProvider": "kw", "theme": 42, "defaultThinkingLevel": "bogus",
       "compaction": "yes", "hideThinkingBlock": "no", "retry": {"maxRetries": "three"}}


def _manager(tmp_path: Path, data: dict[str, object]) -> tuple[SettingsManager, Path]:
    home = tmp_path / "agent"
    home.mkdir(exist_ok=True)
    path = home / "settings.json"
    path.write_text(json.dumps(data))
    return SettingsManager.create(str(tmp_path), home, project_trusted=False), path


def test_each_bad_value_is_one_warning_naming_key_and_file(tmp_path: Path) -> None:
    manager, path = _manager(tmp_path, BAD)
    errors = manager.drain_errors()
    for key in ("theme", "defaultThinkingLevel", "compaction", "hideThinkingBlock", "retry.maxRetries"):
        named = [e for e in errors if f"{path}: {key} " in e]
        assert len(named) == 1, (key, errors)
    assert not any("defaultModel" in e or "defaultProvider" in e for e in errors)
    assert (manager.theme, manager.hide_thinking_block, manager.default_thinking_level) == ("dark", False, None)
    assert manager.compaction_enabled is True and manager.get_retry_settings()["maxRetries"] == 3
    assert manager.drain_errors() == []  # reading the accessors again says nothing more
    assert 'using "dark"' in next(e for e in errors if ": theme " in e)


def test_saving_another_setting_keeps_the_bad_values_in_the_file(tmp_path: Path) -> None:
    manager, path = _manager(tmp_path, BAD)
    manager.set_steering_mode("all")
    saved = json.loads(path.read_text())
    assert saved == {**BAD, "steeringMode": "all"}


def test_a_project_file_is_named_too(tmp_path: Path) -> None:
    home = tmp_path / "agent"
    home.mkdir()
    project = tmp_path / ".pi-tui" / "settings.json"
    project.parent.mkdir()
    project.write_text(json.dumps({"quietStartup": 1}))
    manager = SettingsManager.create(str(tmp_path), home, project_trusted=True)
    errors = manager.drain_errors()
    assert len(errors) == 1 and f"{project}: quietStartup must be a boolean" in errors[0]


def test_the_session_reports_them_as_startup_warnings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "agent"
    home.mkdir()
    (home / "settings.json").write_text(json.dumps({"theme": 42, "hideThinkingBlock": "no"}))
    monkeypatch.setenv(ENV_AGENT_DIR, str(home))
    session = create_agent_session(str(tmp_path), no_session=True)
    warnings = [w for w in session.startup_warnings if "settings.json" in w]
    assert any(": theme must be a string" in w for w in warnings), session.startup_warnings
    assert any(": hideThinkingBlock must be a boolean" in w for w in warnings), session.startup_warnings


def test_a_change_to_an_unparsable_file_is_said_once_not_saved(tmp_path: Path) -> None:
    """tester2 #3: with a settings.json that cannot be parsed, /theme and Ctrl+T changed nothing on disk and
    said nothing; now the first such change says it holds for this run only. The file is never touched."""
    home = tmp_path / "agent"
    home.mkdir()
    path = home / "settings.json"
    path.write_text('{"theme": "light", "retry": {')
    manager = SettingsManager.create(str(tmp_path), home, project_trusted=False)
    manager.drain_errors()  # the parse error, shown at start
    manager.set_theme("nord")
    errors = manager.drain_errors()
    assert len(errors) == 1 and f"{path}: changes are not saved" in errors[0] and "this run only" in errors[0]
    manager.set_hide_thinking_block(True)
    assert manager.drain_errors() == []  # once
    assert path.read_text() == '{"theme": "light", "retry": {'
    assert manager.theme == "nord"  # in force for this run
