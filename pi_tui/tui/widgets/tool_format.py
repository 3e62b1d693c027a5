"""Text of pi's built-in tool call lines and collapsed result previews (pi-reference §3.14, Appendix B).

Pure functions over plain data (no Rich, no Textual) so they are easy to test:
- ``call_line(name, args)``: ``$ cmd (timeout 5s)``, ``read path:1-40``, ``edit path``, ``write path``,
  ``grep /pat/ in path (glob) limit N``, ``find pat in path``, ``ls path``; unknown tools: ``name {json args}``.
- ``preview(name, text, expanded)``: collapsed preview lines plus a hint; read 10, write 10, grep 15,
  find 20, ls 20 first lines; bash last 5 lines; others 10.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from pi_tui.agent.terminal_text import sanitize_terminal_output
from pi_tui.coding.images import image_facts
from pi_tui.coding.tools.read_lines import range_label

PREVIEW_HEAD = {"read": 10, "write": 10, "grep": 15, "find": 20, "ls": 20}
BASH_TAIL = 5
DEFAULT_HEAD = 10
EXPAND_KEY = "Ctrl+O"


def plural(n: int, word: str, many: str | None = None) -> str:
    """``"1 line"`` / ``"2 lines"`` (English plural rule; ``many`` for irregular plurals)."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def _s(args: dict[str, Any], *keys: str, default: str = "") -> str:
    for k in keys:
        v = args.get(k)
        if v is not None and v != "":
            return str(v)
    return default


def short_args(args: dict[str, Any], limit: int = 60) -> str:
    """One-line JSON of ``args`` cut to ``limit`` characters (for the tool panel)."""
    try:
        text = json.dumps(args, ensure_ascii=False, separators=(", ", ": "))
    except (TypeError, ValueError):
        text = str(args)
    text = sanitize_terminal_output(text.replace("\n", "\\n"))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def call_line(name: str, args: dict[str, Any] | None) -> str:
    """pi's one-line call renderer for ``name`` with (possibly partial) ``args``, sanitised: a model that read
    a malicious file may put escape sequences into a command (issue 10 class 7)."""
    return sanitize_terminal_output(_call_line(name, args))


def _call_line(name: str, args: dict[str, Any] | None) -> str:
    a = args or {}
    path = _s(a, "path", "file_path")
    if name == "bash":
        cmd = _s(a, "command", default="...")
        timeout = a.get("timeout")
        return f"$ {cmd}" + (f" (timeout {timeout}s)" if timeout else "")
    if name == "read":
        return f"read {path or '...'}{range_label(a.get('offset'), a.get('limit'))}"
    if name in ("edit", "write"):
        return f"{name} {path or '...'}"
    if name == "grep":
        line = f"grep /{_s(a, 'pattern')}/ in {path or '.'}"
        if a.get("glob"):
            line += f" ({a['glob']})"
        if a.get("limit"):
            line += f" limit {a['limit']}"
        return line
    if name == "find":
        return f"find {_s(a, 'pattern')} in {path or '.'}"
    if name == "ls":
        return f"ls {path or '.'}"
    return f"{name} {short_args(a, 80)}" if a else name


@dataclass
class Preview:
    """Preview lines and the hint line (``""`` when everything is shown); hint goes above for bash."""

    lines: list[str]
    hint: str = ""
    hint_above: bool = False


