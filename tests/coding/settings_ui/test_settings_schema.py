"""The /settings rows (pi_tui.coding.config.settings_schema): parsing refuses bad values with a message, the
state says which file's value wins, saving writes the global file at once and keeps other keys."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_tui.coding.config.settings import SettingsManager
from pi_tui.coding.config.settings_schema import (
    SETTINGS,
    SettingValueError,
    parse_value,
    save_setting,
    setting_state,
    spec_by_id,
)


def _manager(tmp_path: Path, global_: dict | None = None, project: dict | None = None) -> SettingsManager:
    g = tmp_path / "settings.json"
    p = tmp_path / "project.json"
    if global_ is not None:
        g.write_text(json.dumps(global_))
    if project is not None:
        p.write_text(json.dumps(project))
    return SettingsManager(g, p)


def test_every_row_of_pis_selector_is_offered() -> None:
    ids = {spec.id for spec in SETTINGS}
    pi_rows = {"autocompact", "show-images", "image-width-cells", "auto-resize-images", "block-images",
               "skill-commands", "steering-mode", "follow-up-mode", "transport", "hide-thinking",
               "collapse-changelog", "quiet-startup", "double-escape-action", "tree-filter-mode",
               "thinking", "theme", "show-hardware-cursor", "editor-padding", "autocomplete-max-visible",
               "clear-on-shrink", "terminal-progress"}
    assert pi_rows <= ids
    assert {"compaction-reserve", "compaction-keep", "retry", "retry-max", "retry-delay", "default-model"} <= ids
    assert len(ids) == len(SETTINGS)


@pytest.mark.parametrize(("setting_id", "text", "message"), [
    ("compaction-reserve", "lots", "is not a whole number"),
    ("compaction-reserve", "-5", "outside 0..1000000"),
    ("retry-max", "101", "outside 0..100"),
    ("steering-mode", "sometimes", "is not one of one-at-a-time, all"),
    ("autocompact", "maybe", "is not true or false"),
    ("default-model", "alpha", "is not provider/model-id"),
])
def test_bad_values_are_refused_with_a_message(setting_id: str, text: str, message: str) -> None:
    with pytest.raises(SettingValueError, match=message):
        parse_value(spec_by_id(setting_id), text)


def test_good_values_parse_to_their_json_types() -> None:
    assert parse_value(spec_by_id("compaction-keep"), "30_000") == 30000
    assert parse_value(spec_by_id("autocompact"), "off") is False
    assert parse_value(spec_by_id("editor-padding"), "2") == 2
    assert parse_value(spec_by_id("theme"), "nord", choices=("dark", "nord")) == "nord"
    with pytest.raises(SettingValueError):
        parse_value(spec_by_id("theme"), "nope", choices=("dark", "nord"))


@settings(max_examples=60, derandomize=True)
@given(st.integers(min_value=-10**7, max_value=10**7))
def test_an_int_row_takes_exactly_its_range(value: int) -> None:
    spec = spec_by_id("retry-delay")
    assert spec.minimum is not None and spec.maximum is not None
    if spec.minimum <= value <= spec.maximum:
        assert parse_value(spec, str(value)) == value
    else:
        with pytest.raises(SettingValueError):
            parse_value(spec, str(value))


def test_the_state_says_which_file_wins(tmp_path: Path) -> None:
    manager = _manager(tmp_path, {"compaction": {"reserveTokens": 9000}, "steeringMode": "all"},
                       {"compaction": {"reserveTokens": 4000}})
    reserve = setting_state(spec_by_id("compaction-reserve"), manager)
    assert (reserve.value, reserve.global_value, reserve.project_value, reserve.source) == (4000, 9000, 4000, "project")
    assert reserve.overridden
    steering = setting_state(spec_by_id("steering-mode"), manager)
    assert (steering.value, steering.source) == ("all", "global")
    keep = setting_state(spec_by_id("compaction-keep"), manager)
    assert (keep.value, keep.source, keep.global_value) == (20000, "default", None)


def test_saving_writes_the_global_file_and_keeps_other_keys(tmp_path: Path) -> None:
    manager = _manager(tmp_path, {"myOwnKey": [1, 2], "compaction": {"enabled": False}}, {"theme": "nord"})
    assert save_setting(spec_by_id("compaction-reserve"), manager, 5000) == []
    assert save_setting(spec_by_id("default-model"), manager, "local/beta") == []
    saved = json.loads((tmp_path / "settings.json").read_text())
    assert saved == {"myOwnKey": [1, 2], "compaction": {"enabled": False, "reserveTokens": 5000},
                     "defaultProvider": "local", "defaultModel": "beta"}
    assert json.loads((tmp_path / "project.json").read_text()) == {"theme": "nord"}  # never written
    assert setting_state(spec_by_id("default-model"), manager).value == "local/beta"
