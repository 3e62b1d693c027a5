"""Theme management for extensions in the real app (Pilot, faux provider): the theme_switcher example's theme
(``resources_discover`` ``theme_paths``) is listed by ``get_all_themes`` and ``/theme``; ``set_theme(name)``
switches like ``/theme`` (saved, except an extension's theme), ``set_theme(get_theme(name))`` switches without
saving, an unknown name is ``{"success": False, "error"}``; ``ctx.ui.theme`` follows the switch; without a
screen every call gives pi's defaults."""

from __future__ import annotations

import asyncio
import json
import os
import textwrap
from pathlib import Path
from typing import Any

import pytest

from pi_tui.coding.extensions.ui import NoUI
from pi_tui.tui.theme_loader import EXTENSION_THEMES, available_themes
from tests.tui.helpers import make_app, make_session, settle, wait_until

from .conftest import errors, example

PROBE = """
results = {}

def activate(pi):
    def run(args, ctx):
        name, _, how = args.partition(" ")
        if how == "object":
            results[args] = ctx.ui.set_theme(ctx.ui.get_theme(name))
        else:
            results[args] = ctx.ui.set_theme(name)
        results["theme"] = ctx.ui.theme.name
        results["all"] = ctx.ui.get_all_themes()
        results["accent"] = ctx.ui.theme.fg("accent", "x")
    pi.register_command("probe", run)
"""


def settings_theme(agent_dir: Path) -> Any:
    path = agent_dir / "settings.json"
    return json.loads(path.read_text()).get("theme") if path.is_file() else None


@pytest.mark.anyio
async def test_extension_themes_are_listed_and_switched(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(textwrap.dedent(PROBE), encoding="utf-8")
    from pi_tui.coding.config.settings import SettingsManager

    session, _ = make_session(tmp_path, [], extension_paths=[example("theme_switcher"), str(probe)])
    agent_dir = Path(os.environ["PI_TUI_DIR"])  # conftest: a fresh agent dir per test
    app = make_app(session, settings_manager=SettingsManager.create(str(tmp_path), agent_dir))
    module = session.extensions.runtime
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await wait_until(pilot, lambda: "ember" in EXTENSION_THEMES)
        assert "ember" in available_themes(tmp_path)  # /theme lists it too
        results = next(e.module.results for e in module.extensions if e.name == "probe")
        await pilot.press(*"/probe ember", "enter")
        await wait_until(pilot, lambda: "ember" in results)
        assert results["ember"] == {"success": True} and app.pi_theme.name == "ember"
        assert results["theme"] == "ember"
        rows = {row["name"]: row["path"] for row in results["all"]}
        assert rows["ember"].endswith("themes/ember.json") and rows["dark"] is None
        assert results["accent"].startswith("\x1b[") and results["accent"].endswith("\x1b[0m")
        await pilot.press(*"/probe light", "enter")
        await wait_until(pilot, lambda: "light" in results)
        assert results["light"] == {"success": True} and app.pi_theme.name == "light"
        await pilot.press(*"/probe nord object", "enter")
        await wait_until(pilot, lambda: "nord object" in results)
        assert results["nord object"] == {"success": True} and app.pi_theme.name == "nord"
        await pilot.press(*"/probe nope", "enter")
        await wait_until(pilot, lambda: "nope" in results)
        assert results["nope"]["success"] is False and "Theme not found: nope" in results["nope"]["error"]
        assert app.pi_theme.name == "nord"
        assert settings_theme(agent_dir) == "light"  # ember (extension) and the object switch are not saved
        await pilot.press(*"/theme-next", "enter")  # the example: the next theme in the list
        await wait_until(pilot, lambda: app.pi_theme.name != "nord")
        names = [row["name"] for row in results["all"]]
        assert app.pi_theme.name == names[(names.index("nord") + 1) % len(names)]
        await pilot.press(*"/theme-peek ember", "enter")
        await wait_until(pilot, lambda: "theme-peek" in app.extensions_controller.widgets_above.blocks)
        assert errors(session) == []
        assert settings_theme(agent_dir) == app.pi_theme.name  # /theme-next saves a non-extension theme
    session.extensions.runtime.unload_all()
    assert "ember" not in EXTENSION_THEMES  # gone with the extension


def test_without_a_screen_theme_calls_give_pis_defaults(tmp_path: Path) -> None:
    from tests.coding.extensions.fakes import make_runtime

    runtime, _host = make_runtime(tmp_path, ui=NoUI())
    ui = runtime.guarded_ui
    assert ui.get_all_themes() == [] and ui.get_theme("dark") is None
    assert ui.set_theme("dark") == {"success": False, "error": "UI not available"}
    assert ui.theme.fg("accent", "plain") == "plain"
    assert asyncio.run(ui.custom(lambda tui, theme, kb, done: None)) is None
    ui.set_editor_component(lambda tui, theme, kb: None)  # no-ops
    ui.add_autocomplete_provider(lambda current: current)
    assert ui.get_editor_component() is not None
    ui.reset_custom()
    assert ui.get_editor_component() is None
