"""Keys typed fast into a picker's filter are applied in order (new-user run #24: ``abc`` then Backspace×3 and
``xyz`` in the ``/resume`` filter read ``abx``; the Ctrl+L model filter gave ``axy``).

Textual's ``Input`` inserts a printable key in its own handler but runs Backspace, Delete, arrows and its other
bindings only once the key has bubbled up to the app, behind every key already queued; while a list re-filters
the keys queue up, so Backspace deleted keys typed after it. The pickers' inputs now run their own bindings in
key order (:class:`pi_tui.tui.widgets.ordered_input.OrderedInput`), as the main editor does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, TextArea

from pi_tui.tui.modals.model_picker import ModelPicker
from pi_tui.tui.modals.resume_rows import session_label
from pi_tui.tui.modals.text_prompt import TextPromptModal
from tests.regressions.typing_helpers import type_raw

from .helpers import make_app, make_session, wait_until
from .snapshots.session_scenarios import write_session
from .test_resume_picker import _open, _picker

pytestmark = pytest.mark.anyio

BS = "\x7f"
LEFT = "\x1b[D"
DELETE = "\x1b[3~"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PI_TUI_DIR", str(tmp_path / "agent"))
    return tmp_path


def _filter(screen: Any) -> Input:
    return screen.query_one(Input)


async def _typed(pilot: Any, widget: Any, data: str) -> None:
    """Type ``data`` as one burst and pump until every key has been handled (no message left queued in the
    widget or above it, three pauses in a row)."""
    await type_raw(pilot, data)
    quiet = 0
    for _ in range(500):
        await pilot.pause()
        busy = any(not node._message_queue.empty() for node in widget.ancestors_with_self)
        quiet = 0 if busy else quiet + 1
        if quiet >= 3:
            return
    raise AssertionError("keys still queued")


async def test_the_resume_filter_applies_a_fast_burst_in_order(home: Path) -> None:
    folder = home / "agent" / "sessions" / "--project--"
    for n in range(17):  # the tester's folder had 17 sessions
        write_session(folder, f"{n:08x}-0000-4000-8000-000000000000", 1 + n, [(f"{n} msg about xyz {n}", "ok")],
                      cwd=str(home))
    current = write_session(folder, "ffffffff-0000-4000-8000-000000000000", 28, [("mine", "yes")], cwd=str(home))
    app = make_app(_open(home, current))
    async with app.run_test(size=(120, 34)) as pilot:
        picker = await _picker(pilot)
        field = _filter(picker)
        await _typed(pilot, field, "abc")
        assert field.value == "abc"
        await _typed(pilot, field, BS * 3 + "xyz")
        assert field.value == "xyz" and picker.filters.query == "xyz"
        await _typed(pilot, field, BS * 3 + "36 msg" + BS * 6 + "3 msg")
        assert field.value == "3 msg" and picker.filters.query == "3 msg"
        assert "3 msg about xyz 3" in [session_label(r.info) for r in picker.rows]
        # Left and Delete keep their place between text keys, as in the main editor
        await _typed(pilot, field, BS * 5 + "abc" + BS + "de" + LEFT + LEFT + "x" + DELETE)
        assert field.value == "abxe" and picker.filters.query == "abxe"


async def test_the_model_filter_applies_a_fast_burst_in_order(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.press("ctrl+l")
        await wait_until(pilot, lambda: isinstance(app.screen, ModelPicker))
        picker = app.screen
        assert isinstance(picker, ModelPicker)
        field = _filter(picker)
        await _typed(pilot, field, "abc" + BS * 3 + "xyz" + BS * 3 + "36 msg" + BS * 6 + "faux")
        assert field.value == "faux"
        assert [e.label for e in picker.shown] == ["faux-1"]
        await type_raw(pilot, "\r")  # Enter in the same order too: picks what the filter shows
        await wait_until(pilot, lambda: not isinstance(app.screen, ModelPicker))
        assert session.model.id == "faux-1"


async def test_a_text_prompt_takes_a_fast_burst_in_order(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    results: list[str | None] = []
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.push_screen(TextPromptModal("Name?"), results.append)
        await wait_until(pilot, lambda: isinstance(app.screen, TextPromptModal))
        await type_raw(pilot, "abc" + BS * 3 + "name" + BS + "e\r")
        await wait_until(pilot, lambda: bool(results))
        assert results == ["name"]


async def test_a_multiline_text_prompt_takes_a_fast_burst_in_order(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    results: list[str | None] = []
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.push_screen(TextPromptModal("Notes", multiline=True), results.append)
        await wait_until(pilot, lambda: isinstance(app.screen, TextPromptModal) and app.screen.query(TextArea))
        area = app.screen.query_one(TextArea)
        await _typed(pilot, area, "abc" + BS * 3 + "one\rtwo" + BS + "o" + LEFT + LEFT + "x" + DELETE)
        assert area.text == "one\ntxo"
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: bool(results))
        assert results == ["one\ntxo"]
