"""New-user run #4: the completion list shows ``autocompleteMaxVisible`` rows (pi's editor option, 3..20), read
from settings.json and changed at once by ``/settings``; the row no longer claims pi-tui lacks the feature."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_tui.coding.config.settings import SettingsManager
from pi_tui.coding.config.settings_schema import spec_by_id
from pi_tui.tui.widgets.completion_list import CompletionList
from tests.tui.helpers import make_app, make_session, wait_until

pytestmark = pytest.mark.anyio


def _item_rows(view: CompletionList) -> int:
    return sum(1 for line in view.render().plain.split("\n") if not line.strip().startswith("("))


async def test_the_list_shows_the_configured_number_of_rows(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text(json.dumps({"autocompleteMaxVisible": 10}))
    manager = SettingsManager.create(str(tmp_path), home)
    session, _ = make_session(tmp_path)
    app = make_app(session, settings_manager=manager, cwd=str(tmp_path))
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        view = app.completion_list
        await pilot.press("/")
        await wait_until(pilot, lambda: view.is_open and len(view.items) > 10)
        await pilot.pause()
        assert _item_rows(view) == 10
        assert view.region.height == 11  # ten rows and the (i/n) line
        manager.set_autocomplete_max_visible(3)  # what /settings saves: in force at the next paint
        await pilot.press("s")
        await wait_until(pilot, lambda: _item_rows(view) == min(3, len(view.items)))


def test_the_settings_row_is_in_force() -> None:
    assert spec_by_id("autocomplete-max-visible").use == "live"


