"""One session entry (pi JSON form) as HTML, as pi's export ``renderEntry`` shows it, rendered in Python.

User and assistant text is Markdown; thinking is a ``<details class="thinking">`` (open, toggled with T);
tool calls are collapsed ``<details>`` holding their results (:mod:`.tools`), so ``toolResult`` entries render
nothing themselves; ``bashExecution`` (the user's ``!cmd``) is collapsed the same way. pi-tui's UI-only
messages (notifications, artifacts: ``pi-tui.*`` custom entries) are shown and marked "not sent to the model".
Model changes, compactions, branch summaries and displayed custom messages are shown as in pi; labels,
``session_info``, thinking level changes and extension state are not (labels appear on their target).
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from pi_tui.coding.export_html.markdown import code_block, render_markdown
from pi_tui.coding.export_html.tools import diff_html, image_tags, render_tool_call
from pi_tui.coding.session.entries import UI_CUSTOM_TYPES, iso_to_ms

ResultLookup = Callable[[str], "dict[str, Any] | None"]


def format_time(timestamp: Any) -> str:
    """``<time>`` for an ISO string or epoch milliseconds (shown in UTC, ``2026-12-01 14:10:44``), or ``""``."""
    millis = iso_to_ms(timestamp) if isinstance(timestamp, str) else timestamp
    if not isinstance(millis, int | float) or isinstance(millis, bool) or millis <= 0:
        return ""
    try:
        moment = datetime.fromtimestamp(millis / 1000, UTC)
    except (OverflowError, OSError, ValueError):
        return ""
    return f'<time datetime="{moment.isoformat()}">{moment.strftime("%Y-%m-%d %H:%M:%S")} UTC</time>'


def content_text(content: Any) -> str:
    """The text of a message ``content`` (a string or a list of blocks; non-text blocks skipped)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(b.get("text", "")) for b in content if isinstance(b, dict) and b.get("type") == "text")
    return ""


def _md(text: str, css: str = "markdown") -> str:
    return f'<div class="{css}">{render_markdown(text)}</div>' if text.strip() else ""


def _user(message: dict[str, Any]) -> str:
    content = message.get("content")
    return image_tags(content, "message-image") + _md(content_text(content))


def _assistant(message: dict[str, Any], find_result: ResultLookup) -> str:
    parts: list[str] = []
    calls: list[str] = []
    content = message.get("content") if isinstance(message.get("content"), list) else []
    assert isinstance(content, list)
    for block in content:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text":
            parts.append(_md(str(block.get("text") or ""), "markdown assistant-text"))
        elif kind == "thinking" and str(block.get("thinking") or "").strip():
            parts.append(
                '<details class="thinking" open><summary>Thinking</summary>'
                f'<div class="thinking-text">{html.escape(str(block["thinking"]))}</div></details>'
            )
        elif kind == "toolCall":
            calls.append(render_tool_call(block, find_result(str(block.get("id") or ""))))
    stop = message.get("stopReason")
    if stop == "aborted":
        calls.append('<div class="error-text">Aborted</div>')
    elif stop == "error":
        error = str(message.get("errorMessage") or "Unknown error")
        calls.append(f'<div class="error-text">Error: {html.escape(error)}</div>')
    return "".join(parts + calls)


def _bash(message: dict[str, Any]) -> str:
    exit_code = message.get("exitCode")
    failed = bool(message.get("cancelled")) or exit_code not in (None, 0)
    status = "error" if failed else "success"
    note = ""
    if message.get("cancelled"):
        note = '<div class="warning-text">(cancelled)</div>'
    elif exit_code not in (None, 0):
        note = f'<div class="error-text">(exit {html.escape(str(exit_code))})</div>'
    output = str(message.get("output") or "")
    body = code_block(output, css_class="tool-output") if output else '<div class="muted">(no output)</div>'
    command = html.escape(str(message.get("command") or ""))
    return (
        f'<details class="tool-call user-bash {status}"><summary><span class="tool-name">!</span> '
        f'<span class="tool-summary">$ {command}</span></summary><div class="tool-body">{body}</div></details>{note}'
    )


