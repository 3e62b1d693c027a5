"""Deep branches and long runs of tool results cost linear work to build the context (pi fix 0.79.9, issue 15)."""

from __future__ import annotations

from typing import Any

import pytest

from pi_tui.ai.types import AssistantMessage, ToolCall
from pi_tui.coding.session import context
from pi_tui.coding.session.session_manager import SessionManager
from tests.coding.session.helpers import assistant, tool_result, user


def _counting_role(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls = [0]
    real = context.message_role

    def counted(message: Any) -> Any:
        calls[0] += 1
        return real(message)

    monkeypatch.setattr(context, "message_role", counted)
    return calls


def test_a_long_run_of_tool_results_is_walked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    n = 2000
    manager = SessionManager.in_memory("/p")
    manager.append_message(user("go"))
    calls_ = [ToolCall(id=f"c{k}", name="read", arguments={"path": f"f{k}"}) for k in range(n)]
    manager.append_message(AssistantMessage(content=calls_, provider="mock", model="m", stop_reason="toolUse"))
    for k in range(n):
        manager.append_message(tool_result(f"r{k}", call_id=f"c{k}"))
    manager.append_message(assistant("done"))
    calls = _counting_role(monkeypatch)
    ctx = manager.build_session_context(close_interrupted=True)
    assert len(ctx.messages) == n + 3
    assert not any("interrupted" in str(getattr(m, "content", "")) for m in ctx.messages)
    assert calls[0] <= 12 * n, f"{calls[0]} role look-ups for {n} results: the run was walked once per result"


def test_a_deep_branch_builds_its_context_and_tree_in_linear_work(monkeypatch: pytest.MonkeyPatch) -> None:
    n = 5000
    manager = SessionManager.in_memory("/p")
    for k in range(n):
        manager.append_message(user(f"q{k}") if k % 2 == 0 else assistant(f"a{k}"))
    middle = manager.get_branch()[n // 2].id
    manager.branch(middle)
    manager.append_message(user("side"))
    calls = _counting_role(monkeypatch)
    ctx = manager.build_session_context(close_interrupted=True)
    assert len(ctx.messages) == n // 2 + 2
    assert calls[0] <= 10 * n
    roots = manager.get_tree()  # iterative: a 5,000-deep chain does not recurse
    depth, node = 0, roots[0]
    while node.children:
        node = node.children[-1] if len(node.children) == 1 else node.children[0]
        depth += 1
    assert depth >= n // 2
