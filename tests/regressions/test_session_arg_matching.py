"""``--session <partial id>`` (found by H11): an ambiguous id printed every matching file name on one line
(66 names), and the argument was used as a glob pattern."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.coding.agent_session.factory import MAX_LISTED_MATCHES, SessionSetupError, _find_session_file


def test_ambiguous_id_lists_a_few_newest_matches(tmp_path: Path) -> None:
    for i in range(12):
        (tmp_path / f"2026-01-{i + 10:02d}T00-00-00-000Z_01a2{i:02d}aa-0000.jsonl").write_text("")
    with pytest.raises(SessionSetupError) as info:
        _find_session_file("01a2", str(tmp_path), tmp_path)
    text = str(info.value)
    assert text.startswith("12 sessions match '01a2'")
    assert text.count(".jsonl") == MAX_LISTED_MATCHES
    assert "2026-01-21" in text and "2026-01-10" not in text  # newest first
    assert text.endswith(f"and {12 - MAX_LISTED_MATCHES} more")


def test_id_is_not_a_glob_pattern(tmp_path: Path) -> None:
    (tmp_path / "2026-01-01T00-00-00-000Z_abc.jsonl").write_text("")
    with pytest.raises(SessionSetupError, match="No session found matching"):
        _find_session_file("a?c", str(tmp_path), tmp_path)
    assert _find_session_file("abc", str(tmp_path), tmp_path).name.endswith("_abc.jsonl")
