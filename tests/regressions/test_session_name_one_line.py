"""Session names and labels are one line (pi 0.80.0, earendil-works/pi#5999): a pasted multi-line name broke the
``/resume`` list, the footer and the window title."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_tui.coding.session.session_manager import SessionManager


@pytest.mark.parametrize(("given", "stored"), [
    ("fix the\nparser", "fix the parser"),
    ("  fix the \r\n\r\n parser  ", "fix the parser"),
    ("a\rb\u2028c", "a b\u2028c"),
    ("\n\n", None),
])
def test_set_name_stores_one_line(tmp_path: Path, given: str, stored: str | None) -> None:
    manager = SessionManager.create(str(tmp_path), str(tmp_path / "sessions"))
    manager.append_session_info(given)
    assert manager.session_name == stored


def test_label_is_one_line(tmp_path: Path) -> None:
    manager = SessionManager.create(str(tmp_path), str(tmp_path / "sessions"))
    target = manager.append_session_info("x")
    manager.append_label_change(target, "two\nlines")
    assert "two lines" in json.dumps([e.model_dump() for e in manager.get_entries()])
