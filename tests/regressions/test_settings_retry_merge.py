"""Project-level nested ``retry.provider`` settings merge into the global ones (pi 0.84.0, #7572: a project's
``retry.provider`` replaced the whole global object, so global values the project did not set were lost).
pi-tui merges the two files recursively and writes back only the keys changed in the session."""

from __future__ import annotations

import json
from pathlib import Path

from pi_tui.coding.config.settings import SettingsManager


def _write(path: Path, data: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_projects_nested_provider_retry_settings_merge_with_the_global_ones(tmp_path: Path) -> None:
    global_file = _write(tmp_path / "agent" / "settings.json",
                         {"retry": {"maxRetries": 5, "provider": {"maxRetries": 2, "timeoutMs": 90000}}})
    project_file = _write(tmp_path / "project" / ".pi-tui" / "settings.json",
                          {"retry": {"provider": {"timeoutMs": 300000}}})
    settings = SettingsManager(global_file, project_file)
    assert settings.get_provider_retry_settings() == {"timeoutMs": 300000, "maxRetries": 2, "maxRetryDelayMs": 60000}
    assert settings.get_retry_settings()["maxRetries"] == 5
    settings.set_retry_enabled(False)
    assert json.loads(global_file.read_text(encoding="utf-8")) == {
        "retry": {"maxRetries": 5, "enabled": False, "provider": {"maxRetries": 2, "timeoutMs": 90000}}
    }
    assert json.loads(project_file.read_text(encoding="utf-8")) == {"retry": {"provider": {"timeoutMs": 300000}}}


def test_a_projects_legacy_max_delay_merges_too(tmp_path: Path) -> None:
    global_file = _write(tmp_path / "agent" / "settings.json", {"retry": {"provider": {"maxRetries": 1}}})
    project_file = _write(tmp_path / "project" / ".pi-tui" / "settings.json", {"retry": {"maxDelayMs": 5000}})
    settings = SettingsManager(global_file, project_file)
    assert settings.get_provider_retry_settings() == {"timeoutMs": None, "maxRetries": 1, "maxRetryDelayMs": 5000}
