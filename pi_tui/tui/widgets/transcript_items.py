"""Transcript items: one object per visible thing, each rendering once to cached strips per width.

Items: ``UserItem``, ``AssistantItem`` (thinking + Markdown text, streamed block by block), ``ToolItem`` (pi's
call line + collapsed result preview), ``BashItem`` (user ``!cmd``), ``NoticeItem`` (status/info, warning,
error lines), ``ArtifactItem`` (card), ``SummaryItem`` (compaction/branch summaries, custom messages).
Every item ends with one blank spacer line. ``strips(ctx, width)`` returns the cached render when neither the
width nor ``ctx.generation`` nor the item's own ``version`` changed.

Folding (issue 9 item 4): an item whose ``fold_owner`` (a compaction ``SummaryItem``, possibly itself folded
under a later one) is collapsed renders to no lines at all; the summary lists the items folded directly under it
in ``folded_items``.
"""

from __future__ import annotations

import time
from array import array
from typing import Any

from rich.console import RenderableType
from rich.padding import Padding
from rich.panel import Panel
from rich.style import Style
from rich.text import Text
from textual.strip import Strip

from pi_tui.coding.tools.truncate import count_lines
from pi_tui.tui.widgets import tool_format
from pi_tui.tui.widgets.abort_text import abort_text
from pi_tui.tui.widgets.markdown_incremental import IncrementalMarkdown
from pi_tui.tui.widgets.message_render import RenderContext, blank_strip, diff_text, group
from pi_tui.tui.widgets.prompt_input import PASTE_MAX_CHARS, PASTE_MAX_LINES
from pi_tui.tui.widgets.tool_custom_render import custom_parts


def field(obj: Any, name: str, default: Any = None) -> Any:
    """Attribute or dict key ``name`` of ``obj`` (events and messages arrive as models or dicts)."""
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


def message_text(content: Any) -> str:
    """Plain text of a user message's ``content`` (string or blocks); images become ``[image]``."""
    if isinstance(content, str):
        return content
    return tool_format.result_text(content)


