"""Render a growing Markdown text block by block, doing the work for each character once (issue 15).

``IncrementalMarkdown.strips(ctx, text, width, final)`` gives the same strips as
``RenderContext.markdown_strips(text, width, final=final)`` (with the same style and indent). While a reply
streams, the text only grows: the block split resumes where the previous update left the scan with no open
block (``markdown_blocks.scan_blocks``), blocks closed since are rendered once and appended to the lines kept so
far, and only the open tail is rendered again. A text that does not extend the previous one (edited, replaced),
a new width, theme or style starts over. The finished render therefore equals a one-shot render of the same text.

A line of a fresh render that equals the line at the same row of the previous tail's render is that very strip
object: the transcript repaints a line it painted before from its finished copy (``painted_lines``), and a growing
paragraph or list changes only its last lines from one update to the next.
"""

from __future__ import annotations

from rich.style import Style
from textual.strip import Strip

from pi_tui.tui.widgets.markdown_blocks import scan_blocks
from pi_tui.tui.widgets.message_render import RenderContext, blank_strip, block_strips
from pi_tui.tui.widgets.streaming_fence import hold_partial_fence


class IncrementalMarkdown:
    """Render state of one growing Markdown text (one content block of a streaming message)."""

    def __init__(self, style: Style | None = None, indent: int = 0) -> None:
        self.style = style
        self.indent = indent
        self._key: tuple[int, int] | None = None  # (width, ctx.generation) of the kept lines
        self._prefix = ""  # text[:resume] of the last update: the part whose blocks are all in ``_lines``
        self._lines: list[Strip] = []  # strips of the settled blocks, one blank line between blocks
        self._pending: dict[str, list[Strip]] = {}  # closed blocks after the resume point (rendered once)
        self._tail_text = ""  # the open tail of the last update and its strips
        self._tail: list[Strip] = []
        self.rendered_blocks = 0  # blocks rendered so far (tests)

    def reset(self) -> None:
        """Forget everything rendered (memory; the next call renders from the start)."""
        self._key = None
        self._prefix = ""
        self._lines = []
        self._pending = {}
        self._tail_text = ""
        self._tail = []

    def strips(self, ctx: RenderContext, text: str, width: int, final: bool) -> list[Strip]:
        """Strips of ``text`` at ``width`` (+ ``indent``), all blocks closed when ``final``."""
        key = (width, ctx.generation)
        if key != self._key or not text.startswith(self._prefix):
            self.reset()
            self._key = key
        start = len(self._prefix)
        blocks, tail, resume, settled = scan_blocks(text, start, final)
        blank = blank_strip(width + self.indent)
        pending: dict[str, list[Strip]] = {}
        out = self._lines
        old_text, old_tail = self._tail_text, self._tail
        for i, block in enumerate(blocks):
            strips = self._pending.get(block)
            if strips is None:
                strips = self._render(ctx, block, width)
                if old_tail and block.startswith(old_text):
                    strips = _same_objects(strips, old_tail)
            if i < settled:
                if out:
                    out.append(blank)
                out.extend(strips)
            else:
                pending[block] = strips
        self._pending = pending
        if resume != start:
            self._prefix = text[:resume]
        result = list(out)
        for block in blocks[settled:]:
            if result:
                result.append(blank)
            result.extend(pending[block])
        self._tail_text, self._tail = tail, []
        if tail:
            if result:
                result.append(blank)
            shown = tail if final else hold_partial_fence(tail)  # no one-line grow and shrink per closing fence
            self._tail = _same_objects(self._render(ctx, shown, width), old_tail)
            result.extend(self._tail)
        return result

    def _render(self, ctx: RenderContext, block: str, width: int) -> list[Strip]:
        self.rendered_blocks += 1
        return block_strips(ctx, block, width, self.style, self.indent)


def _same_objects(strips: list[Strip], before: list[Strip]) -> list[Strip]:
    """``strips`` with each line equal to the line at the same row of ``before`` replaced by that object."""
    n = len(before)
    return [old if j < n and (old := before[j]) == strip else strip for j, strip in enumerate(strips)]
