"""The TUI's ExtensionUI (issue 11): extension dialogs are Textual modals, answered with the keyboard; a
dialog whose caller gives up (timeout) is dismissed with its default; statuses reach the footer callback."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Static

from pi_tui.coding.extensions.context import GuardedUI
from pi_tui.tui.extension_ui import TextualExtensionUI
from pi_tui.tui.modals.confirm import ConfirmModal


class Host(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("host")


async def _until(pilot: Any, check: Any) -> None:
    for _ in range(200):
        if check():
            return
        await pilot.pause(0.01)
    raise AssertionError("condition not reached")


@pytest.mark.anyio
async def test_confirm_select_input_and_editor_modals() -> None:
    app = Host()
    async with app.run_test() as pilot:
        ui = TextualExtensionUI(app)
        confirm = asyncio.ensure_future(ui.confirm("Dangerous!", "Allow rm -rf?"))
        await _until(pilot, lambda: isinstance(app.screen, ConfirmModal))
        await pilot.press("y")
        assert await confirm is True
        declined = asyncio.ensure_future(ui.confirm("Again?"))
        await _until(pilot, lambda: isinstance(app.screen, ConfirmModal))
        await pilot.press("enter")  # No has focus first: a stray Enter declines
        assert await declined is False
        select = asyncio.ensure_future(ui.select("Pick", ["Allow once", "Allow always", "Deny"]))
        await _until(pilot, lambda: type(app.screen).__name__ == "FuzzyPicker")
        await pilot.press("d", "e", "n", "enter")
        assert await select == "Deny"
        text = asyncio.ensure_future(ui.input("Reason?", "why"))
        await _until(pilot, lambda: type(app.screen).__name__ == "TextPromptModal")
        await pilot.press("n", "o", "enter")
        assert await text == "no"
        edited = asyncio.ensure_future(ui.editor("Plan", "step 1"))
        await _until(pilot, lambda: type(app.screen).__name__ == "TextPromptModal")
        await pilot.press("end", "!", "ctrl+s")
        assert await edited == "step 1!"
        escaped = asyncio.ensure_future(ui.input("Name"))
        await _until(pilot, lambda: type(app.screen).__name__ == "TextPromptModal")
        await pilot.press("escape")
        assert await escaped is None


@pytest.mark.anyio
async def test_a_timed_out_dialog_is_dismissed_with_its_default() -> None:
    class Runtime:
        def __init__(self, ui: Any) -> None:
            from pi_tui.coding.extensions.runner import ExtensionRunner

            self.ui = ui
            self.runner = ExtensionRunner()
            self.statuses: dict[str, Any] = {}

        def report_ui_failure(self, exc: BaseException) -> None:
            raise AssertionError(exc)

    app = Host()
    async with app.run_test() as pilot:
        guarded = GuardedUI(Runtime(TextualExtensionUI(app)))  # type: ignore[arg-type]
        assert await guarded.confirm("Timed", "auto-cancel", timeout_ms=100) is False
        await pilot.pause(0.05)
        assert not isinstance(app.screen, ConfirmModal)  # no modal left behind


@pytest.mark.anyio
async def test_status_segments_and_notify() -> None:
    app = Host()
    seen: list[dict[str, str]] = []
    async with app.run_test() as pilot:
        ui = TextualExtensionUI(app, on_status=seen.append)
        ui.set_status("plan", "⏸ plan mode")
        ui.set_status("todo", "2 open")
        ui.set_status("plan", None)
        ui.notify("Saved", "warning")
        await pilot.pause()
        assert seen[-1] == {"todo": "2 open"} and len(seen) == 3
        assert [n.message for n in app._notifications] == ["Saved"]


def _screen_text(app: App[None]) -> str:
    """The text of the dialog's Static widgets as far as their height shows it (a cut title must not pass)."""
    from textual.widgets import Static as _Static

    shown = []
    for widget in app.screen.query(_Static):
        lines = str(widget.render()).splitlines()
        shown.extend(lines[: widget.content_region.height])
    return "\n".join(shown)


@pytest.mark.anyio
async def test_every_line_of_a_dialog_title_is_shown_literally() -> None:
    """New-user run: the permission gate's ``select("Run this command?\\n\\n  rm -rf …")`` showed only the first
    line, so the user approved a command they could not see; markup-like text (``[red]``) must stay literal."""
    command = "rm -rf /tmp/proj/src/[red]new_module.py && echo removed"
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        ui = TextualExtensionUI(app)
        select = asyncio.ensure_future(ui.select(f"Run this command?\n\n  {command}", ["Allow once", "Deny"]))
        await _until(pilot, lambda: type(app.screen).__name__ == "FuzzyPicker")
        await pilot.pause(0.05)
        shown = _screen_text(app)
        assert "Run this command?" in shown and command in shown
        await pilot.press("escape")
        assert await select is None
        confirm = asyncio.ensure_future(ui.confirm("Write outside the project?", f"Path: /etc/[b]passwd[/b]\n{command}"))
        await _until(pilot, lambda: isinstance(app.screen, ConfirmModal))
        await pilot.pause(0.05)
        shown = _screen_text(app)
        assert "/etc/[b]passwd[/b]" in shown and command in shown
        await pilot.press("escape")
        assert await confirm is False


@pytest.mark.anyio
async def test_a_timed_dialog_shows_its_countdown_in_the_title() -> None:
    """pi docs/extensions.md "Timed Dialogs with Countdown": the title reads ``Title (5s)``, ``Title (4s)`` ..."""
    app = Host()
    async with app.run_test() as pilot:
        ui = TextualExtensionUI(app)
        select = asyncio.ensure_future(ui.select("Pick an option", ["A", "B"], timeout_ms=5000))
        await _until(pilot, lambda: type(app.screen).__name__ == "FuzzyPicker")
        await pilot.pause(0.05)
        assert "Pick an option (5s)" in _screen_text(app)
        await _until(pilot, lambda: "Pick an option (4s)" in _screen_text(app))
        await pilot.press("enter")
        assert await select == "A"


@pytest.mark.anyio
async def test_the_confirm_dialog_shows_which_button_enter_presses() -> None:
    """New-user run: "Yes" drawn bright (warning variant) while the focus sat on a grey "No": Enter cancelled a
    rollback without a word. The focused button is the highlighted one and the hint names what Enter does."""
    from textual.widgets import Button

    app = Host()
    async with app.run_test() as pilot:
        ui = TextualExtensionUI(app)
        answer = asyncio.ensure_future(ui.confirm("Roll back to checkpoint 3?", "Changes made since are lost."))
        await _until(pilot, lambda: isinstance(app.screen, ConfirmModal))
        await pilot.pause(0.05)
        yes, no = app.screen.query_one("#confirm-yes", Button), app.screen.query_one("#confirm-no", Button)
        assert "Enter: No" in _screen_text(app)
        assert no.has_focus and no.styles.background != yes.styles.background
        await pilot.press("right")
        await pilot.pause(0.05)
        assert yes.has_focus and "Enter: Yes" in _screen_text(app)
        assert yes.styles.background != no.styles.background
        await pilot.press("enter")
        assert await answer is True
