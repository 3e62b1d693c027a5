"""Transcript export to Markdown (pi-tui's ``/export x.md``) and the entry point of the HTML export.

UI-only notifications are included (they are for the user); secrets never are: known API keys that
reached message text (an error echoing the key, a tool printing the environment) are written as
``[REDACTED]`` (:mod:`pi_tui.ai.secret_redaction`). Default path: ``<cwd>/pi-tui-session-<session file name>.(md|html)`` (:func:`default_export_path`).
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

from pi_tui.ai.secret_redaction import redact_text
from pi_tui.coding.messages import message_role, message_text


def _fenced(content: str, language: str = "") -> list[str]:
    """``content`` in a code fence longer than any backtick run inside it (CommonMark), so a tool output or
    artifact that itself holds a fence cannot end the block early and turn the rest of the export into prose."""
    longest = max((len(run) for run in re.findall(r"`+", content)), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}{language}", content, fence]


def _bash_lines(message: Any) -> list[str]:
    """A user ``!cmd``: the command, its output fenced, then pi's notes (cancelled / exit code / truncated)."""
    output = message.output or ""
    lines = ["### User bash", "", f"`$ {message.command}`", ""]
    lines.extend(_fenced(output) if output else ["(no output)"])
    if message.cancelled:
        lines.extend(["", "(command cancelled)"])
    elif message.exit_code not in (None, 0):
        lines.extend(["", f"Command exited with code {message.exit_code}"])
    if message.truncated and message.full_output_path:
        lines.extend(["", f"[Output truncated. Full output: {message.full_output_path}]"])
    return lines


def _block_lines(message: Any) -> list[str]:
    role = message_role(message)
    if role == "user":
        return ["## User", "", message_text(message)]
    if role == "assistant":
        out = ["## Assistant", ""]
        for block in message.content:
            if block.type == "text":
                out.extend([block.text, ""])
            elif block.type == "thinking":
                out.extend(["<details><summary>Thinking</summary>", "", block.thinking, "", "</details>", ""])
            elif block.type == "toolCall":
                arguments = json.dumps(block.arguments, indent=2, ensure_ascii=False)
                out.extend([f"**Tool call** `{block.name}`", "", *_fenced(arguments, "json"), ""])
        if message.error_message:
            out.extend(["", f"*{message.stop_reason}: {message.error_message}*"])
        return out
    if role == "toolResult":
        status = "error" if message.is_error else "result"
        return [f"### Tool {status}: `{message.tool_name}`", "", *_fenced(message_text(message))]
    if role == "bashExecution":
        return _bash_lines(message)
    if role == "notification":
        return [f"> **{message.level}**: {message.text}"]
    if role == "artifact":
        fence = message.language or ("diff" if message.kind == "diff" else "")
        return [f"### Artifact: {message.title}", "", *_fenced(message.content, fence)]
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


def default_export_path(session: Any, suffix: str) -> str:
    """``<cwd>/pi-tui-session-<name>.<suffix>``: ``name`` is the session file's basename without ``.jsonl``
    (pi 0.73.1 ``exportSessionToHtml``: ``pi-session-<basename>.html``), or the whole session id when there is
    no file. Unique per session: the first 8 hex digits of a UUIDv7 are the same for every session started
    within ~65 s, and a name made of them let one session's export replace another's (new-user run #21)."""
    session_file = getattr(session, "session_file", None)
    name = os.path.basename(str(session_file)) if session_file else str(session.session_id)
    name = name[: -len(".jsonl")] if name.endswith(".jsonl") else name
    return os.path.join(session.cwd, f"pi-tui-session-{name}.{suffix}")


def _write(target: str, text: str) -> None:
    """Write ``text`` to ``target``; raises ``OSError`` whose message names the path and the reason in plain words
    (``Cannot write /x/y.md: No such file or directory``), not Python's ``[Errno 2] …`` repr."""
    try:
        with open(target, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as exc:
        raise OSError(f"Cannot write {target}: {exc.strerror or exc}") from exc


def export_markdown(session: Any, path: str | None = None) -> str:
    """Write the Markdown transcript; returns the path written. Raises ``OSError`` (see :func:`_write`)."""
    target = path or default_export_path(session, "md")
    _write(target, transcript_markdown(session))
    return target


def export_html(session: Any, path: str | None = None, theme: str | None = None) -> str:
    """Write the standalone HTML page of the session (:mod:`pi_tui.coding.export_html`: rendered Markdown, tool
    calls, the session tree, the theme's colours); returns the path. Raises ``OSError`` (see :func:`_write`)."""
    from pi_tui.coding.export_html import export_session_to_html

    return export_session_to_html(session, path, theme)
