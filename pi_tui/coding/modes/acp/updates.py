"""pi-tui session events → ACP ``session/update`` payloads (ACP "Prompt Turn", "Tool Calls", "Agent Plan").

:class:`UpdateMapper` turns one :class:`~pi_tui.coding.agent_session.AgentSession` event into zero or more
updates, in event order:

* assistant ``text_delta`` → ``agent_message_chunk``; ``thinking_delta`` → ``agent_thought_chunk``;
* ``tool_execution_start`` → ``tool_call`` (status ``pending``, kind, title, locations, raw input); the
  permission gate then reports ``in_progress`` (:meth:`UpdateMapper.started`); ``tool_execution_update``
  → ``tool_call_update`` with the partial output; ``tool_execution_end`` → ``completed``/``failed`` with the
  result text, and for ``edit``/``write`` a diff with the old and new text; a ``bash`` call that runs in a
  client terminal (:meth:`UpdateMapper.terminal_created`) carries that terminal instead of its partial output
  (the client shows it live), and the terminal plus the result text when it ends;
* a tool result whose ``details`` carry ``todos`` (pi's todo example: ``[{id, text, done}]``) or ``plan``
  (``[{content, status, priority?}]``) → ``plan``;
* UI-only ``notification`` and ``artifact`` messages (never sent to the LLM) → a message chunk
  (notifications) or a completed ``other`` tool card (artifacts), so the client can show them; the diff
  artifact of an ``edit``/``write`` whose call already carried the diff is not sent twice.

:func:`replay_updates` gives the updates that rebuild a stored transcript for ``session/load``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from acp import (
    plan_entry,
    start_tool_call,
    text_block,
    update_agent_message_text,
    update_agent_thought_text,
    update_plan,
    update_tool_call,
    update_user_message,
)
from acp.helpers import image_block
from acp.schema import PlanEntry, TerminalToolCallContent

from pi_tui.coding.modes.acp.tool_calls import (
    FileSnapshots,
    absolute_path,
    result_text,
    text_content,
    tool_kind,
    tool_locations,
    tool_title,
)

Update = Any
"""One ACP session update model (``AgentMessageChunk``, ``ToolCallStart``, ``ToolCallProgress``, …)."""


def _get(value: Any, key: str, default: Any = None) -> Any:
    if isinstance(value, dict):
        return value.get(key, default)
    return getattr(value, key, default)


def plan_from_details(details: Any) -> list[PlanEntry] | None:
    """Plan entries from a tool result's ``details`` (``todos`` or ``plan``), or None when it has neither."""
    todos = _get(details, "todos")
    if isinstance(todos, list):
        return [
            plan_entry(str(_get(t, "text", "")), status="completed" if _get(t, "done") else "pending")
            for t in todos
            if isinstance(t, dict)
        ]
    plan = _get(details, "plan")
    if isinstance(plan, list):
        entries = []
        for item in plan:
            if not isinstance(item, dict):
                continue
            status: Any = item.get("status") if item.get("status") in ("pending", "in_progress", "completed") else "pending"
            priority: Any = item.get("priority") if item.get("priority") in ("high", "medium", "low") else "medium"
            entries.append(plan_entry(str(item.get("content", "")), status=status, priority=priority))
        return entries
    return None


def notification_text(message: Any) -> str:
    """How a UI-only notification reads in the client (``Warning: …``/``Error: …``; info as is)."""
    level = _get(message, "level", "info")
    text = str(_get(message, "text", ""))
    prefix = {"warning": "Warning: ", "error": "Error: "}.get(level, "")
    return f"\n\n> {prefix}{text}\n\n"


def _artifact_updates(message: Any, index: int) -> list[Update]:
    title = str(_get(message, "title", "artifact"))
    kind = _get(message, "kind", "text")
    content = str(_get(message, "content", ""))
    body = f"```{_get(message, 'language') or ('diff' if kind == 'diff' else '')}\n{content}\n```" if kind in (
        "code", "diff") else content
    return [start_tool_call(f"artifact-{index}", title, kind="other", status="completed",
                            content=text_content(body))]


