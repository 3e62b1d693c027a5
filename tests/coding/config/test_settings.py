"""settings.json loading, merging, typed defaults and write-back (pi-reference §3.16)."""

from __future__ import annotations

import json
from pathlib import Path

from pi_tui.coding.config.settings import SettingsManager, deep_merge, migrate_settings


def _setup(tmp_path: Path, global_text: str | None, project_text: str | None) -> SettingsManager:
    agent = tmp_path / "agent"
    project = tmp_path / "project"
    agent.mkdir()
    (project / ".pi-tui").mkdir(parents=True)
    if global_text is not None:
        (agent / "settings.json").write_text(global_text)
    if project_text is not None:
        (project / ".pi-tui" / "settings.json").write_text(project_text)
    return SettingsManager.create(str(project), agent, project_trusted=True)


def test_defaults_without_files(tmp_path: Path) -> None:
    settings = _setup(tmp_path, None, None)
    assert settings.theme == "dark"
    assert settings.default_provider is None and settings.default_model is None
    assert settings.get_compaction_settings() == {
        "enabled": True,
        "reserveTokens": 16384,
        "keepRecentTokens": 20000,
    }
    assert settings.get_retry_settings() == {"enabled": True, "maxRetries": 3, "baseDelayMs": 2000}
    assert settings.get_provider_retry_settings() == {
        "timeoutMs": None,
        "maxRetries": None,
        "maxRetryDelayMs": 60000,
    }
    assert settings.get_branch_summary_settings() == {"reserveTokens": 16384, "skipPrompt": False}
    assert (settings.steering_mode, settings.follow_up_mode, settings.transport) == (
        "one-at-a-time",
        "one-at-a-time",
        "auto",
    )
    assert (settings.double_escape_action, settings.tree_filter_mode) == ("tree", "default")
    assert (settings.editor_padding_x, settings.autocomplete_max_visible) == (0, 5)
    assert settings.show_images and settings.image_auto_resize and not settings.block_images
    assert settings.image_width_cells == 60 and settings.code_block_indent == "  "
    assert settings.enable_install_telemetry and settings.enable_skill_commands
    assert not settings.hide_thinking_block and not settings.quiet_startup
    assert settings.warn_anthropic_extra_usage
    assert settings.errors == []


def test_project_overrides_global_with_deep_merge(tmp_path: Path) -> None:
    settings = _setup(
        tmp_path,
        '{"theme": "light", "compaction": {"enabled": false, "reserveTokens": 1000}, "enabledModels": ["a", "b"],'
        ' "retry": {"provider": {"timeoutMs": 5, "maxRetries": 1}}}',
        '// project\n{"compaction": {"reserveTokens": 2000,}, "enabledModels": ["c"], "retry": {"provider": {"maxRetries": 9}}}',
    )
    assert settings.theme == "light"
    assert settings.get_compaction_settings() == {
        "enabled": False,
        "reserveTokens": 2000,
        "keepRecentTokens": 20000,
    }
    assert settings.enabled_models == ["c"]
    assert settings.get_provider_retry_settings()["timeoutMs"] == 5
    assert settings.get_provider_retry_settings()["maxRetries"] == 9


def test_wrong_types_fall_back_to_defaults_with_a_message(tmp_path: Path) -> None:
    settings = _setup(
        tmp_path,
        '{"compaction": {"enabled": "yes"}, "editorPaddingX": 9, "steeringMode": "sometimes", "theme": 3}',
        None,
    )
    assert settings.compaction_enabled is True
    assert settings.editor_padding_x == 3  # clamped 0-3
    assert settings.steering_mode == "one-at-a-time"
    assert settings.theme == "dark"
    assert settings.compaction_enabled is True  # reported once
    where = settings.global_path  # each is reported when the file is read, naming it (new-user run #6)
    assert sorted(settings.errors) == [
        f'{where}: compaction.enabled must be a boolean (it is "yes"); using true',
        f'{where}: steeringMode must be one of all, one-at-a-time (it is "sometimes"); using "one-at-a-time"',
        f'{where}: theme must be a string (it is 3); using "dark"',
    ]


def test_invalid_file_is_reported_and_never_overwritten(tmp_path: Path) -> None:
    settings = _setup(tmp_path, "{not json", '{"theme": "light"}')
    assert settings.theme == "light"
    assert len(settings.errors) == 1 and "invalid JSON" in settings.errors[0]
    settings.set_theme("other")
    assert (tmp_path / "agent" / "settings.json").read_text() == "{not json"
    assert settings.theme == "light"  # project still wins


def test_setters_write_global_file_and_keep_external_edits(tmp_path: Path) -> None:
    settings = _setup(tmp_path, '{"theme": "light", "custom": {"keep": 1}}', None)
    path = tmp_path / "agent" / "settings.json"
    # another process edits the file meanwhile
    path.write_text(json.dumps({"theme": "light", "custom": {"keep": 1}, "quietStartup": True}))
    settings.set_default_model_and_provider("anthropic", "claude-opus-4-7")
    settings.set_retry_enabled(False)
    data = json.loads(path.read_text())
    assert data == {
        "theme": "light",
        "custom": {"keep": 1},
        "quietStartup": True,
        "defaultProvider": "anthropic",
        "defaultModel": "claude-opus-4-7",
        "retry": {"enabled": False},
    }
    assert settings.default_model == "claude-opus-4-7"
    settings.set_global("defaultModel", None)
    assert "defaultModel" not in json.loads(path.read_text())
    reloaded = SettingsManager.create(str(tmp_path / "project"), tmp_path / "agent", project_trusted=True)
    assert reloaded.get_retry_settings()["enabled"] is False


def test_setters_create_missing_global_file(tmp_path: Path) -> None:
    settings = _setup(tmp_path, None, None)
    settings.set_autocomplete_max_visible(99)
    assert json.loads((tmp_path / "agent" / "settings.json").read_text()) == {"autocompleteMaxVisible": 20}


def test_legacy_keys_are_migrated() -> None:
    migrated = migrate_settings(
        {
            "queueMode": "all",
            "websockets": True,
            "retry": {"maxDelayMs": 10},
            "skills": {"customDirectories": ["x"]},
        }
    )
    assert migrated == {
        "steeringMode": "all",
        "transport": "websocket",
        "retry": {"provider": {"maxRetryDelayMs": 10}},
        "skills": ["x"],
    }


def test_session_dir_expands_home(tmp_path: Path) -> None:
    settings = SettingsManager.in_memory({"sessionDir": "~/sessions"})
    assert settings.session_dir == str(Path.home() / "sessions")


def test_overrides_and_in_memory_never_write(tmp_path: Path) -> None:
    settings = SettingsManager.in_memory({"theme": "light"})
    settings.apply_overrides({"theme": "cli"})
    assert settings.theme == "cli"
    settings.set_theme("x")  # no file: nothing to write, no error
    assert settings.errors == []


def test_deep_merge_replaces_lists_and_scalars() -> None:
    assert deep_merge({"a": {"b": 1, "c": [1]}, "d": 1}, {"a": {"c": [2]}, "d": {"x": 1}}) == {
        "a": {"b": 1, "c": [2]},
        "d": {"x": 1},
    }
