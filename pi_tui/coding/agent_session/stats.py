"""AgentSession context usage and statistics (pi-reference §3.8).

``get_context_usage()`` → ``{tokens, contextWindow, percent}`` (``tokens``/``percent`` None right after a
compaction until a successful assistant reply), or None without a model/context window.
``get_session_stats()`` → pi's SessionStats: message and tool-call counts, summed tokens and cost (of the
messages in the agent's context). ``get_session_totals()`` → the footer's totals: every assistant entry of the
session file, compacted ones included (pi's footer; issue 9: ``/compact`` reset the footer).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pi_tui.agent import Agent
from pi_tui.ai.types import Model
from pi_tui.coding.compaction import estimate_context_tokens
from pi_tui.coding.messages import message_role
from pi_tui.coding.session.entry_figures import EntryFigures
from pi_tui.coding.session.session_manager import SessionManager


class SessionStats:
    """Usage figures of one session: ``agent`` (the messages in context), ``session_manager()`` (the current
    file's entries) and ``model()`` (the active model, None when none is selected)."""

    def __init__(
        self,
        *,
        agent: Agent,
        session_manager: Callable[[], SessionManager],
        model: Callable[[], Model | None],
    ) -> None:
        self._agent = agent
        self._manager = session_manager
        self._model = model
        self._figures = EntryFigures()  # totals and the latest compaction, kept up to date (issue 15)

    def get_context_usage(self) -> dict[str, Any] | None:
        """Context tokens in use and the share of the model's window (pi's ``getContextUsage``)."""
        model = self._model()
        if model is None or model.context_window <= 0:
            return None
        window = model.context_window
        messages = self._agent.state.messages
        latest = self._figures.latest_compaction_ms(self._manager())
        if latest is not None:
            fresh = any(
                message_role(m) == "assistant"
                and m.stop_reason not in ("aborted", "error")
                and m.usage.total_tokens + m.usage.input + m.usage.output > 0
                and m.timestamp > latest
                for m in messages
            )
            if not fresh:
                return {"tokens": None, "contextWindow": window, "percent": None}
        tokens = estimate_context_tokens(messages).tokens
        return {"tokens": tokens, "contextWindow": window, "percent": tokens / window * 100}

    def get_session_totals(self) -> dict[str, Any]:
        """``{input, output, cacheRead, cacheWrite, total, cost}`` over every assistant message entry of the
        session (pi's footer sums ``sessionManager.getEntries()``), so compaction never lowers them."""
        return self._figures.totals(self._manager())  # only entries appended since the last call are added

    def get_session_stats(self) -> dict[str, Any]:
        """pi's SessionStats for the current state (counts, tokens, cost, context usage)."""
        manager = self._manager()
        counts = {"user": 0, "assistant": 0, "toolResult": 0}
        tool_calls = 0
        tokens = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}
        cost = 0.0
        for message in self._agent.state.messages:
            role = message_role(message)
            if role in counts:
                counts[role] += 1
            if role == "assistant":
                tool_calls += sum(1 for b in message.content if b.type == "toolCall")
                usage = message.usage
                tokens["input"] += usage.input
                tokens["output"] += usage.output
                tokens["cacheRead"] += usage.cache_read
                tokens["cacheWrite"] += usage.cache_write
                tokens["total"] += usage.total_tokens
                cost += usage.cost.total
        return {
            "sessionFile": _file_name(manager),
            "sessionId": manager.get_session_id(),
            "userMessages": counts["user"],
            "assistantMessages": counts["assistant"],
            "toolCalls": tool_calls,
            "toolResults": counts["toolResult"],
            "totalMessages": len(self._agent.state.messages),
            "tokens": tokens,
            "cost": cost,
            "contextUsage": self.get_context_usage(),
        }


def _file_name(manager: SessionManager) -> str | None:
    path = manager.get_session_file()
    return str(path) if path is not None else None
