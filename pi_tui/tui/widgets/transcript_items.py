"""Transcript items: one object per visible thing, each rendering once to cached strips per width.

Items: ``UserItem``, ``AssistantItem`` (thinking + Markdown text, streamed block by block), ``ToolItem`` (pi's
call line + collapsed result preview), ``BashItem`` (user ``!cmd``), ``NoticeItem`` (status/info, warning,
error lines), ``ArtifactItem`` (card), ``SummaryItem`` (compaction/branch summaries, custom messages).
The base class is in ``item_base`` and the tool items in ``tool_items``; all are importable from here.
Every item ends with one blank spacer line. ``strips(ctx, width)`` returns the cached render when neither the
width nor ``ctx.generation`` nor the item's own ``version`` changed.

Folding (issue 9 item 4): an item whose ``fold_owner`` (a compaction ``SummaryItem``, possibly itself folded
under a later one) is collapsed renders to no lines at all; the summary lists the items folded directly under it
in ``folded_items``.
"""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.padding import Padding
from rich.panel import Panel
from rich.style import Style
from rich.text import Text
from textual.strip import Strip

from pi_tui.agent.terminal_text import sanitize_display_text
from pi_tui.coding.tools.truncate import count_lines
from pi_tui.tui.widgets import tool_format
from pi_tui.tui.widgets.abort_text import abort_text
from pi_tui.tui.widgets.item_base import TranscriptItem, field, message_text
from pi_tui.tui.widgets.markdown_incremental import IncrementalMarkdown
from pi_tui.tui.widgets.message_render import RenderContext, blank_strip, diff_text, group
from pi_tui.tui.widgets.paste_markers import PASTE_MAX_CHARS, PASTE_MAX_LINES
from pi_tui.tui.widgets.tool_items import (
    TOOL_FAILED,
    TOOL_FINISHED,
    TOOL_STATUSES,
    BashItem,
    ToolItem,
    lang_for,
)


class UserItem(TranscriptItem):
    """A user message: Markdown on ``userMessageBg``.

    A prompt over the editor's paste threshold (more than 10 lines or 1000 characters) is collapsed like a paste:
    its first lines and ``... (+N lines, click or Ctrl+O to expand)`` (issue 9); a click or Ctrl+O shows it all.
    """

    COLLAPSED_LINES = 5
    COLLAPSED_CHARS = 400

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text
        self.expanded = False

    @property
    def long(self) -> bool:
        """True when the text is over the paste threshold (it is shown collapsed)."""
        return count_lines(self.text) > PASTE_MAX_LINES or len(self.text) > PASTE_MAX_CHARS

    @property  # type: ignore[override]
    def clickable(self) -> bool:  # type: ignore[override]
        """A click expands/collapses a long prompt."""
        return self.long

    def toggle(self) -> bool:
        if not self.long:
            return False
        self.expanded = not self.expanded
        self.changed()
        return True

    def plain_text(self) -> str:
        return self.text

    def build(self, ctx: RenderContext, width: int) -> list[Strip]:
        t = ctx.theme
        bg = t.bg("userMessageBg") + t.fg("userMessageText")
        text, hint = self.text, None
        if self.long and not (self.expanded or ctx.expand_tools):
            text = "\n".join(self.text.split("\n")[: self.COLLAPSED_LINES])[: self.COLLAPSED_CHARS]
            hidden_lines = count_lines(self.text) - count_lines(text)
            more = f"+{hidden_lines} lines" if hidden_lines > 1 else f"+{len(self.text) - len(text)} chars"
            hint = Text(f"... ({more}, click or {ctx.expand_key} to expand)", style=t.fg("muted"))
        body = group(ctx.markdown(text or " "), hint) if hint is not None else ctx.markdown(text or " ")
        return ctx.to_strips(Padding(body, (1, 1), style=bg, expand=True), width)


