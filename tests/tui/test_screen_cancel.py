"""Ctrl+C closes every picker, dialog and screen as Escape does, and a second Ctrl+C quits when the editor is
empty (new-user run #35: with /settings or Ctrl+L open, Ctrl+C did nothing and only Escape got out; a focused
filter input took Ctrl+C as "copy"; a prefilled prompt, its text selected, too). A draft in the editor is never
quit over."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.screen import Screen

from pi_tui.tui.modals.confirm import ConfirmModal
from pi_tui.tui.modals.model_picker import ModelPicker
from pi_tui.tui.modals.scoped_models import ScopedModelsScreen
from pi_tui.tui.modals.session_tree import SessionTreeScreen
from pi_tui.tui.modals.settings_screen import SettingsScreen
from pi_tui.tui.modals.text_prompt import TextPromptModal

from .helpers import make_app, make_session, wait_until

pytestmark = pytest.mark.anyio


async def _slash(pilot: Any, command: str) -> None:
    pilot.app.prompt_input.insert(command)
    await pilot.press("enter")


async def _push(pilot: Any, screen: Screen[Any]) -> None:
    pilot.app.push_screen(screen)


SCREENS: dict[str, tuple[Callable[[Any], Awaitable[None]], type]] = {
    "settings": (lambda pilot: _slash(pilot, "/settings"), SettingsScreen),
    "model picker": (lambda pilot: pilot.press("ctrl+l"), ModelPicker),
    "tree": (lambda pilot: _slash(pilot, "/tree"), SessionTreeScreen),
    "scoped models": (lambda pilot: _slash(pilot, "/scoped-models"), ScopedModelsScreen),
    "text prompt": (lambda pilot: _push(pilot, TextPromptModal("Name?", prefill="typed")), TextPromptModal),
    "confirm": (lambda pilot: _push(pilot, ConfirmModal("Run it?", "Yes", "No")), ConfirmModal),
}


async def _open(pilot: Any, which: str) -> Screen[Any]:
    opener, kind = SCREENS[which]
    await wait_until(pilot, lambda: pilot.app.session_ready)
    await opener(pilot)
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, kind))
    await pilot.pause()
    return pilot.app.screen


@pytest.mark.parametrize("which", list(SCREENS))
async def test_ctrl_c_closes_the_screen_and_a_second_one_quits(tmp_path: Path, which: str) -> None:
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await _open(pilot, which)
        await pilot.press("ctrl+c")
        await wait_until(pilot, lambda: app.screen is not screen)
        assert app.screen is app.screen_stack[0] and not app.quit_controller.quitting
        await pilot.press("ctrl+c")
        await wait_until(pilot, lambda: app.quit_controller.quitting)


async def test_a_draft_is_never_quit_over(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.insert("my draft")
        await pilot.press("ctrl+l")
        await wait_until(pilot, lambda: isinstance(app.screen, ModelPicker))
        await pilot.press("ctrl+c")
        await wait_until(pilot, lambda: not isinstance(app.screen, ModelPicker))
        assert app.prompt_input.text == "my draft"
        await pilot.press("ctrl+c")  # the main screen's first press: the draft goes to the history
        await pilot.pause(0.05)
        assert not app.quit_controller.quitting