def _ui_label(kind: str) -> str:
    return f'<div class="ui-label">{kind} · shown to the user only, not sent to the model</div>'


def _notification(data: dict[str, Any]) -> str:
    level = str(data.get("level") or "info")
    level = level if level in ("info", "warning", "error") else "info"
    return f'{_ui_label("notification")}<div class="notification-text level-{level}">{html.escape(str(data.get("text") or ""))}</div>'


def _artifact(data: dict[str, Any]) -> str:
    title = html.escape(str(data.get("title") or "artifact"))
    kind = str(data.get("kind") or "text")
    content = str(data.get("content") or "")
    if kind == "markdown":
        body = _md(content)
    elif kind == "diff":
        body = diff_html(content)
    elif kind == "code":
        body = code_block(content, str(data.get("language") or "") or None)
    elif kind == "image" and content.startswith("data:image/"):
        body = f'<img class="message-image" alt="{title}" src="{html.escape(content)}">'
    else:
        body = code_block(content, css_class="plain")
    path = f' <span class="muted">{html.escape(str(data["path"]))}</span>' if data.get("path") else ""
    return (
        f'{_ui_label("artifact")}<details class="artifact-block" open><summary>{title} '
        f'<span class="muted">({html.escape(kind)})</span>{path}</summary>{body}</details>'
    )


def _custom_content(content: Any) -> str:
    text = content if isinstance(content, str) else content_text(content) or json.dumps(content, ensure_ascii=False)
    return _md(text)


def render_entry(entry: dict[str, Any], find_result: ResultLookup) -> tuple[str, str] | None:
    """``(kind, inner_html)`` of one entry, or ``None`` when pi's export shows nothing for it.

    ``kind`` is the CSS class suffix (``user``, ``assistant``, ``bash``, ``notification``, ``artifact``,
    ``model-change``, ``compaction``, ``branch-summary``, ``custom``); ``find_result`` maps a tool call id to its
    ``toolResult`` message dict (or ``None``)."""
    kind = entry.get("type")
    if kind == "message" and isinstance(entry.get("message"), dict):
        message = entry["message"]
        role = message.get("role")
        if role == "user":
            return "user", _user(message)
        if role == "assistant":
            return "assistant", _assistant(message, find_result)
        if role == "bashExecution":
            return "bash", _bash(message)
        if role == "notification":
            return "notification", _notification(message)
        if role == "artifact":
            return "artifact", _artifact(message)
        if role == "custom" and message.get("display") is not False:
            label = html.escape(str(message.get("customType") or "custom"))
            return "custom", f'<div class="custom-type">[{label}]</div>{_custom_content(message.get("content"))}'
        return None
    if kind == "custom" and entry.get("customType") in UI_CUSTOM_TYPES:
        data = entry.get("data") if isinstance(entry.get("data"), dict) else {"content": entry.get("data")}
        assert isinstance(data, dict)
        role = UI_CUSTOM_TYPES[str(entry["customType"])]
        return (role, _notification(data)) if role == "notification" else (role, _artifact(data))
    if kind == "model_change":
        model = html.escape(f"{entry.get('provider')}/{entry.get('modelId')}")
        return "model-change", f'Switched to model: <span class="model-name">{model}</span>'
    if kind == "compaction":
        tokens = entry.get("tokensBefore") if isinstance(entry.get("tokensBefore"), int) else 0
        return "compaction", (
            f'<details class="compaction-block"><summary>[compaction] Compacted from {tokens:,} tokens</summary>'
            f'{_md(str(entry.get("summary") or ""))}</details>'
        )
    if kind == "branch_summary":
        return "branch-summary", f'<div class="block-title">Branch summary</div>{_md(str(entry.get("summary") or ""))}'
    if kind == "custom_message" and entry.get("display") is not False:
        label = html.escape(str(entry.get("customType") or "custom"))
        return "custom", f'<div class="custom-type">[{label}]</div>{_custom_content(entry.get("content"))}'
    return None
