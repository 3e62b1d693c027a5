"""The whole export page: theme CSS, header (stats, system prompt, tools), the sidebar tree, every entry.

All branches are in the page; entries off the current branch carry ``hidden``, so the page reads right with
scripts off, and the inline script (``assets/page.js``) switches branches when a tree row is clicked, filters
the tree and toggles thinking (T) and tool blocks (O). A Content-Security-Policy allows no network at all
(``default-src 'none'``; images only as ``data:``) and runs only the page's own script (a per-page nonce), so
a ``<script>`` that slipped into a message could not run even if escaping failed.
"""

from __future__ import annotations

import html
import json
import secrets
from functools import lru_cache
from importlib import resources
from typing import Any

from pi_tui.coding.export_html.data import ExportData
from pi_tui.coding.export_html.entries import format_time, render_entry
from pi_tui.coding.export_html.theme_css import css_variables, syntax_css, theme_colours
from pi_tui.coding.export_html.tree import render_tree
from pi_tui.coding.session.entries import iso_to_ms


@lru_cache(maxsize=4)
def _asset(name: str) -> str:
    return (resources.files("pi_tui.coding.export_html") / "assets" / name).read_text(encoding="utf-8")


def _path_ids(data: ExportData) -> set[str]:
    by_id = data.by_id()
    path: set[str] = set()
    current = by_id.get(data.leaf_id or "")
    while current is not None and str(current.get("id")) not in path:
        path.add(str(current.get("id")))
        parent = current.get("parentId")
        current = by_id.get(parent) if isinstance(parent, str) else None
    return path


def _results(data: ExportData) -> dict[str, dict[str, Any]]:
    results: dict[str, dict[str, Any]] = {}
    for entry in data.entries:
        message = entry.get("message")
        if isinstance(message, dict) and message.get("role") == "toolResult":
            results.setdefault(str(message.get("toolCallId")), message)
    return results


def _stats(data: ExportData) -> dict[str, Any]:
    counts = {"user": 0, "assistant": 0, "tool results": 0, "compactions": 0, "branch summaries": 0}
    tokens = {"↑": 0, "↓": 0, "R": 0, "W": 0}
    cost = 0.0
    calls = 0
    models: list[str] = []
    chosen: list[str] = []  # model_change entries: what a session with no answers yet runs on (issue 9)
    for entry in data.entries:
        if entry.get("type") == "model_change" and entry.get("modelId"):
            name = f"{entry.get('provider')}/{entry.get('modelId')}" if entry.get("provider") else entry["modelId"]
            if isinstance(name, str) and name not in chosen:
                chosen.append(name)
        if entry.get("type") == "compaction":
            counts["compactions"] += 1
        elif entry.get("type") == "branch_summary":
            counts["branch summaries"] += 1
        message = entry.get("message")
        if entry.get("type") != "message" or not isinstance(message, dict):
            continue
        role = message.get("role")
        if role == "user":
            counts["user"] += 1
        elif role == "toolResult":
            counts["tool results"] += 1
        elif role == "assistant":
            counts["assistant"] += 1
            model = f"{message.get('provider')}/{message.get('model')}" if message.get("provider") else message.get("model")
            if isinstance(model, str) and model not in models:
                models.append(model)
            usage = message.get("usage") if isinstance(message.get("usage"), dict) else {}
            assert isinstance(usage, dict)
            for key, field in (("↑", "input"), ("↓", "output"), ("R", "cacheRead"), ("W", "cacheWrite")):
                value = usage.get(field)
                tokens[key] += value if isinstance(value, int) else 0
            total = usage.get("cost", {}).get("total") if isinstance(usage.get("cost"), dict) else None
            cost += float(total) if isinstance(total, int | float) else 0.0
            content = message.get("content") if isinstance(message.get("content"), list) else []
            calls += sum(1 for b in content or [] if isinstance(b, dict) and b.get("type") == "toolCall")
    return {"counts": counts, "tokens": tokens, "cost": cost, "calls": calls, "models": models or chosen}


def _tokens(count: int) -> str:
    if count < 1000:
        return str(count)
    if count < 1_000_000:
        return f"{count / 1000:.1f}k"
    return f"{count / 1_000_000:.1f}M"


