"""A tree made by pi 0.73.1 (tests/fixtures/pi-sessions/pi-branched.raw.jsonl, written by pi's SessionManager)
shows and navigates here as in pi: the same tree, labels and leaf; jumping back to a user message, to the other
branch, and prompting from there."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message
from pi_tui.coding.session.session_manager import SessionManager
from pi_tui.coding.session.tree_view import build_tree_view, display_tree

from .helpers import make_session

pytestmark = pytest.mark.anyio

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "pi-sessions" / "pi-branched.raw.jsonl"
IDS = {"u1": "8f4909f9", "a1": "3b838c7d", "u2": "83782a96", "call": "5f8b397e", "a2": "41d58a5f",
       "summary": "8684638d", "u3": "3cd1306d", "a3": "4739b6b6", "leaf": "4962d9a7"}


def _open(tmp_path: Path) -> SessionManager:
    copy = tmp_path / "sessions" / FIXTURE.name
    copy.parent.mkdir(parents=True)
    shutil.copyfile(FIXTURE, copy)
    return SessionManager.open(copy)


def test_the_pi_tree_is_shown_with_its_labels_and_leaf(tmp_path: Path) -> None:
    manager = _open(tmp_path)
    assert manager.get_leaf_id() == IDS["leaf"]
    view = build_tree_view(manager)
    rows = display_tree(view.roots)
    assert [r.node.id for r in rows] == [IDS["u1"], IDS["a1"]]
    branches = [b.node for b in rows[1].children]
    assert [b.id for b in branches] == [IDS["summary"], IDS["u2"]]  # the active branch first
    assert branches[0].display_text.startswith("[branch summary]: The user tried recursive descent")
    assert branches[1].label == "option-A" and not branches[1].on_active_path
    a3 = view.find(IDS["a3"])
    assert a3 is not None and a3.label == "option-B" and a3.is_current
    assert view.find(IDS["call"]) is None  # a tool-call-only reply is hidden, its result is shown
    assert any(n.display_text == "[read: src/parser.py]" for n in view.flat())


async def test_navigating_the_pi_tree(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([faux_assistant_message("Pratt, take two.")])
    session = make_session(tmp_path, faux.get_model(), manager=_open(tmp_path))
    result = await session.navigate_tree(IDS["u2"])  # the other branch's user message
    assert result == {"cancelled": False, "editorText": "Try recursive descent"}
    assert session.session_manager.get_leaf_id() == IDS["a1"]
    assert [m.role for m in session.messages] == ["user", "assistant"]
    await session.navigate_tree(IDS["a2"])  # the end of the old branch: its tool call and result are back
    assert [m.role for m in session.messages] == ["user", "assistant", "user", "assistant", "toolResult", "assistant"]
    await session.navigate_tree(IDS["u3"])
    await session.prompt("Now try Pratt, more carefully")
    manager = session.session_manager
    new_reply = manager.get_leaf_entry()
    assert new_reply is not None and new_reply.type == "message"
    path = [e.id for e in manager.get_branch()]
    assert path[:5] == [manager.get_entries()[0].id, manager.get_entries()[1].id, IDS["u1"], IDS["a1"], IDS["summary"]]
    assert [m.role for m in session.messages][:3] == ["user", "assistant", "branchSummary"]
    assert _starts_with_the_pi_file(Path(str(manager.get_session_file())))


def _starts_with_the_pi_file(path: Path) -> bool:
    """The file pi wrote was appended to, not rewritten: every original line is still there, in order."""
    original = FIXTURE.read_text().splitlines()
    return path.read_text().splitlines()[: len(original)] == original