class AssistantItem(TranscriptItem):
    """An assistant message, streamed: thinking blocks and Markdown text; tool calls are separate items.

    Each text or thinking block renders through an ``IncrementalMarkdown`` (closed Markdown blocks once, per
    width/theme); while ``streaming`` only the open tail is re-rendered. When finished, the same block splitting
    is used, so the final render equals a one-shot render of the same text.

    A message with nothing to show (only tool calls) takes no rows, not even the spacer (new-user run #26: a
    tool-call-only turn left a 4-row gap).
    """

    empty_takes_no_space = True

    def __init__(self, message: Any, streaming: bool = False) -> None:
        super().__init__()
        self.message = message
        self.streaming = streaming
        self.thinking_collapsed: bool | None = None  # None: follow Ctrl+T (ctx.hide_thinking); a click sets it
        self._renders: dict[tuple[int, str], IncrementalMarkdown] = {}  # (content index, kind) -> its render

    def evict(self) -> None:
        super().evict()
        self._renders = {}

    def _markdown(self, index: int, kind: str, style: Style | None) -> IncrementalMarkdown:
        render = self._renders.get((index, kind))
        if render is None or render.style != style:
            render = self._renders[(index, kind)] = IncrementalMarkdown(style, indent=1)
        return render

    def update(self, message: Any, streaming: bool | None = None) -> None:
        """New snapshot of the (partial) message."""
        self.message = message
        if streaming is not None:
            self.streaming = streaming
        self.changed()

    @property  # type: ignore[override]
    def clickable(self) -> bool:  # type: ignore[override]
        """A click collapses/expands this message's thinking (only when it has some)."""
        return self.has_thinking()

    def has_thinking(self) -> bool:
        return any(field(b, "type") == "thinking" and (field(b, "thinking") or "").strip()
                   for b in field(self.message, "content", []) or [])

    def toggle(self) -> bool:
        if not self.has_thinking():
            return False
        self.thinking_collapsed = not self._collapsed_now
        self.changed()
        return True

    _collapsed_now = False

    _blank_for = -1  # the version ``_blank`` is of
    _blank = False

    def estimate_height(self, width: int) -> int:
        if self._blank_for != self.version:  # kept per version, as the line lengths (a resize re-estimates all)
            self._blank = (not self.plain_text().strip()
                           and field(self.message, "stop_reason") not in ("error", "aborted"))
            self._blank_for = self.version
        if self._blank:
            return 0  # nothing to show: no rows (class docstring)
        return super().estimate_height(width)

    def has_tool_calls(self) -> bool:
        return any(field(b, "type") == "toolCall" for b in field(self.message, "content", []) or [])

    def plain_text(self) -> str:
        parts = []
        for b in field(self.message, "content", []) or []:
            parts.append(field(b, "text") or field(b, "thinking") or "")
        return "\n\n".join(parts)

    def build(self, ctx: RenderContext, width: int) -> list[Strip]:
        t = ctx.theme
        out: list[Strip] = []
        blank = blank_strip(width)
        inner = max(1, width - 1)
        content = field(self.message, "content", []) or []
        collapsed = ctx.hide_thinking if self.thinking_collapsed is None else self.thinking_collapsed
        self._collapsed_now = collapsed
        previous = None  # type of the last block drawn: adjacent thinking blocks are one section (pi 0.80.8)
        for index, block in enumerate(content):
            btype = field(block, "type")
            strips: list[Strip]
            if btype == "thinking":
                text = field(block, "thinking", "") or ""
                if not text.strip():
                    continue
                if collapsed and previous == "thinking":
                    continue
                previous = btype
                if collapsed:
                    strips = [Strip.join([blank_strip(1), s]) for s in
                              ctx.to_strips(Text("Thinking...", style=t.fg("thinkingText", italic=True)), inner)]
                else:
                    strips = self._markdown(index, "thinking", t.fg("thinkingText", italic=True)).strips(
                        ctx, text, inner, final=not self.streaming)
            elif btype == "text":
                text = field(block, "text", "") or ""
                if not text.strip():
                    continue
                previous = btype
                # Each closed block is rendered once (already indented); only the open tail again.
                strips = self._markdown(index, "text", None).strips(ctx, text, inner, final=not self.streaming)
            else:
                continue
            if out:
                out.append(blank)
            out.extend(strips)
        stop = field(self.message, "stop_reason")
        if not self.streaming and not self.has_tool_calls():
            if stop == "aborted":
                msg = abort_text(field(self.message, "error_message"))
                out.extend(self._line(ctx, msg, t.fg("error"), width, bool(out)))
            elif stop == "error":
                msg = field(self.message, "error_message") or "Unknown error"
                out.extend(self._line(ctx, f"Error: {msg}", t.fg("error"), width, bool(out)))
        return out

    def _line(self, ctx: RenderContext, text: str, style: Style, width: int, gap: bool) -> list[Strip]:
        strips = ctx.to_strips(Padding(Text(text, style=style), (0, 0, 0, 1)), width)
        return ([blank_strip(width)] if gap else []) + strips


