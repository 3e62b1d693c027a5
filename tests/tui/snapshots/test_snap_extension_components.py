"""Snapshots of the component calls of ``ctx.ui`` with the shipped examples: the vim_mode editor component's
label on the editor border, the quick_pick component from ``ctx.ui.custom`` (at the bottom and as an overlay),
the issue_autocomplete provider's ``#`` items in the completion list, and the app in the theme_switcher's
``ember`` theme."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pi_tui.tui.extension_custom import CustomComponentScreen
from tests.tui.helpers import make_app, settle, snapshot_session, wait_until

from .scenarios import SIZE, Scenario, _type

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "extensions"


def _app(name: str) -> tuple[Any, Any]:
    session, _ = snapshot_session([], extension_paths=[str(EXAMPLES / f"{name}.py")])
    return session, make_app(session)


def build_vim_normal_mode() -> Scenario:
    session, app = _app("vim_mode")

    async def drive(pilot: Any) -> None:
        await settle(pilot)
        await wait_until(pilot, lambda: app.extensions_controller.components.editor.active)
        await pilot.press(*"fix the parser", "escape", "b")
        await settle(pilot)

    return app, drive, SIZE


def build_quick_pick(overlay: bool) -> Scenario:
    session, app = _app("quick_pick")

    async def drive(pilot: Any) -> None:
        await settle(pilot)
        await wait_until(pilot, lambda: session.commands.get("pick") is not None)
        await _type(pilot, "/pick overlay" if overlay else "/pick")
        await wait_until(pilot, lambda: isinstance(app.screen, CustomComponentScreen))
        await pilot.press("down")
        await pilot.pause(0.1)

    return app, drive, SIZE


def build_issue_completion() -> Scenario:
    session, app = _app("issue_autocomplete")

    async def drive(pilot: Any) -> None:
        await settle(pilot)
        await wait_until(pilot, lambda: app.extensions_controller.components.providers.active)
        await pilot.press(*"see #")
        await wait_until(pilot, lambda: len(app.completion_list.items) == 3)
        await pilot.pause(0.1)

    return app, drive, SIZE


def build_ember_theme() -> Scenario:
    session, app = _app("theme_switcher")

    async def drive(pilot: Any) -> None:
        await settle(pilot)
        await wait_until(pilot, lambda: session.commands.get("theme-peek") is not None)
        result = session.extensions.runtime.guarded_ui.set_theme("ember")
        assert result == {"success": True}
        await _type(pilot, "/theme-peek ember")
        await wait_until(pilot, lambda: "theme-peek" in app.extensions_controller.widgets_above.blocks)
        await settle(pilot)

    return app, drive, SIZE


def test_vim_mode_label_on_the_editor(snap_compare: Any) -> None:
    app, drive, size = build_vim_normal_mode()
    assert snap_compare(app, run_before=drive, terminal_size=size)


def test_custom_component_at_the_bottom(snap_compare: Any) -> None:
    app, drive, size = build_quick_pick(False)
    assert snap_compare(app, run_before=drive, terminal_size=size)


def test_custom_component_overlay(snap_compare: Any) -> None:
    app, drive, size = build_quick_pick(True)
    assert snap_compare(app, run_before=drive, terminal_size=size)


def test_extension_autocomplete_items(snap_compare: Any) -> None:
    app, drive, size = build_issue_completion()
    assert snap_compare(app, run_before=drive, terminal_size=size)


def test_extension_theme(snap_compare: Any) -> None:
    app, drive, size = build_ember_theme()
    assert snap_compare(app, run_before=drive, terminal_size=size)