def preview(name: str, text: str, expanded: bool, width: int | None = None,
            expand_key: str = EXPAND_KEY) -> Preview:
    """Collapsed (or expanded) preview of a tool's result text, per pi's line counts.

    bash keeps its last 5 *visual* lines (wrapped at ``width`` cells when given), others their first N lines.
    ``expand_key`` is named in the hint (the keymap's ``app.tools.expand`` key).
    """
    lines = text.rstrip("\n").split("\n") if text.strip() else []
    if expanded:
        return Preview(lines)
    if name == "bash":
        w = max(1, width or 10**9)
        rows = 0
        start = len(lines)
        while start > 0:
            need = max(1, -(-len(lines[start - 1]) // w))
            if rows + need > BASH_TAIL and rows > 0:
                break
            rows += need
            start -= 1
        if start == 0:
            return Preview(lines)
        return Preview(lines[start:], f"... ({plural(start, 'earlier line')}, {expand_key} to expand)", True)
    head = PREVIEW_HEAD.get(name, DEFAULT_HEAD)
    if len(lines) <= head:
        return Preview(lines)
    more = len(lines) - head
    return Preview(lines[:head], f"... ({plural(more, 'more line')}, {expand_key} to expand)")


def result_text(content: Any) -> str:
    """Join the text blocks of a tool result's ``content`` (models or dicts); images become
    ``[image <mime> <w>x<h> <size>]`` (``[image]`` without data).

    Sanitised (:func:`~pi_tui.agent.terminal_text.sanitize_terminal_output`) although new results already
    are: a session written by pi or an older pi-tui may hold raw escape sequences (issue 10 class 7)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return sanitize_terminal_output(content)
    parts: list[str] = []
    for block in content:
        btype = getattr(block, "type", None) or (block.get("type") if isinstance(block, dict) else None)
        if btype == "text":
            parts.append(getattr(block, "text", None) or (block.get("text", "") if isinstance(block, dict) else ""))
        elif btype == "image":  # [image image/png 800x600 12.3 KB] (pi_tui.coding.images.image_facts)
            data = getattr(block, "data", None) or (block.get("data") if isinstance(block, dict) else None)
            mime = (getattr(block, "mime_type", None)
                    or (block.get("mimeType", block.get("mime_type")) if isinstance(block, dict) else None))
            parts.append(f"[image {image_facts(str(data), str(mime)).label()}]" if data and mime else "[image]")
    return sanitize_terminal_output("\n".join(parts))


DIFF_COLLAPSED_LINES = 200
"""An edit diff longer than this shows its first lines and a hint until expanded (pi 1.6.0: huge diffs)."""
DIFF_EXPANDED_LINES = 1000
"""At most this many diff lines are drawn even expanded; the rest is named (the session keeps the whole diff)."""


def diff_preview(diff: str, expanded: bool, expand_key: str = EXPAND_KEY) -> Preview:
    """The part of an edit ``diff`` the transcript draws, and a hint for the rest.

    Drawing costs time per line (a 60,000-line diff took about a minute to lay out, on every redraw and every
    resume), so a diff is cut at :data:`DIFF_COLLAPSED_LINES` lines (:data:`DIFF_EXPANDED_LINES` expanded).
    """
    lines = diff.rstrip("\n").split("\n")
    limit = DIFF_EXPANDED_LINES if expanded else DIFF_COLLAPSED_LINES
    if len(lines) <= limit:
        return Preview(lines)
    more = len(lines) - limit
    if expanded:
        return Preview(lines[:limit], f"... ({plural(more, 'more diff line')} not shown)")
    return Preview(lines[:limit], f"... ({plural(more, 'more diff line')}, {expand_key} to expand)")


def edit_diff(details: Any) -> str | None:
    """The unified-style diff pi's edit tool puts in ``details.diff`` (or ``None``)."""
    if isinstance(details, dict) and isinstance(details.get("diff"), str):
        return sanitize_terminal_output(str(details["diff"]))
    diff = getattr(details, "diff", None)
    return sanitize_terminal_output(diff) if isinstance(diff, str) else None


_TOOL_NOTICE = re.compile(r"\n*\[(?:Showing (?:lines|last) [^\]\n]*|Line \d+ is [^\]\n]*)\]")


def without_tool_notice(text: str, details: Any) -> str:
    """``text`` without the tool's own ``[Showing lines …]`` notice when :func:`truncation_note` shows one:
    the notice is for the model; the user gets one note, not two (issue 9)."""
    if truncation_note(details) is None:
        return text
    return _TOOL_NOTICE.sub("", text, count=1)


def image_warning(details: Any) -> str | None:
    """pi 1.6.0's read warning: ``[<model> does not support images; it saw a placeholder instead]`` when the
    result's details name a model without image input (``imageUnsupportedByModel``), shown collapsed too."""
    name = details.get("imageUnsupportedByModel") if isinstance(details, dict) else None
    if not isinstance(name, str) or not name:
        return None
    return sanitize_terminal_output(f"[{name} does not support images; it saw a placeholder instead]")


def truncation_note(details: Any) -> str | None:
    """``[Truncated: …]`` / ``[Full output: <path>. Truncated: …]`` from a result's details, if any."""
    if not isinstance(details, dict):
        return None
    trunc = details.get("truncation")
    full = details.get("fullOutputPath")
    if not isinstance(trunc, dict) or not trunc.get("truncated"):
        return None
    what = trunc.get("truncatedBy") or "limit"
    shown = trunc.get("outputLines")
    total = trunc.get("totalLines")
    msg = f"Truncated: showing {shown} of {total} lines ({what} limit)" if shown and total else "Truncated"
    return f"[Full output: {full}. {msg}]" if full else f"[{msg}]"