class NoticeItem(TranscriptItem):
    """A one-line notice: ``status`` (dim), ``info`` (muted), ``warning`` (``Warning: …``), ``error``."""

    def __init__(self, level: str, text: str) -> None:
        super().__init__()
        self.level = level if level in ("status", "info", "warning", "error") else "info"
        self.text = sanitize_display_text(text)  # an error text may quote what a server or the model sent

    def plain_text(self) -> str:
        return self.text

    def build(self, ctx: RenderContext, width: int) -> list[Strip]:
        t = ctx.theme
        if self.level == "error":
            text = self.text if self.text.startswith("Error") else f"Error: {self.text}"
            style = t.fg("error")
        elif self.level == "warning":
            text = self.text if self.text.startswith("Warning") else f"Warning: {self.text}"
            style = t.fg("warning")
        elif self.level == "status":
            text, style = self.text, t.fg("dim")
        else:
            text, style = self.text, t.fg("muted")
        return ctx.to_strips(Padding(Text(text, style=style), (0, 0, 0, 1)), width)


class ArtifactItem(TranscriptItem):
    """An artifact card: title, kind, and content (collapsed to 12 lines; click/Enter/Ctrl+O expands)."""

    clickable = True
    COLLAPSED = 12

    def __init__(self, title: str, kind: str, content: str, language: str | None = None,
                 path: str | None = None) -> None:
        super().__init__()
        self.title = title or "Artifact"
        self.kind = kind if kind in ("markdown", "code", "diff", "text", "image") else "text"
        self.content = content or ""
        self.language = language
        self.path = path
        self.expanded = False

    def plain_text(self) -> str:
        return self.title + "\n" + self.content[:2000]

    def toggle(self) -> bool:
        self.expanded = not self.expanded
        self.changed()
        return True

    def build(self, ctx: RenderContext, width: int) -> list[Strip]:
        t = ctx.theme
        expanded = self.expanded or ctx.expand_tools
        lines = self.content.rstrip("\n").split("\n")
        shown = self.content if expanded or len(lines) <= self.COLLAPSED else "\n".join(lines[: self.COLLAPSED])
        body: RenderableType
        if self.kind == "diff":
            body = diff_text(shown, t)
        elif self.kind == "code":
            body = ctx.syntax_block(shown, self.language or lang_for(self.path or ""))
        elif self.kind == "markdown":
            body = ctx.markdown(shown)
        elif self.kind == "image":
            body = Text(f"[image] {self.path or ''}".rstrip(), style=t.fg("muted"))
        else:
            body = Text(shown, style=t.fg("toolOutput"))
        hint = None
        if not expanded and len(lines) > self.COLLAPSED:
            hint = Text(f"... ({tool_format.plural(len(lines) - self.COLLAPSED, 'more line')}, click or {ctx.expand_key} to expand)",
                        style=t.fg("muted"))
        sub = f"{self.kind}" + (f" · {self.path}" if self.path else "") + f" · {tool_format.plural(len(lines), 'line')}"
        title = Text.assemble(("▣ ", t.fg("accent")), (self.title, t.fg("accent", bold=True)))
        panel = Panel(group(body, hint), title=title, title_align="left", subtitle=Text(sub, style=t.fg("muted")),
                      subtitle_align="right", border_style=t.fg("borderAccent"), expand=True, padding=(0, 1))
        return ctx.to_strips(panel, width)


