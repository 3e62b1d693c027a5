"""Labels and session names (pi session-manager/labels tests, pi-reference §3.4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.coding.session import EntryNotFoundError, SessionManager

from .helpers import assistant, user


def test_last_label_per_target_wins_and_clearing() -> None:
    session = SessionManager.in_memory("/p")
    target = session.append_message(user("a"))
    session.append_label_change(target, "first")
    session.append_label_change(target, "second")
    assert session.get_label(target) == "second"
    node = session.get_tree()[0]
    assert node.label == "second" and node.label_timestamp is not None
    session.append_label_change(target, None)
    assert session.get_label(target) is None
    cleared = session.get_entries()[-1].to_json_dict()
    assert "label" not in cleared and cleared["targetId"] == target


def test_label_on_unknown_entry_raises() -> None:
    session = SessionManager.in_memory("/p")
    with pytest.raises(EntryNotFoundError, match="Entry x not found"):
        session.append_label_change("x", "nope")


def test_labels_survive_reload(tmp_path: Path) -> None:
    session = SessionManager.create("/p", tmp_path)
    target = session.append_message(user("a"))
    session.append_message(assistant("b"))
    session.append_label_change(target, "bookmark")
    reopened = SessionManager.open(session.session_file)
    assert reopened.get_label(target) == "bookmark"


def test_session_name_latest_wins_and_empty_clears(tmp_path: Path) -> None:
    session = SessionManager.create("/p", tmp_path)
    session.append_message(user("a"))
    session.append_message(assistant("b"))
    assert session.session_name is None
    session.append_session_info("  My work  ")
    assert session.session_name == "My work"
    assert session.get_entries()[-1].to_json_dict()["name"] == "My work"
    session.append_session_info("Renamed")
    assert SessionManager.open(session.session_file).session_name == "Renamed"
    session.append_session_info("   ")
    assert session.session_name is None
    assert SessionManager.open(session.session_file).session_name is None
