"""Ctrl+C never loses a draft (new-user run: one Ctrl+C wiped a long prompt with no way back: Ctrl+Z did nothing and
Up recalled only sent prompts). The clear is an undoable edit of the editor (Ctrl+Z brings the text back, pastes
included), and the cleared draft goes into the prompt history (Up recalls it), as a sent prompt does."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tui.helpers import make_app, make_session, settle

pytestmark = pytest.mark.anyio


async def test_ctrl_c_then_ctrl_z_brings_the_draft_back(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path)
    app = make_app(session)
    async with app.run_test() as pilot:
        await settle(pilot)
        editor = app.prompt_input
        editor.focus()
        await pilot.press(*"a long draft")
        await pilot.press("ctrl+c")
        await settle(pilot)
        assert editor.text == ""
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert editor.text == "a long draft"


async def test_a_cleared_draft_is_in_the_history(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path)
    app = make_app(session)
    async with app.run_test() as pilot:
        await settle(pilot)
        editor = app.prompt_input
        editor.focus()
        await pilot.press(*"draft one")
        await pilot.press("ctrl+c")
        await settle(pilot)
        assert editor.text == ""
        await pilot.press("up")
        assert editor.text == "draft one"