class SummaryItem(TranscriptItem):
    """Compaction/branch summaries and custom messages: label + collapsed Markdown on ``customMessageBg``.

    A compaction summary (``tokens_before`` set) reads like pi's: ``Compacted from N tokens`` collapsed, that line
    in bold above the summary when expanded. ``folded_items`` are the compacted messages folded directly under it
    (shown below it while it is expanded, by its own click or Ctrl+O; pi-tui only, see DIFFERENCES.md).
    """

    clickable = True

    def __init__(self, label: str, text: str, collapsed_by_default: bool = True,
                 tokens_before: int | None = None) -> None:
        super().__init__()
        self.label = label
        self.text = text
        self.expanded = not collapsed_by_default
        self.tokens_before = tokens_before
        self.folded_items: list[TranscriptItem] = []

    def plain_text(self) -> str:
        return self.label + "\n" + self.text[:2000]

    def is_expanded(self, ctx: RenderContext) -> bool:
        """Expanded by its own toggle or by Ctrl+O (``ctx.expand_tools``)."""
        return self.expanded or ctx.expand_tools

    def fold_descendants(self) -> list[TranscriptItem]:
        """Every item folded under this summary, nested folds included, in transcript order."""
        out: list[TranscriptItem] = []
        for item in self.folded_items:
            out.append(item)
            out.extend(item.fold_descendants())
        return out

    def folded_message_count(self) -> int:
        """User and assistant messages folded under this summary (nested folds included)."""
        return sum(isinstance(i, UserItem | AssistantItem) for i in self.fold_descendants())

    def toggle(self) -> bool:
        self.expanded = not self.expanded
        self.changed()
        return True

    def build(self, ctx: RenderContext, width: int) -> list[Strip]:
        t = ctx.theme
        label = Text(f"[{self.label}]", style=t.fg("customMessageLabel", bold=True))
        body: RenderableType
        if self.tokens_before is not None:
            head = f"Compacted from {self.tokens_before:,} tokens"
            folded = self.folded_message_count()
            if folded:
                head += f" · {folded} earlier message{'s' if folded != 1 else ''}"
            if self.is_expanded(ctx):
                text = f"**{head}**\n\n{self.text}" if self.text.strip() else f"**{head}**"
                body = ctx.markdown(text, t.fg("customMessageText"))
            else:
                body = Text.assemble((f"{head} (", t.fg("customMessageText")), ("Ctrl+O", t.fg("dim")),
                                     (" to expand)", t.fg("customMessageText")))
        elif self.is_expanded(ctx):
            body = ctx.markdown(self.text or " ", t.fg("customMessageText"))
        else:
            first = (self.text.strip().split("\n") or [""])[0][:200]
            body = Text(f"{first}  ({ctx.expand_key} to expand)", style=t.fg("muted"))
        style = t.bg("customMessageBg")
        return ctx.to_strips(Padding(group(label, body), (1, 1), style=style, expand=True), width)


__all__ = [
    "TOOL_FAILED", "TOOL_FINISHED", "TOOL_STATUSES", "ArtifactItem", "AssistantItem", "BashItem", "NoticeItem",
    "SummaryItem", "ToolItem", "TranscriptItem", "UserItem", "field", "message_text",
]
