"""A tool call and its result as one collapsed ``<details>`` block (pi's ``renderToolCall``, server-side).

The summary line names the tool and its main argument (``$ command`` for bash, the path for read/write/edit/
ls, the pattern for grep/find, otherwise the arguments as compact JSON); the body holds what pi shows for the
tool (highlighted file content for read/write, the diff for edit, the output for the rest), then any images of
the result and, for tools pi-tui does not know, the arguments and the output as they are. Status: ``pending``
(no result in the session), ``success`` or ``error``.
"""

from __future__ import annotations

import html
import json
from typing import Any

from pi_tui.agent.terminal_text import sanitize_terminal_output
from pi_tui.coding.export_html.markdown import code_block, lexer_for_path
from pi_tui.coding.tools.read_lines import range_label

SUMMARY_CHARS = 160


def _text(result: dict[str, Any] | None) -> str:
    """The result's text as the page shows it: escape sequences and control characters removed, as on the
    screen (the session keeps a tool's true output; tester2 #23)."""
    if not result:
        return ""
    content = result.get("content")
    if isinstance(content, str):
        return sanitize_terminal_output(content)
    if not isinstance(content, list):
        return ""
    texts = (str(b.get("text", "")) for b in content if isinstance(b, dict) and b.get("type") == "text")
    return sanitize_terminal_output("\n".join(texts))


def image_tags(blocks: Any, css_class: str) -> str:
    """``<img>`` tags (``data:`` URIs only) for the ``image`` blocks of a content list; bad data is skipped."""
    if not isinstance(blocks, list):
        return ""
    out: list[str] = []
    for block in blocks:
        if not isinstance(block, dict) or block.get("type") != "image":
            continue
        mime = str(block.get("mimeType") or "image/png")
        data = str(block.get("data") or "")
        if not mime.startswith("image/") or not data or not data.replace("\n", "").isascii():
            continue
        out.append(f'<img class="{css_class}" alt="image" src="data:{html.escape(mime)};base64,{html.escape(data)}">')
    return f'<div class="images">{"".join(out)}</div>' if out else ""


def _string(args: dict[str, Any], *names: str) -> str | None:
    for name in names:
        value = args.get(name)
        if isinstance(value, str):
            return value
    return None


def _one_line(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= SUMMARY_CHARS else line[: SUMMARY_CHARS - 1] + "…"


def call_summary(name: str, args: dict[str, Any]) -> str:
    """One line describing a call (plain text, not escaped): ``$ ls -la``, ``src/app.py:10-20``, ``"TODO" in src``."""
    path = _string(args, "path", "file_path")
    if name == "bash":
        return "$ " + _one_line(_string(args, "command") or "...")
    if name == "read" and path is not None:
        return path + range_label(args.get("offset"), args.get("limit"))
    if name in ("write", "edit", "ls") and path is not None:
        return path
    if name in ("grep", "find"):
        pattern = _string(args, "pattern") or ""
        return _one_line(f"{pattern!r} in {path or '.'}")
    return _one_line(json.dumps(args, ensure_ascii=False)) if args else ""


def _output(text: str, path: str | None = None, language: str | None = None) -> str:
    if not text:
        return ""
    lexer = lexer_for_path(path) if path else None
    return code_block(text.replace("\t", "   "), language, lexer, css_class="tool-output")


def diff_html(diff: str) -> str:
    """A unified diff as rows coloured by their first character (``+`` added, ``-`` removed, else context)."""
    rows: list[str] = []
    for line in sanitize_terminal_output(diff).replace("\t", "   ").split("\n"):
        kind = "added" if line.startswith("+") else "removed" if line.startswith("-") else "context"
        rows.append(f'<div class="diff-{kind}">{html.escape(line) or " "}</div>')
    return f'<div class="tool-diff">{"".join(rows)}</div>'


def _body(name: str, args: dict[str, Any], result: dict[str, Any] | None) -> str:
    text = _text(result)
    path = _string(args, "path", "file_path")
    details = result.get("details") if result else None
    if name == "bash":
        return code_block(_string(args, "command") or "", "bash", css_class="tool-args") + _output(text.strip())
    if name == "read":
        return _output(text, path)
    if name == "write":
        content = _string(args, "content") or ""
        return _output(content, path) + _output(text.strip())
    if name == "edit":
        if isinstance(details, dict) and isinstance(details.get("diff"), str) and details["diff"]:
            return diff_html(details["diff"])
        edits = json.dumps({k: v for k, v in args.items() if k not in ("path", "file_path")}, indent=2,
                           ensure_ascii=False)
        return code_block(edits, "json", css_class="tool-args") + _output(text.strip())
    if name in ("ls", "grep", "find"):
        return _output(text.strip())
    arguments = json.dumps(args, indent=2, ensure_ascii=False)
    return code_block(arguments, "json", css_class="tool-args") + _output(text.strip())


def render_tool_call(call: dict[str, Any], result: dict[str, Any] | None) -> str:
    """HTML of one ``toolCall`` content block with its ``toolResult`` message (``None`` when it never came)."""
    name = str(call.get("name") or "?")
    args = call.get("arguments") if isinstance(call.get("arguments"), dict) else {}
    assert isinstance(args, dict)
    status = "pending" if result is None else "error" if result.get("isError") else "success"
    marker = {"pending": "…", "error": "✗", "success": "✓"}[status]
    summary = (
        f'<summary><span class="tool-status">{marker}</span> <span class="tool-name">{html.escape(name)}</span> '
        f'<span class="tool-summary">{html.escape(call_summary(name, args))}</span></summary>'
    )
    images = image_tags(result.get("content"), "tool-image") if result else ""
    pending = '<div class="tool-pending">(no result: the call was interrupted)</div>' if result is None else ""
    call_id = html.escape(str(call.get("id") or ""))
    return (
        f'<details class="tool-call {status}" data-tool="{html.escape(name)}" data-call-id="{call_id}">'
        f"{summary}<div class=\"tool-body\">{_body(name, args, result)}{images}{pending}</div></details>"
    )
