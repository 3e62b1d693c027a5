"""Extensions see tree navigation (pi docs/extensions.md "session_before_tree / session_tree"): a
``session_before_tree`` handler may cancel the move or supply the branch summary; ``session_tree`` follows."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pi_tui.coding.session.entries import MessageEntry

from .conftest import Env


def _ext(env: Env, body: str) -> Path:
    path = env.agent_dir / "cli" / "tree_ext.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


@pytest.mark.anyio
async def test_session_before_tree_can_cancel_or_supply_the_summary_and_session_tree_follows(env: Env) -> None:
    ext = _ext(env, """
    LOG = []
    MODE = ["cancel"]
    def activate(pi):
        def before(event):
            LOG.append(("before", event.preparation.user_wants_summary, len(event.preparation.entries_to_summarize)))
            if MODE[0] == "cancel":
                return {"cancel": True}
            return {"summary": {"summary": "EXTENSION SUMMARY", "details": {"n": 1}}, "label": "from-ext"}
        pi.on("session_before_tree", before)
        pi.on("session_tree", lambda e: LOG.append(("tree", e.from_extension, e.summary_entry["summary"])))
    """)
    env.serve([{"type": "text", "text": "one"}, {"type": "text", "text": "two"}])
    session = env.session(extension_paths=[str(ext)])
    await session.start()
    await session.prompt("first")
    await session.prompt("second")
    module = session.extensions.runtime.extensions[0].module
    target = next(e.id for e in session.session_manager.get_entries()
                  if isinstance(e, MessageEntry) and e.message.role == "assistant")
    leaf = session.session_manager.get_leaf_id()
    assert await session.navigate_tree(target, summarize=True) == {"cancelled": True}
    assert session.session_manager.get_leaf_id() == leaf
    module.MODE[0] = "summary"
    result = await session.navigate_tree(target, summarize=True)
    assert result["summaryEntry"]["summary"] == "EXTENSION SUMMARY" and result["summaryEntry"]["fromHook"] is True
    assert session.session_manager.get_label(result["summaryEntry"]["id"]) == "from-ext"
    assert len(env.bodies()) == 2  # no summariser request: the extension wrote the summary
    assert module.LOG == [("before", True, 2), ("before", True, 2), ("tree", True, "EXTENSION SUMMARY")]