def _header(data: ExportData) -> str:
    stats = _stats(data)
    title = data.name or f"Session {data.header.get('id', 'unknown')}"
    messages = ", ".join(f"{n} {what}" for what, n in stats["counts"].items() if n) or "0"
    token_text = " ".join(f"{k}{_tokens(v)}" for k, v in stats["tokens"].items() if v) or "0"
    items = [
        ("Session", str(data.header.get("id", "unknown"))),
        ("Date", format_time(data.header.get("timestamp"))),
        ("Directory", html.escape(str(data.header.get("cwd") or ""))),
        ("Models", html.escape(", ".join(stats["models"]) or "unknown")),
        ("Messages", html.escape(messages)),
        ("Tool calls", str(stats["calls"])),
        ("Tokens", html.escape(token_text)),
        ("Cost", f"${stats['cost']:.3f}"),
    ]
    info = "".join(
        f'<div class="info-item"><span class="info-label">{k}:</span> <span class="info-value">{v}</span></div>'
        for k, v in items
    )
    parts = [
        f'<header class="page-header"><h1>{html.escape(title)}</h1>'
        '<div class="help-bar"><span class="muted">T toggle thinking · O toggle tools</span>'
        '<button type="button" id="toggle-thinking">Toggle thinking</button>'
        '<button type="button" id="toggle-tools">Toggle tools</button></div>'
        f'<div class="header-info">{info}</div></header>'
    ]
    if data.system_prompt:
        parts.append(
            '<details class="system-prompt"><summary>System prompt</summary>'
            f"<pre>{html.escape(data.system_prompt)}</pre></details>"
        )
    if data.tools:
        rows = "".join(
            f'<div class="tool-item"><span class="tool-item-name">{html.escape(t.name)}</span> '
            f'<span class="muted">{html.escape(t.description.splitlines()[0] if t.description else "")}</span></div>'
            for t in data.tools
        )
        parts.append(f'<details class="tools-list"><summary>Available tools ({len(data.tools)})</summary>{rows}</details>')
    return "".join(parts)


def _messages(data: ExportData, path_ids: set[str]) -> str:
    results = _results(data)
    out: list[str] = []
    for entry in data.entries:
        rendered = render_entry(entry, results.get)
        if rendered is None:
            continue
        kind, inner = rendered
        entry_id = html.escape(str(entry.get("id")))
        label = data.labels.get(str(entry.get("id")))
        label_html = f'<span class="entry-label">{html.escape(label)}</span>' if label else ""
        hidden = "" if str(entry.get("id")) in path_ids else " hidden"
        out.append(
            f'<section class="entry {kind}" id="entry-{entry_id}" data-id="{entry_id}"{hidden}>'
            f'<div class="entry-meta">{label_html}{format_time(entry.get("timestamp"))}</div>{inner}</section>'
        )
    return "".join(out)


def _tree_data(data: ExportData) -> str:
    """``{leaf, nodes: {id: [parentId, timestamp ms]}}`` for the script, safe inside ``<script>``."""
    nodes = {str(e.get("id")): [e.get("parentId"), iso_to_ms(e.get("timestamp"))] for e in data.entries}
    text = json.dumps({"leaf": data.leaf_id, "nodes": nodes}, ensure_ascii=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def render_page(data: ExportData, theme: str = "dark", cwd: str | None = None) -> str:
    """The complete, self-contained HTML document for ``data`` in ``theme``'s colours."""
    nonce = secrets.token_urlsafe(16)
    colours = theme_colours(theme, cwd)
    path_ids = _path_ids(data)
    css = css_variables(colours) + _asset("page.css") + syntax_css()
    title = html.escape(data.name or f"pi-tui session {data.header.get('id', '')}")
    policy = f"default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'nonce-{nonce}'"
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{policy}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="referrer" content="no-referrer">'
        f"<title>{title}</title><style>{css}</style></head><body>"
        '<div id="app"><aside id="sidebar"><div class="sidebar-header">'
        '<input type="search" id="tree-search" placeholder="Search…" aria-label="Search the tree">'
        '<div class="filters">'
        + "".join(
            f'<button type="button" class="filter{" active" if key == "default" else ""}" data-filter="{key}">{text}</button>'
            for key, text in (("default", "Default"), ("no-tools", "No-tools"), ("user-only", "User"),
                              ("labeled-only", "Labeled"), ("all", "All"))
        )
        + "</div></div>"
        + render_tree(data, path_ids)
        + f'<div id="tree-status" class="muted">{len(data.entries)} entries</div></aside>'
        f'<main id="content">{_header(data)}<div id="messages">{_messages(data, path_ids)}</div></main></div>'
        f'<script type="application/json" id="tree-data">{_tree_data(data)}</script>'
        f'<script nonce="{nonce}">{_asset("page.js")}</script>'
        "</body></html>\n"
    )
