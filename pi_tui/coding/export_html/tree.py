"""The session tree for the page's sidebar: every entry of every branch, one row each, as pi's export draws it.

Rows come from :func:`pi_tui.coding.session.tree.build_tree` (the model behind ``SessionManager.get_tree``),
flattened depth-first: a chain of single children stays at one indent and only a fork indents its children,
drawn with ``├─`` / ``└─`` / ``│`` prefixes (pi's ``flattenTree``/``buildTreePrefix``; iterative, so a
10,000-entry chain does not recurse). Each row carries ``data-id`` and the classes the filters use:
``user``, ``tool`` (tool results, ``!`` commands), ``settings`` (label/custom/model and thinking changes),
``quiet`` (assistant turns with only tool calls), ``labeled``; ``on-path`` marks the current branch and
``leaf`` the current leaf.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

from pi_tui.coding.export_html.data import ExportData
from pi_tui.coding.export_html.entries import content_text
from pi_tui.coding.export_html.tools import call_summary
from pi_tui.coding.session.tree import SessionTreeNode, build_tree

PREVIEW_CHARS = 100
SETTINGS_TYPES = frozenset({"label", "custom", "model_change", "thinking_level_change", "session_info"})


@dataclass
class TreeRow:
    """One sidebar row: the entry dict, its drawing prefix (``"│  ├─ "``), label and filter classes."""

    entry: dict[str, Any]
    prefix: str
    label: str | None
    classes: list[str]


def _preview(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= PREVIEW_CHARS else line[: PREVIEW_CHARS - 1] + "…"


def _classes(entry: dict[str, Any], label: str | None) -> list[str]:
    classes: list[str] = []
    kind = entry.get("type")
    message = entry.get("message") if isinstance(entry.get("message"), dict) else {}
    assert isinstance(message, dict)
    role = message.get("role") if kind == "message" else None
    if role == "user":
        classes.append("user")
    elif role in ("toolResult", "bashExecution"):
        classes.append("tool")
    elif role == "assistant":
        quiet = not content_text(message.get("content")).strip() and message.get("stopReason") in (None, "stop", "toolUse")
        if quiet:
            classes.append("quiet")
    if kind in SETTINGS_TYPES:
        classes.append("settings")
    if label:
        classes.append("labeled")
    return classes


def describe(entry: dict[str, Any], calls: dict[str, dict[str, Any]]) -> tuple[str, str]:
    """``(role_word, preview)`` shown for an entry (plain text; pi's ``getTreeNodeDisplayHtml`` wording)."""
    kind = entry.get("type")
    if kind == "message" and isinstance(entry.get("message"), dict):
        message = entry["message"]
        role = str(message.get("role"))
        if role == "user":
            return "user:", _preview(content_text(message.get("content")))
        if role == "assistant":
            text = _preview(content_text(message.get("content")))
            if text:
                return "assistant:", text
            if message.get("stopReason") == "aborted":
                return "assistant:", "(aborted)"
            if message.get("errorMessage"):
                return "assistant:", _preview(str(message["errorMessage"]))
            return "assistant:", "(no text)"
        if role == "toolResult":
            call = calls.get(str(message.get("toolCallId")))
            if call is not None:
                name = str(call.get("name"))
                args = call.get("arguments") if isinstance(call.get("arguments"), dict) else {}
                return f"[{name}]", _preview(call_summary(name, args or {}))
            return f"[{message.get('toolName') or 'tool'}]", ""
        if role == "bashExecution":
            return "[bash]:", _preview(str(message.get("command") or ""))
        return f"[{role}]", _preview(content_text(message.get("content")) or str(message.get("text") or ""))
    if kind == "compaction":
        tokens = entry.get("tokensBefore")
        return f"[compaction: {round(tokens / 1000) if isinstance(tokens, int) else 0}k tokens]", ""
    if kind == "branch_summary":
        return "[branch summary]:", _preview(str(entry.get("summary") or ""))
    if kind == "custom_message":
        return f"[{entry.get('customType')}]:", _preview(content_text(entry.get("content")) or str(entry.get("content")))
    if kind == "custom":
        data = entry.get("data") if isinstance(entry.get("data"), dict) else {}
        assert isinstance(data, dict)
        return f"[{entry.get('customType')}]", _preview(str(data.get("text") or data.get("title") or ""))
    if kind == "model_change":
        return f"[model: {entry.get('modelId')}]", ""
    if kind == "thinking_level_change":
        return f"[thinking: {entry.get('thinkingLevel')}]", ""
    if kind == "label":
        return "[label]", _preview(str(entry.get("label") or "(cleared)"))
    if kind == "session_info":
        return "[name]", _preview(str(entry.get("name") or ""))
    return f"[{kind}]", ""


def tree_rows(data: ExportData) -> list[TreeRow]:
    """Every entry as a sidebar row, depth-first, children oldest first."""
    by_id = data.by_id()
    roots = build_tree(data.entry_models(), data.labels)
    rows: list[TreeRow] = []
    stack: list[tuple[SessionTreeNode, str, str]] = []

    def push_children(children: list[SessionTreeNode], prefix: str) -> None:
        if len(children) == 1:
            stack.append((children[0], prefix, prefix))
            return
        for index in range(len(children) - 1, -1, -1):
            last = index == len(children) - 1
            stack.append((children[index], prefix + ("└─ " if last else "├─ "), prefix + ("   " if last else "│  ")))

    push_children(roots, "")
    while stack:
        node, row_prefix, child_prefix = stack.pop()
        entry = by_id.get(node.entry.id, {"type": node.entry.type, "id": node.entry.id})
        rows.append(TreeRow(entry, row_prefix, node.label, _classes(entry, node.label)))
        push_children(node.children, child_prefix)
    return rows


def render_tree(data: ExportData, path_ids: set[str]) -> str:
    """The sidebar's ``<ol id="tree">`` (``path_ids``: the entries on the current branch)."""
    calls: dict[str, dict[str, Any]] = {}
    for entry in data.entries:
        message = entry.get("message")
        if isinstance(message, dict) and message.get("role") == "assistant" and isinstance(message.get("content"), list):
            for block in message["content"]:
                if isinstance(block, dict) and block.get("type") == "toolCall":
                    calls[str(block.get("id"))] = block
    out: list[str] = []
    for row in tree_rows(data):
        entry_id = str(row.entry.get("id"))
        classes = ["node", *row.classes]
        if entry_id in path_ids:
            classes.append("on-path")
        if entry_id == data.leaf_id:
            classes.append("leaf")
        role, preview = describe(row.entry, calls)
        label = f'<span class="tree-label">[{html.escape(row.label)}]</span> ' if row.label else ""
        marker = "◉" if entry_id == data.leaf_id else "•" if entry_id in path_ids else " "
        leaf_note = ' <span class="leaf-note">(current leaf)</span>' if entry_id == data.leaf_id else ""
        out.append(
            f'<li class="{" ".join(classes)}" data-id="{html.escape(entry_id)}">'
            f'<a href="#entry-{html.escape(entry_id)}"><span class="tree-prefix">{html.escape(row.prefix)}</span>'
            f'<span class="tree-marker">{marker}</span>{label}<span class="tree-role">{html.escape(role)}</span> '
            f"{html.escape(preview)}{leaf_note}</a></li>"
        )
    return '<ol id="tree" data-filter="default">' + "".join(out) + "</ol>"
