"""Branch round trip with the real pi 0.73.1 (optional oracle test, like tests/coding/session/test_pi_interop.py):
branches made here (tree navigation, a branch summary, labels) load in pi with the same tree, labels, leaf and
context; a branched session made by pi's own SessionManager, navigated and extended here, still loads in pi.

Runs only when ``PI_REF_DIR`` points at an ``npm install @mariozechner/pi-coding-agent@0.73.1`` and ``node`` is
on PATH (no network): ``PI_REF_DIR=/tmp/piref .venv/bin/python -m pytest tests/coding/session_core/test_pi_tree_interop.py``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message
from pi_tui.coding.session.messages import message_to_json
from pi_tui.coding.session.session_manager import SessionManager
from pi_tui.coding.session.tree import SessionTreeNode

from .helpers import make_session

PI_REF_DIR = os.environ.get("PI_REF_DIR", "")
PI_PACKAGE = Path(PI_REF_DIR) / "node_modules" / "@mariozechner" / "pi-coding-agent"
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "pi-sessions"

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(not (PI_REF_DIR and PI_PACKAGE.is_dir() and shutil.which("node")),
                       reason="set PI_REF_DIR to an npm install of @mariozechner/pi-coding-agent@0.73.1"),
]

READ_TREE = """
import { SessionManager } from "@mariozechner/pi-coding-agent";
const sm = SessionManager.open(process.argv[2]);
const shape = (n) => ({ id: n.entry.id, type: n.entry.type, label: n.label ?? null,
  children: n.children.map(shape) });
const ctx = sm.buildSessionContext();
console.log("RESULT " + JSON.stringify({ leaf: sm.getLeafId(), tree: sm.getTree().map(shape),
  branch: sm.getBranch().map((e) => e.id), messages: ctx.messages }));
"""


def _node(script: str, *args: str) -> dict[str, Any]:
    runner = Path(PI_REF_DIR) / "pi-tui-tree-interop.mjs"  # ESM resolves packages next to the script
    runner.write_text(script)
    try:
        out = subprocess.run(["node", str(runner), *args], capture_output=True, text=True, timeout=60, check=True,
                             env={**os.environ, "NODE_PATH": str(Path(PI_REF_DIR) / "node_modules")}).stdout
    finally:
        runner.unlink()
    return dict(json.loads(next(line for line in out.splitlines() if line.startswith("RESULT "))[7:]))


def _shape(nodes: list[SessionTreeNode]) -> list[dict[str, Any]]:
    return [{"id": n.entry.id, "type": n.entry.type, "label": n.label, "children": _shape(n.children)} for n in nodes]


def _check_pi_sees(manager: SessionManager) -> None:
    pi = _node(READ_TREE, str(manager.get_session_file()))
    assert pi["leaf"] == manager.get_leaf_id()
    assert pi["tree"] == _shape(manager.get_tree())
    assert pi["branch"] == [e.id for e in manager.get_branch()]
    assert pi["messages"] == [message_to_json(m) for m in manager.build_session_context().messages]


async def test_branches_made_here_load_in_pi_with_the_same_tree_and_leaf(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([faux_assistant_message("one"), faux_assistant_message("two"),
                        faux_assistant_message("## Goal\nsummary of two"), faux_assistant_message("two, again"),
                        faux_assistant_message("three")])
    session = make_session(tmp_path, faux.get_model())
    await session.prompt("first")
    await session.prompt("second")
    manager = session.session_manager
    second = next(e for e in manager.get_entries() if e.type == "message" and e.message.role == "user"
                  and e.message.content[0].text == "second")
    result = await session.navigate_tree(second.id, summarize=True, label="tried once")
    assert result["editorText"] == "second"
    await session.prompt("second, reworded")
    session.set_entry_label(second.id, "original")
    await session.prompt("third")
    _check_pi_sees(manager)
    await session.navigate_tree(second.id)  # leave the leaf on the old branch's user message parent
    session.set_entry_label(second.id, None)
    _check_pi_sees(manager)


async def test_a_tree_made_by_pi_navigated_here_still_loads_in_pi(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([faux_assistant_message("Descent, again.")])
    copy = tmp_path / "sessions" / "pi-branched.jsonl"
    copy.parent.mkdir(parents=True)
    shutil.copyfile(FIXTURES / "pi-branched.raw.jsonl", copy)
    session = make_session(tmp_path, faux.get_model(), manager=SessionManager.open(copy))
    _check_pi_sees(session.session_manager)
    await session.navigate_tree("83782a96")  # "Try recursive descent": the branch that is not active
    await session.prompt("Try recursive descent, with tests")
    _check_pi_sees(session.session_manager)
