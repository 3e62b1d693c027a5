"""Tree, leaf and branching (pi session-manager/tree-traversal tests, pi-reference §3.4 "Tree")."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.coding.session import EntryNotFoundError, SessionManager
from pi_tui.coding.session.entries import BranchSummaryEntry, MessageEntry

from .helpers import assistant, read_lines, texts, user


def test_appends_chain_parents_and_advance_leaf() -> None:
    session = SessionManager.in_memory("/p")
    first = session.append_message(user("a"))
    second = session.append_message(assistant("b"))
    third = session.append_thinking_level_change("high")
    entries = session.get_entries()
    assert [e.id for e in entries] == [first, second, third]
    assert [e.parent_id for e in entries] == [None, first, second]
    assert session.get_leaf_id() == third
    assert all(len(e.id) == 8 and int(e.id, 16) >= 0 for e in entries)


def test_get_branch_and_get_tree_with_branches() -> None:
    session = SessionManager.in_memory("/p")
    root = session.append_message(user("root"))
    left = session.append_message(assistant("left"))
    session.branch(root)
    right = session.append_message(assistant("right"))
    right_child = session.append_message(user("more"))
    assert [e.id for e in session.get_branch()] == [root, right, right_child]
    assert [e.id for e in session.get_branch(left)] == [root, left]
    tree = session.get_tree()
    assert len(tree) == 1 and tree[0].entry.id == root
    assert [child.entry.id for child in tree[0].children] == [left, right]
    assert [c.entry.id for c in tree[0].children[1].children] == [right_child]
    assert [c.id for c in session.get_children(root)] == [left, right]


def test_tree_children_sorted_by_timestamp_and_orphans_are_roots() -> None:
    session = SessionManager.in_memory("/p")
    root = session.append_message(user("root"))
    session._entries.append(  # a later-written child with an earlier timestamp, and an orphan
        MessageEntry(id="late0001", parent_id=root, timestamp="2000-01-01T00:00:00.000Z", message=user("x"))
    )
    session._entries.append(MessageEntry(id="orph0001", parent_id="gone", message=user("o")))
    session._entries.append(MessageEntry(id="self0001", parent_id="self0001", message=user("s")))
    session._reset_index(session._entries)
    session.branch(root)
    session.append_message(assistant("now"))
    tree = session.get_tree()
    assert [node.entry.id for node in tree] == [root, "orph0001", "self0001"]
    assert tree[0].children[0].entry.id == "late0001"


def test_branch_errors() -> None:
    session = SessionManager.in_memory("/p")
    with pytest.raises(EntryNotFoundError, match="Entry nope not found"):
        session.branch("nope")
    with pytest.raises(EntryNotFoundError, match="Entry nope not found"):
        session.branch_with_summary("nope", "s")
    assert str(EntryNotFoundError("abc")) == "Entry abc not found"


def test_reset_leaf_makes_new_root() -> None:
    session = SessionManager.in_memory("/p")
    session.append_message(user("a"))
    session.reset_leaf()
    assert session.get_leaf_id() is None
    assert session.build_session_context().messages == []
    new_root = session.append_message(user("b"))
    assert session.get_entry(new_root).parent_id is None
    assert len(session.get_tree()) == 2


def test_branch_with_summary() -> None:
    session = SessionManager.in_memory("/p")
    root = session.append_message(user("root"))
    session.append_message(assistant("abandoned"))
    summary_id = session.branch_with_summary(root, "tried X", details={"files": []}, from_hook=True)
    entry = session.get_entry(summary_id)
    assert isinstance(entry, BranchSummaryEntry)
    assert entry.parent_id == root and entry.from_id == root and entry.from_hook is True
    assert texts(session.build_session_context().messages) == ["user:root", "branchSummary:tried X"]
    root_summary = session.branch_with_summary(None, "from the top")
    assert session.get_entry(root_summary).parent_id is None
    assert session.get_entry(root_summary).to_json_dict()["fromId"] == "root"


def test_create_branched_session_keeps_only_the_path(tmp_path: Path) -> None:
    session = SessionManager.create("/p", tmp_path)
    root = session.append_message(user("root"))
    kept = session.append_message(assistant("kept"))
    session.append_label_change(root, "start")
    session.branch(root)
    dropped = session.append_message(assistant("dropped"))
    session.append_label_change(dropped, "other")
    old_file = session.session_file
    old_id = session.session_id
    new_file = session.create_branched_session(kept)
    assert new_file is not None and new_file != old_file and new_file.exists()
    assert session.session_id != old_id
    lines = read_lines(new_file)
    assert lines[0]["parentSession"] == str(old_file)
    ids = [line["id"] for line in lines[1:]]
    assert ids[:2] == [root, kept] and dropped not in ids
    labels = [line for line in lines[1:] if line["type"] == "label"]
    assert [(label["targetId"], label["label"]) for label in labels] == [(root, "start")]
    assert len(ids) == len(set(ids))  # no duplicated entries
    assert sum(1 for line in lines if line["type"] == "session") == 1
    assert session.get_label(root) == "start"


def test_create_branched_session_writes_only_with_assistant(tmp_path: Path) -> None:
    session = SessionManager.create("/p", tmp_path)
    first = session.append_message(user("q"))
    session.append_message(assistant("a"))
    new_file = session.create_branched_session(first)
    assert new_file is not None and not new_file.exists()
    session.append_message(assistant("answer"))
    lines = read_lines(new_file)
    assert [line["type"] for line in lines] == ["session", "message", "message"]
    with pytest.raises(EntryNotFoundError):
        session.create_branched_session("missing")


def test_create_branched_session_in_memory() -> None:
    session = SessionManager.in_memory("/p")
    first = session.append_message(user("q"))
    session.append_message(assistant("a"))
    assert session.create_branched_session(first) is None
    assert [e.id for e in session.get_entries()] == [first]
    assert session.get_header().parent_session is None


def test_export_to_jsonl_rechains_the_branch(tmp_path: Path) -> None:
    session = SessionManager.in_memory("/p")
    root = session.append_message(user("root"))
    session.append_message(assistant("left"))
    session.branch(root)
    right = session.append_message(assistant("right"))
    out = session.export_to_jsonl(tmp_path / "out" / "export.jsonl")
    lines = read_lines(out)
    assert lines[0]["type"] == "session" and lines[0]["id"] == session.session_id
    assert [(line["id"], line["parentId"]) for line in lines[1:]] == [(root, None), (right, root)]
    reopened = SessionManager.open(out)
    assert texts(reopened.build_session_context().messages) == ["user:root", "assistant:right"]
