"""A picker's filter keeps the keyboard whatever toggle or habit key is pressed (new-user run #43).

``/resume``: typing ``bash``, Tab (this folder → all folders), then ``xx`` and Backspace×4 left the filter at
``bash``: the picker's ``loading`` flag was Textual's own ``Widget.loading``, so listing every folder covered
the screen with a loading indicator, which took the focus from the filter for good. In the model picker (Ctrl+L)
one Tab moved the focus to the list and the letters typed after it went nowhere. Rows in "all folders" mode must
stay one line each (they wrapped, halving the list).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, OptionList

from pi_tui.tui.modals.model_picker import ModelPicker

from .helpers import make_app, make_session, wait_until
from .snapshots.session_scenarios import write_session
from .test_resume_picker import _folder, _open, _picker

pytestmark = pytest.mark.anyio


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PI_TUI_DIR", str(tmp_path / "agent"))
    return tmp_path


async def test_the_resume_filter_keeps_typing_after_tab(home: Path) -> None:
    files = _folder(home)
    app = make_app(_open(home, files["current"]))
    async with app.run_test(size=(120, 34)) as pilot:
        picker = await _picker(pilot)
        field = picker.query_one(Input)
        await pilot.press(*"old")
        assert field.value == "old"
        await pilot.press("tab")
        await wait_until(pilot, lambda: picker.scope == "all" and picker.sessions["all"] is not None)
        await pilot.pause(0.1)
        await pilot.press("x", "x")
        assert field.value == "oldxx"
        await pilot.press(*["backspace"] * 5)
        assert field.value == ""
        await pilot.press(*"another")
        assert field.value == "another"
        assert "question in another folder" in [r.info.first_message for r in picker.rows]
        await pilot.press("tab")  # back to this folder: still typing into the filter
        await pilot.press("backspace")
        assert field.value == "anothe" and app.focused is field


@pytest.mark.parametrize("size", [(60, 16), (120, 34), (200, 50)])
async def test_every_folder_rows_are_one_line_each(home: Path, size: tuple[int, int]) -> None:
    files = _folder(home)
    for n in range(12):  # more rows than fit: a scrollbar takes its column
        write_session(home / "agent" / "sessions" / f"--folder{n}--", f"f{n:07d}-0000-4000-8000-000000000000", 1 + n,
                      [(f"a long first question number {n} " * 3, "answer")], cwd=f"/tmp/a/rather/long/folder/{n}")
    app = make_app(_open(home, files["current"]))
    async with app.run_test(size=size) as pilot:
        picker = await _picker(pilot)
        await pilot.press("tab")
        await wait_until(pilot, lambda: picker.sessions["all"] is not None and len(picker.rows) > 12)
        await pilot.pause(0.2)
        ol = picker.query_one(OptionList)
        assert len(ol._lines) == ol.option_count  # one screen line per session


async def test_the_model_filter_keeps_typing_after_tab(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.press("ctrl+l")
        await wait_until(pilot, lambda: isinstance(app.screen, ModelPicker))
        picker = app.screen
        field = picker.query_one(Input)
        await pilot.press("tab", *"faux")
        assert field.value == "faux" and app.focused is field
        await pilot.press("shift+tab", "backspace")
        assert field.value == "fau" and app.focused is field
