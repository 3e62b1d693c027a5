"""Transcript export to Markdown and standalone HTML (pi's ``/export``, simplified).

UI-only notifications are included (they are for the user); secrets never are: known API keys that
reached message text (an error echoing the key, a tool printing the environment) are written as
``[REDACTED]`` (:mod:`pi_tui.ai.secret_redaction`). Default path: ``<cwd>/pi-tui-session-<id8>.(md|html)``.
"""

from __future__ import annotations

import html
import json
import os
from typing import Any

from pi_tui.ai.secret_redaction import redact_text
from pi_tui.coding.messages import bash_execution_to_text, message_role, message_text


def _block_lines(message: Any) -> list[str]:
    role = message_role(message)
    if role == "user":
        return ["## User", "", message_text(message)]
    if role == "assistant":
        out = ["## Assistant", ""]
        for block in message.content:
            if block.type == "text":
                out.append(block.text)
            elif block.type == "thinking":
                out.extend(["<details><summary>Thinking</summary>", "", block.thinking, "", "</details>"])
            elif block.type == "toolCall":
                out.extend([f"**Tool call** `{block.name}`", "", "```json", json.dumps(block.arguments, indent=2), "```"])
        if message.error_message:
            out.extend(["", f"*{message.stop_reason}: {message.error_message}*"])
        return out
    if role == "toolResult":
        status = "error" if message.is_error else "result"
        return [f"### Tool {status}: `{message.tool_name}`", "", "```", message_text(message), "```"]
    if role == "bashExecution":
        return ["### User bash", "", bash_execution_to_text(message)]
    if role == "notification":
        return [f"> **{message.level}**: {message.text}"]
    if role == "artifact":
        fence = message.language or ("diff" if message.kind == "diff" else "")
        return [f"### Artifact: {message.title}", "", f"```{fence}", message.content, "```"]
    if role == "compactionSummary":
        return ["## Compaction summary", "", message.summary]
    if role == "branchSummary":
        return ["## Branch summary", "", message.summary]
    if role == "custom":
        return [f"## {message.custom_type}", "", message_text(message)]
    return []


def transcript_markdown(session: Any) -> str:
    """The session transcript as Markdown text."""
    parts = [f"# pi-tui session {session.session_id}", ""]
    for message in session.messages:
        lines = _block_lines(message)
        if lines:
            parts.extend(lines)
            parts.append("")
    return redact_text("\n".join(parts))


def _default_path(session: Any, suffix: str) -> str:
    return os.path.join(session.cwd, f"pi-tui-session-{session.session_id[:8]}.{suffix}")


def export_markdown(session: Any, path: str | None = None) -> str:
    """Write the Markdown transcript; returns the path written."""
    target = path or _default_path(session, "md")
    with open(target, "w", encoding="utf-8") as handle:
        handle.write(transcript_markdown(session))
    return target


def export_html(session: Any, path: str | None = None) -> str:
    """Write a standalone HTML page with the transcript (escaped, preformatted); returns the path."""
    target = path or _default_path(session, "html")
    body = html.escape(transcript_markdown(session))
    page = (
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>pi-tui session</title>"
        "<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto}"
        "pre{white-space:pre-wrap}</style></head><body><pre>" + body + "</pre></body></html>\n"
    )
    with open(target, "w", encoding="utf-8") as handle:
        handle.write(page)
    return target
