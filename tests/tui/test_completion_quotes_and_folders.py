"""New-user run #30: a quoted ``@`` completion leaves no stray ``"`` for later completions, and Tab on a folder
lists that folder's files (controllers/editor_completion.py, coding/autocomplete.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.coding.autocomplete import CompletionItem, Suggestions, apply_completion
from tests.tui.helpers import wait_until
from tests.tui.test_editor_completion import _app, _ready, _type, _values

pytestmark = pytest.mark.anyio


async def test_ctrl_u_after_a_quoted_folder_leaves_no_stray_quote(tmp_path: Path) -> None:
    (tmp_path / "my docs").mkdir()
    (tmp_path / "my docs" / "meeting notes.md").write_text("notes\n")
    app, _, _ = _app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        view = await _ready(pilot)
        editor = app.prompt_input
        await _type(pilot, "@sr")
        await wait_until(pilot, lambda: _values(view)[:1] == ["@src/"])
        await pilot.press("tab")
        await wait_until(pilot, lambda: editor.text == "@src/")
        await pilot.press("ctrl+u")
        await _type(pilot, "@my")
        await wait_until(pilot, lambda: _values(view)[:1] == ['@"my docs/"'])
        await pilot.press("tab")
        await wait_until(pilot, lambda: editor.text == '@"my docs/"')
        await pilot.press("ctrl+u")  # the token's opening @" is gone: so is the quote the completion closed it with
        await pilot.pause()
        assert editor.text == ""
        await _type(pilot, "@sr")
        await wait_until(pilot, lambda: _values(view)[:1] == ["@src/"])
        await pilot.press("tab")
        await wait_until(pilot, lambda: editor.text.startswith("@src/"))
        assert editor.text == "@src/"
        await pilot.press("ctrl+u")
        await _type(pilot, "@my")
        await wait_until(pilot, lambda: _values(view)[:1] == ['@"my docs/"'])
        await pilot.press("tab")
        await wait_until(pilot, lambda: editor.text == '@"my docs/"')
        for _ in range(len('@"my docs/')):  # Backspace by Backspace: the closing quote goes with the opening one
            await pilot.press("backspace")
        await pilot.pause()
        assert editor.text == ""


async def test_tab_on_a_folder_lists_its_files(tmp_path: Path) -> None:
    (tmp_path / "my docs").mkdir()
    (tmp_path / "my docs" / "meeting notes.md").write_text("notes\n")
    app, _, _ = _app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        view = await _ready(pilot)
        editor = app.prompt_input
        await _type(pilot, "@my")
        await wait_until(pilot, lambda: _values(view)[:1] == ['@"my docs/"'])
        await pilot.press("tab")
        await wait_until(pilot, lambda: view.is_open and _values(view)[:1] == ['@"my docs/meeting notes.md"'])
        await pilot.press("tab")
        await wait_until(pilot, lambda: editor.text == '@"my docs/meeting notes.md" ')
        assert not view.is_open
        await pilot.press("ctrl+u")
        await _type(pilot, "@sr")
        await wait_until(pilot, lambda: _values(view)[:1] == ["@src/"])
        await pilot.press("enter")  # Enter on a folder descends too (it inserts, never sends, for files)
        await wait_until(pilot, lambda: view.is_open and "@src/main.py" in _values(view))
        assert editor.text == "@src/"


def test_an_orphan_quote_after_the_cursor_is_not_kept_by_an_unquoted_completion() -> None:
    """A ``"`` right after an unquoted ``@`` token that opens no quote (what a deleted quoted completion left)
    is not glued to the inserted path; a quote that closes the user's own quotation is kept."""
    item = CompletionItem("@README.md", "README.md", "README.md")
    lines, _, col = apply_completion(['@READ"'], 0, 5, item, Suggestions([item], "@READ", "file"))
    assert lines == ["@README.md "] and col == len("@README.md ")
    lines, _, _ = apply_completion(['say "see @READ"'], 0, 14, item, Suggestions([item], "@READ", "file"))
    assert lines == ['say "see @README.md "']