class UpdateMapper:
    """Maps the events of one AgentSession to ACP updates (module docstring). ``cwd``: the session folder
    (tool paths are made absolute against it)."""

    def __init__(self, cwd: str) -> None:
        self.cwd = cwd
        self.snapshots = FileSnapshots(cwd)
        self._ui_count = 0
        self._calls: dict[str, tuple[str, Any]] = {}
        self._diffed: list[str] = []  # paths whose diff a finished call already carried
        self.terminals: dict[str, str] = {}  # call id -> the client terminal its bash command runs in

    def started(self, call_id: str) -> Update:
        """The ``in_progress`` update for a call the permission gate let run."""
        return update_tool_call(call_id, status="in_progress")

    def terminal_created(self, terminal_id: str) -> list[Update]:
        """The client made terminal ``terminal_id`` for a bash command: embed it in that call, when exactly one
        bash call without a terminal is running (parallel bash calls cannot be told apart: they stream text)."""
        running = [cid for cid, (name, _) in self._calls.items() if name == "bash" and cid not in self.terminals]
        if len(running) != 1:
            return []
        self.terminals[running[0]] = terminal_id
        return [update_tool_call(running[0], status="in_progress", content=[_terminal(terminal_id)])]

    def map(self, event: Any) -> list[Update]:
        """Updates for one session event (see the module docstring); unknown events give none."""
        kind = _get(event, "type")
        if kind == "message_update":
            inner = _get(event, "assistant_message_event")
            inner_kind = _get(inner, "type")
            if inner_kind == "text_delta" and _get(inner, "delta"):
                return [update_agent_message_text(_get(inner, "delta"))]
            if inner_kind == "thinking_delta" and _get(inner, "delta"):
                return [update_agent_thought_text(_get(inner, "delta"))]
            return []
        if kind == "message_end":
            return self._ui_message(_get(event, "message"))
        if kind == "tool_execution_start":
            call_id, name, args = _get(event, "tool_call_id"), _get(event, "tool_name"), _get(event, "args")
            self._calls[call_id] = (name, args)
            self.snapshots.before(call_id, name, args)
            return [start_tool_call(call_id, tool_title(name, args), kind=tool_kind(name), status="pending",
                                    locations=tool_locations(name, args, self.cwd), raw_input=args)]
        if kind == "tool_execution_update":
            if _get(event, "tool_call_id") in self.terminals:
                return []  # the embedded terminal shows the output
            text = result_text(_get(event, "partial_result"))
            return [update_tool_call(_get(event, "tool_call_id"), status="in_progress",
                                     content=text_content(text))] if text else []
        if kind == "tool_execution_end":
            return self._tool_end(event)
        return []

    def _tool_end(self, event: Any) -> list[Update]:
        call_id = _get(event, "tool_call_id")
        result = _get(event, "result")
        failed = bool(_get(event, "is_error"))
        self._calls.pop(call_id, None)
        diffs = self.snapshots.diff(call_id, not failed)
        self._diffed.extend(d.path for d in diffs)
        terminal = self.terminals.pop(call_id, None)
        content: list[Any] = [*diffs, *([_terminal(terminal)] if terminal else []), *text_content(result_text(result))]
        updates: list[Update] = [
            update_tool_call(call_id, status="failed" if failed else "completed", content=content,
                             raw_output=result_text(result))
        ]
        entries = plan_from_details(_get(result, "details"))
        if entries is not None:
            updates.append(update_plan(entries))
        return updates

    def _ui_message(self, message: Any) -> list[Update]:
        role = _get(message, "role")
        if role == "notification":
            return [update_agent_message_text(notification_text(message))]
        if role == "artifact":
            path = _get(message, "path")
            absolute = absolute_path(self.cwd, path) if isinstance(path, str) else None
            if _get(message, "kind") == "diff" and absolute in self._diffed:
                self._diffed.remove(absolute)  # the tool call already shows this diff
                return []
            self._ui_count += 1
            return _artifact_updates(message, self._ui_count)
        return []


def _user_blocks(message: Any) -> Iterable[Any]:
    content = _get(message, "content")
    if isinstance(content, str):
        yield text_block(content)
        return
    for block in content or ():
        kind = _get(block, "type")
        if kind == "text":
            yield text_block(str(_get(block, "text", "")))
        elif kind == "image":
            yield image_block(str(_get(block, "data", "")), str(_get(block, "mime_type", "image/png")))


def replay_updates(messages: Iterable[Any], cwd: str) -> list[Update]:
    """The updates that show a stored transcript again (``session/load``): user chunks, assistant text and
    thinking chunks, each tool call with its final status and result, plans, notifications and artifacts."""
    updates: list[Update] = []
    ui_count = 0
    for message in messages:
        role = _get(message, "role")
        if role == "user":
            updates.extend(update_user_message(block) for block in _user_blocks(message))
        elif role == "assistant":
            for block in _get(message, "content") or ():
                kind = _get(block, "type")
                if kind == "text" and _get(block, "text"):
                    updates.append(update_agent_message_text(_get(block, "text")))
                elif kind == "thinking" and _get(block, "thinking"):
                    updates.append(update_agent_thought_text(_get(block, "thinking")))
                elif kind == "toolCall":
                    name, args = _get(block, "name"), _get(block, "arguments")
                    updates.append(start_tool_call(_get(block, "id"), tool_title(name, args), kind=tool_kind(name),
                                                   status="pending", locations=tool_locations(name, args, cwd),
                                                   raw_input=args))
        elif role == "toolResult":
            failed = bool(_get(message, "is_error"))
            updates.append(update_tool_call(_get(message, "tool_call_id"), status="failed" if failed else "completed",
                                            content=text_content(result_text(message))))
            entries = plan_from_details(_get(message, "details"))
            if entries is not None:
                updates.append(update_plan(entries))
        elif role == "notification":
            updates.append(update_agent_message_text(notification_text(message)))
        elif role == "artifact":
            ui_count += 1
            updates.extend(_artifact_updates(message, ui_count))
    return updates


def _terminal(terminal_id: str) -> TerminalToolCallContent:
    return TerminalToolCallContent(type="terminal", terminal_id=terminal_id)