class TranscriptItem:
    """Base class. Subclasses implement ``build(ctx, width) -> list[Strip]`` (without the spacer)."""

    clickable = False

    def __init__(self) -> None:
        self.version = 0
        self.fold_owner: SummaryItem | None = None
        self._key: tuple[int, int, int, bool] | None = None
        self._strips: list[Strip] = []
        self._measured: dict[int, int] = {}  # width -> rendered height, valid for ``_measured_for``
        self._measured_for: tuple[int, int] | None = None  # (ctx.generation, version) of ``_measured``
        self._last_measure: tuple[int, int] | None = None  # (width, height) of the latest render, any version
        self._line_lengths: array[int] | None = None  # lengths of plain_text()'s lines (estimate_height)
        self._line_lengths_for = -1  # the version they are of

    def changed(self) -> None:
        """The item's data changed: its next ``strips`` call re-renders."""
        self.version += 1

    def folded(self, ctx: RenderContext) -> bool:
        """True when a collapsed summary up the ``fold_owner`` chain hides this item."""
        owner = self.fold_owner
        while owner is not None:
            if not owner.is_expanded(ctx):
                return True
            owner = owner.fold_owner
        return False

    def fold_descendants(self) -> list[TranscriptItem]:
        """Items whose visibility follows this item's expanded state (none, except for summaries)."""
        return []

    def is_cached(self, ctx: RenderContext, width: int) -> bool:
        """True when ``strips(ctx, width)`` would return the cached render."""
        return self._key == (width, ctx.generation, self.version, self.fold_owner is not None and self.folded(ctx))

    def strips(self, ctx: RenderContext, width: int) -> list[Strip]:
        """Rendered lines at ``width`` (cached), ending with a blank spacer line; none while folded."""
        folded = self.fold_owner is not None and self.folded(ctx)
        key = (width, ctx.generation, self.version, folded)
        if self._key == key:
            return self._strips
        self._key = key
        if folded:
            self._strips = []
        else:
            self._strips = self.build(ctx, width) + [blank_strip(width)]
            if self._measured_for != (ctx.generation, self.version):
                self._measured = {}
                self._measured_for = (ctx.generation, self.version)
            self._measured[width] = len(self._strips)
            self._last_measure = (width, len(self._strips))
        return self._strips

    def last_strips(self, width: int) -> list[Strip]:
        """The latest render at ``width``, even if the item changed since (``[]`` when there is none): what
        the transcript paints until the new render is made, instead of blank lines (issue 9: the transcript
        flashed blank while a reply streamed)."""
        return self._strips if self._key is not None and self._key[0] == width else []

    def evict(self) -> None:
        """Drop the cached strips (memory); the measured heights are kept."""
        self._strips = []
        self._key = None

    @property
    def height_hint(self) -> int | None:
        """Height of the last render, at whatever width (``None`` before the first)."""
        return self._last_measure[1] if self._last_measure else None

    def measured_height(self, ctx: RenderContext, width: int) -> int | None:
        """The exact height ``strips(ctx, width)`` returns, when a render of this very state at ``width`` was
        seen (even if evicted since); ``None`` otherwise."""
        if self._measured_for != (ctx.generation, self.version):
            return None
        return self._measured.get(width)

    def guess_height(self, ctx: RenderContext, width: int) -> int:
        """Best known height at ``width`` without rendering: 0 while folded, the measured one, else the latest
        render's height scaled by the ratio of the cheap estimates at the two widths, else the cheap estimate."""
        if self.fold_owner is not None and self.folded(ctx):
            return 0
        exact = self.measured_height(ctx, width)
        if exact is not None:
            return exact
        if self._last_measure is None:
            return self.estimate_height(width)
        w0, h0 = self._last_measure
        if w0 == width:
            return h0
        return max(1, round(h0 * self.estimate_height(width) / max(1, self.estimate_height(w0))))

    def estimate_height(self, width: int) -> int:
        """Cheap guess of the rendered height, used before an off-screen item is first rendered. The lengths of
        the text's lines are kept per ``version`` (a resize estimated 10,000 items again from their text, which
        took most of the re-wrap; issue 15)."""
        lengths = self._line_lengths
        if lengths is None or self._line_lengths_for != self.version:
            lengths = self._line_lengths = array("I", sorted(map(len, self.plain_text().split("\n")), reverse=True))
            self._line_lengths_for = self.version
        w = max(10, width - 2)
        rows = 2 + len(lengths)
        for n in lengths:  # longest first: the lines shorter than the width take one row each
            if n < w:
                break
            rows += n // w
        return rows

    def plain_text(self) -> str:
        """Text used for height estimates and search."""
        return ""

    def build(self, ctx: RenderContext, width: int) -> list[Strip]:
        raise NotImplementedError

    def toggle(self) -> bool:
        """Mouse click / Enter on the item; returns True when the render changed."""
        return False


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
    """

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
        for index, block in enumerate(content):
            btype = field(block, "type")
            strips: list[Strip]
            if btype == "thinking":
                text = field(block, "thinking", "") or ""
                if not text.strip():
                    continue
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
                parts.append(diff_text(diff, t))
        if self.name == "write" and isinstance(self.args.get("content"), str):
            pv = tool_format.preview("write", self.args["content"], expanded, expand_key=ctx.expand_key)
            lang = _lang_for(str(self.args.get("path", "")))
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


def _lang_for(path: str) -> str | None:
    ext = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    return {"py": "python", "js": "javascript", "ts": "typescript", "rs": "rust", "go": "go", "md": "markdown",
            "json": "json", "sh": "bash", "toml": "toml", "yaml": "yaml", "yml": "yaml", "html": "html",
            "css": "css", "c": "c", "h": "c", "cpp": "cpp", "java": "java", "rb": "ruby"}.get(ext)


class BashItem(TranscriptItem):
    """A user bash run (``!cmd``; ``!!cmd`` excluded from context): bordered box, last 20 lines live."""

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
        title = Text(f"$ {self.command}", style=border + Style(bold=True))
        panel = Panel(group(*parts) if parts else Text(""), title=title, title_align="left",
                      border_style=border, expand=True, padding=(0, 1))
        return ctx.to_strips(panel, width)


class NoticeItem(TranscriptItem):
    """A one-line notice: ``status`` (dim), ``info`` (muted), ``warning`` (``Warning: …``), ``error``."""

    def __init__(self, level: str, text: str) -> None:
        super().__init__()
        self.level = level if level in ("status", "info", "warning", "error") else "info"
        self.text = text

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
            body = ctx.syntax_block(shown, self.language or _lang_for(self.path or ""))
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
