"""Ctrl+U, Ctrl+K, Home/Ctrl+A and End/Ctrl+E act on the logical line, not the screen row it wraps to
(new-user run #23: on a 40-word prompt wrapped to 3 rows Ctrl+U deleted only the last row; at 60 columns with CJK
text the box shrank, '/settings' was typed after the kept text and sent to the model).

pi 0.73.1 editor (``deleteToStartOfLine``, ``deleteToEndOfLine``, ``moveToLineStart``, ``moveToLineEnd``): the
line is ``state.lines[cursorLine]``, split only at newlines; readline and bash do the same. Up/Down still move by
screen row (pi's ``moveCursor`` over visual lines).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .helpers import make_app, make_session, wait_until

pytestmark = pytest.mark.anyio

WORDS = " ".join(f"word{i}" for i in range(40))
CJK = "中文字符测试换行" * 10


async def _editor(pilot: Any, text: str) -> Any:
    app = pilot.app
    await wait_until(pilot, lambda: app.session_ready)
    editor = app.prompt_input
    editor.set_text(text)
    await pilot.pause()
    return editor


def _rows(editor: Any, line: int = 0) -> int:
    return len(editor.wrapped_document.get_offsets(line)) + 1


@pytest.mark.parametrize(("size", "text"), [((120, 40), WORDS), ((60, 24), CJK)])
async def test_ctrl_u_deletes_to_the_start_of_the_logical_line(tmp_path: Path, size: tuple[int, int],
                                                                 text: str) -> None:
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=size) as pilot:
        editor = await _editor(pilot, "first line\n" + text)
        assert _rows(editor, 1) >= 3  # soft-wrapped
        await pilot.press("ctrl+u")
        assert editor.text == "first line\n"
        await pilot.press("ctrl+z")  # one undoable edit, as in pi
        assert editor.text == "first line\n" + text


async def test_ctrl_k_and_line_start_end_keys_use_the_logical_line(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await _editor(pilot, WORDS + "\nsecond")
        assert _rows(editor) >= 3
        for home in ("home", "ctrl+a"):
            editor.move_cursor((0, len(WORDS)))
            await pilot.press(home)
            assert editor.cursor_location == (0, 0)
        for end in ("end", "ctrl+e"):
            editor.move_cursor((0, 3))
            await pilot.press(end)
            assert editor.cursor_location == (0, len(WORDS))
        editor.move_cursor((0, 6))  # after "word0 "
        await pilot.press("ctrl+k")
        assert editor.text == "word0 \nsecond"
        await pilot.press("ctrl+k")  # at the line end: joins the next line (pi)
        assert editor.text == "word0 second"
        # Up/Down still move by screen row on a wrapped line
        editor.set_text(WORDS)
        await pilot.pause()
        await pilot.press("up")
        assert editor.cursor_location[0] == 0 and 0 < editor.cursor_location[1] < len(WORDS)


async def test_the_extension_editor_dialog_uses_the_logical_line_too(tmp_path: Path) -> None:
    from textual.widgets import TextArea

    from pi_tui.tui.modals.text_prompt import TextPromptModal

    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.push_screen(TextPromptModal("Notes", prefill="keep\n" + WORDS, multiline=True))
        await wait_until(pilot, lambda: isinstance(app.screen, TextPromptModal) and app.screen.query(TextArea))
        area = app.screen.query_one(TextArea)
        area.move_cursor(area.document.end)
        await pilot.pause()
        assert _rows(area, 1) >= 3
        await pilot.press("ctrl+u")
        assert area.text == "keep\n"
