"""RPC ``get_session_tree`` and ``navigate_tree``: the session tree over RPC (beyond pi 0.73.1, which has no
tree commands; asked for by its RPC and ACP users, pi issue #5119; DIFFERENCES.md).

``{"type": "get_session_tree", "filter"?: "default"|"no-tools"|"user-only"|"labeled-only"|"all",
"search"?: str}`` → ``{leafId, currentId, filter, nodes: [...]}``: every entry shown under pi's filter mode
(default ``all`` here: a client usually wants everything; the TUI starts on settings ``treeFilterMode``), in
display order (pre-order, the active branch first). Each node (``TreeViewNode.to_json_dict``): ``id``,
``parentId`` (the nearest ancestor also shown; the entry's own parent in an unfiltered view),
``entryParentId``, ``timestamp`` (ISO-8601), ``type`` (entry type), ``role`` (message entries), ``toolName``
(tool results), ``text`` (pi's one-line display: ``user: …``, ``[read: path]``…), ``label``,
``labelTimestamp``, ``onActivePath``, ``isLeaf``, ``childIds``. pi hides an assistant message that only
calls tools (unless it is the leaf or failed) in every mode, and so does this.

``{"type": "navigate_tree", "targetId": str, "summarize"?: bool, "customInstructions"?: str,
"replaceInstructions"?: bool, "label"?: str}`` → ``{cancelled, aborted?, editorText?, summaryEntry?}``: the same
navigation as the TUI's ``/tree`` (``AgentSession.navigate_tree``): the leaf moves (a user message: to its
parent, its text returned as ``editorText``), an optional branch summary is written by the model, and the
session's events follow (``branch_summary_start``/``branch_summary_end`` around a summary request, then
``session_tree`` with ``newLeafId``, ``oldLeafId``, ``summaryEntry``). ``abort`` cancels a running summary.
Errors are ``success: false`` responses (``Entry <id> not found``, ``Cannot navigate while the agent is
working``, ``Summarization failed: …``, an unknown filter).
"""

from __future__ import annotations

from typing import Any

from pi_tui.coding.session.tree_view import FILTER_MODES, build_tree_view


async def get_session_tree(session: Any, command: dict[str, Any]) -> dict[str, Any]:
    """``get_session_tree`` for ``session`` (module docstring); raises ``ValueError`` for a bad filter."""
    mode = command.get("filter", "all")
    if mode not in FILTER_MODES:
        raise ValueError(f"Unknown filter: {mode!r} (one of {', '.join(FILTER_MODES)})")
    search = command.get("search") or ""
    if not isinstance(search, str):
        raise ValueError("search must be a string")
    view = build_tree_view(session.session_manager, mode, search)
    return {
        "leafId": view.leaf_id,
        "currentId": view.current_id,
        "filter": view.filter_mode,
        "nodes": [node.to_json_dict() for node in view.flat()],
    }


async def navigate_tree(session: Any, command: dict[str, Any]) -> dict[str, Any]:
    """``navigate_tree`` for ``session`` (module docstring)."""
    target = command.get("targetId")
    if not isinstance(target, str) or not target:
        raise ValueError("targetId must be an entry id")
    instructions = command.get("customInstructions")
    label = command.get("label")
    result: dict[str, Any] = await session.navigate_tree(
        target,
        summarize=bool(command.get("summarize", False)),
        custom_instructions=instructions if isinstance(instructions, str) and instructions else None,
        replace_instructions=bool(command.get("replaceInstructions", False)),
        label=label if isinstance(label, str) and label else None,
    )
    return result
