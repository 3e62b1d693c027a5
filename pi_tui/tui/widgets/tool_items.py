"""Tool items of the transcript: ``ToolItem`` (a tool call's line and its result preview, pi's look) and
``BashItem`` (a user ``!cmd``: bordered box, last lines live). Their base is ``item_base.TranscriptItem``."""

from __future__ import annotations

import time
from typing import Any

from rich.cells import cell_len, set_cell_size
from rich.console import RenderableType
from rich.padding import Padding
from rich.panel import Panel
from rich.style import Style
from rich.text import Text
from textual.strip import Strip

from pi_tui.tui.widgets import tool_format
from pi_tui.tui.widgets.item_base import TranscriptItem
from pi_tui.tui.widgets.message_render import RenderContext, diff_text, group
from pi_tui.tui.widgets.tool_custom_render import custom_parts

TOOL_STATUSES = ("pending", "queued", "running", "done", "error", "blocked", "interrupted")
TOOL_FAILED = ("error", "blocked", "interrupted")  # an error result (``interrupted``: the run or process ended first)
TOOL_FINISHED = ("done", *TOOL_FAILED)


class ToolItem(TranscriptItem):
    """One tool call: call line and result preview on a status-coloured background.

    ``status``: pending (arguments streaming), queued, running, done, error, blocked, interrupted (the run or
    the process ended before the call finished: no result was ever stored). ``expanded`` is the
    item's own toggle (click); ``ctx.expand_tools`` (Ctrl+O) expands every tool item.
    """

    clickable = True

    def __init__(self, tool_call_id: str, name: str, args: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.tool_call_id = tool_call_id
        self.name = name
        self.args: dict[str, Any] = dict(args or {})
        self.status = "pending"
        self.partial_text = ""
        self.result_text = ""
        self.details: Any = None
        self.expanded = False
        self.started_at: float | None = None
        self.ended_at: float | None = None
        self.created_at = time.monotonic()

    @property
    def elapsed(self) -> float | None:
        """Seconds since execution started (frozen at the end), ``None`` before start."""
        if self.started_at is None:
            return None
        return (self.ended_at or time.monotonic()) - self.started_at

    def plain_text(self) -> str:
        return tool_format.call_line(self.name, self.args) + "\n" + (self.result_text or self.partial_text)[:2000]

    def estimate_height(self, width: int) -> int:
        n = len((self.result_text or self.partial_text).split("\n"))
        return 3 + min(n, 20)

    def toggle(self) -> bool:
        self.expanded = not self.expanded
        self.changed()
        return True

    def build(self, ctx: RenderContext, width: int) -> list[Strip]:
        t = ctx.theme
        bg_token = "toolSuccessBg" if self.status == "done" else (
            "toolErrorBg" if self.status in TOOL_FAILED else "toolPendingBg")
        expanded = self.expanded or ctx.expand_tools
        header, custom_body = custom_parts(self, ctx.tool_renderers, expanded)  # extension rendering
        parts: list[RenderableType | None] = [
            header or Text(tool_format.call_line(self.name, self.args), style=t.fg("toolTitle", bold=True))]
        if custom_body is not None:
            parts.append(custom_body)
            return ctx.to_strips(Padding(group(*parts), (1, 1), style=t.bg(bg_token), expand=True), width)
        output = t.fg("toolOutput")
        if self.name == "edit":
            diff = tool_format.edit_diff(self.details)
            if diff:
                shown = tool_format.diff_preview(diff, expanded, expand_key=ctx.expand_key)
                parts.append(diff_text("\n".join(shown.lines), t))
                if shown.hint:
                    parts.append(Text(shown.hint, style=t.fg("muted")))
        if self.name == "write" and isinstance(self.args.get("content"), str):
            pv = tool_format.preview("write", self.args["content"], expanded, expand_key=ctx.expand_key)
            lang = lang_for(str(self.args.get("path", "")))
            parts.append(ctx.syntax_block("\n".join(pv.lines), lang))
            if pv.hint:
                parts.append(Text(pv.hint, style=t.fg("muted")))
        text = self.result_text if self.status in TOOL_FINISHED else self.partial_text
        text = tool_format.without_tool_notice(text, self.details)
        show_output = self.name not in ("write", "edit") or self.status in TOOL_FAILED
        if text and show_output:
            pv = tool_format.preview(self.name, text, expanded, width=max(1, width - 2), expand_key=ctx.expand_key)
            style = t.fg("error") if self.status in TOOL_FAILED else output
            body = Text("\n".join(pv.lines), style=style)
            hint = Text(pv.hint, style=t.fg("muted")) if pv.hint else None
            parts.extend([hint, body] if pv.hint_above else [body, hint])
        for note in (tool_format.truncation_note(self.details), tool_format.image_warning(self.details)):
            if note:
                parts.append(Text(note, style=t.fg("warning")))
        if self.name == "bash" and self.status == "running":
            parts.append(Text("Running...", style=t.fg("muted")))
        elif self.name == "bash" and self.elapsed is not None and ctx.show_timing:
            parts.append(Text(f"Took {self.elapsed:.1f}s", style=t.fg("muted")))
        if self.status == "blocked" and not text:
            parts.append(Text("Blocked", style=t.fg("error")))
        return ctx.to_strips(Padding(group(*parts), (1, 1), style=t.bg(bg_token), expand=True), width)


def lang_for(path: str) -> str | None:
    """The syntax-highlighting language of a file ``path`` by its extension, or None (plain text)."""
    ext = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    return {"py": "python", "js": "javascript", "ts": "typescript", "rs": "rust", "go": "go", "md": "markdown",
            "json": "json", "sh": "bash", "toml": "toml", "yaml": "yaml", "yml": "yaml", "html": "html",
            "css": "css", "c": "c", "h": "c", "cpp": "cpp", "java": "java", "rb": "ruby"}.get(ext)


NOT_IN_CONTEXT = " · not sent to the model"
"""What the title of a ``!!cmd`` box adds (tester2 #24: it differed from ``!cmd`` only by its border colour);
``" · not sent"`` in a box too narrow for it and a few cells of the command."""


def bash_title(command: str, exclude: bool, width: int) -> str:
    """``$ <command>`` (pi's header); for ``!!cmd`` followed by :data:`NOT_IN_CONTEXT`, the command cut with ``…``
    so that the note always fits in a ``width``-cell box (Rich's panel keeps 6 cells for corners and spaces)."""
    if not exclude:
        return f"$ {command}"
    head = f"$ {' '.join(command.split())}"
    room = width - 6
    note = NOT_IN_CONTEXT if room - cell_len(NOT_IN_CONTEXT) >= 12 else " · not sent"
    keep = max(4, room - cell_len(note))
    if cell_len(head) > keep:
        head = set_cell_size(head, keep - 1) + "…"
    return head + note


class BashItem(TranscriptItem):
    """A user bash run (``!cmd``; ``!!cmd`` excluded from context, its title says so): bordered box, last 20 lines
    live."""

    PREVIEW = 20

    def __init__(self, command: str, exclude: bool = False) -> None:
        super().__init__()
        self.command = command
        self.exclude = exclude
        self.output = ""
        self.running = True
        self.exit_code: int | None = None
        self.cancelled = False
        self.truncated_path: str | None = None
        self.expanded = False

    clickable = True

    def toggle(self) -> bool:
        self.expanded = not self.expanded
        self.changed()
        return True

    def plain_text(self) -> str:
        return self.command + "\n" + self.output[-4000:]

    def build(self, ctx: RenderContext, width: int) -> list[Strip]:
        t = ctx.theme
        border = t.fg("dim") if self.exclude else t.fg("bashMode")
        lines = self.output.rstrip("\n").split("\n") if self.output else []
        parts: list[RenderableType | None] = []
        if lines and not (self.expanded or ctx.expand_tools) and len(lines) > self.PREVIEW:
            parts.append(Text(f"... ({tool_format.plural(len(lines) - self.PREVIEW, 'earlier line')}, {ctx.expand_key} to expand)",
                              style=t.fg("muted")))
            lines = lines[-self.PREVIEW:]
        if lines:
            parts.append(Text("\n".join(lines), style=t.fg("toolOutput")))
        if self.running:
            parts.append(Text(f"Running... ({ctx.interrupt_key.lower()} to cancel)", style=t.fg("muted")))
        elif self.cancelled:
            parts.append(Text("(cancelled)", style=t.fg("warning")))
        elif self.exit_code not in (0, None):
            parts.append(Text(f"(exit {self.exit_code})", style=t.fg("error")))
        if self.truncated_path:
            parts.append(Text(f"Output truncated. Full output: {self.truncated_path}", style=t.fg("warning")))
        title = Text(bash_title(self.command, self.exclude, width), style=border + Style(bold=True))
        panel = Panel(group(*parts) if parts else Text(""), title=title, title_align="left",
                      border_style=border, expand=True, padding=(0, 1))
        return ctx.to_strips(panel, width)
