"""Rich renderables for transcript content, styled from a pi theme, and rendering them to Textual ``Strip``s.

``RenderContext`` owns one off-screen Rich ``Console`` (with a Rich theme built from the pi tokens) and the
display flags (thinking hidden, tools expanded). ``to_strips(renderable, width)`` renders once to a list of
strips, which the transcript caches per width. Markdown follows pi's look: ``#`` headings in ``mdHeading``,
fenced code between ```` ```lang ```` border lines in ``mdCodeBlockBorder`` with the code indented and
highlighted by a syntax theme made from the nine ``syntax*`` tokens (pi-reference §3.15).
"""

from __future__ import annotations

import io
from functools import lru_cache
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip

from pi_tui.agent.terminal_text import sanitize_display_text, sanitize_terminal_output
from pi_tui.tui.theme_loader import PiTheme
from pi_tui.tui.widgets.markdown_blocks import split_blocks
from pi_tui.tui.widgets.streaming_fence import hold_partial_fence

NULL_STYLE = Style.null()


def _safe_strip(line: list[Segment], width: int) -> Strip:
    """One rendered line as a ``width``-cell strip whose text holds no terminal control sequence or control
    character (tester2 #7: ESC sequences in a model's reply retitled the window, cleared the screen and left the
    alternate screen). Every transcript item renders through here; the text is cleaned by the same function as
    tool output (``sanitize_terminal_output``), and a line that got shorter is padded back to ``width``."""
    segments = [seg if seg.style is not None else Segment(seg.text, NULL_STYLE) for seg in line if not seg.control]
    cleaned = [sanitize_terminal_output(seg.text) for seg in segments]  # the same string when there is nothing to do
    if all(text is seg.text for text, seg in zip(cleaned, segments, strict=True)):
        return Strip(segments, width)
    clean = [Segment(text, seg.style) for text, seg in zip(cleaned, segments, strict=True)]
    return Strip(clean).adjust_cell_length(width, NULL_STYLE)


@lru_cache(maxsize=256)
def blank_strip(width: int) -> Strip:
    """A strip of ``width`` spaces with an explicit (null) style: Textual's NO_COLOR filter needs a style. The same
    object for the same width (strips are immutable): a transcript line painted before is found by its strip
    (``painted_lines``), and every item ends with one of these."""
    return Strip([Segment(" " * width, NULL_STYLE)], width)


class RenderContext:
    """Theme-dependent rendering state shared by all transcript items.

    ``generation`` increases whenever anything that changes rendered output changes (theme, flags), so
    items can tell whether their cached strips are stale.
    """

    def __init__(self, theme: PiTheme, hide_thinking: bool = False, expand_tools: bool = False,
                 show_timing: bool = True) -> None:
        self.hide_thinking = hide_thinking
        self.expand_tools = expand_tools
        self.show_timing = show_timing  # False in snapshots: no clock-dependent text
        self.expand_key = "Ctrl+O"  # keys named in hints: the app sets them from its keymap
        self.interrupt_key = "Esc"
        self.tool_renderers: Any = None  # extensions' RendererRegistry (custom tool call/result rendering)
        self.image_previews = False  # half-block image previews (terminal.showImages + a 24-bit terminal)
        self.image_width_cells = 60  # terminal.imageWidthCells
        self.generation = 0
        self.set_theme(theme)

    def set_theme(self, theme: PiTheme) -> None:
        """Switch theme; the console and Markdown classes are rebuilt on first use; bumps ``generation``."""
        self.theme = theme
        self._console: Console | None = None
        self._md_class: Any = None
        self._syntax: Any = None
        self.generation += 1

    def _elements(self) -> Any:
        from pi_tui.tui.widgets import markdown_elements

        if self._syntax is None:
            self._syntax = markdown_elements.syntax_theme(self.theme)
            self._md_class = markdown_elements.make_markdown_class(self.theme, self._syntax)
        return markdown_elements

    @property
    def console(self) -> Console:
        """Off-screen Rich console with the theme's Markdown styles (built lazily)."""
        if self._console is None:
            from pi_tui.tui.widgets.markdown_elements import rich_theme

            self._console = Console(
                file=io.StringIO(), width=80, color_system="truecolor", force_terminal=True,
                theme=rich_theme(self.theme), legacy_windows=False, emoji=False, highlight=False,
            )
        return self._console

    def bump(self) -> None:
        """Mark every cached render stale (a display flag changed)."""
        self.generation += 1

    def markdown(self, text: str, style: Style | None = None) -> RenderableType:
        """One Markdown block as a renderable (links shown with their URL, no OSC 8)."""
        self._elements()
        # cleaned before Rich drops a BEL that ends an OSC (the sequence would then run on over the next words)
        clean = sanitize_display_text(text)
        return self._md_class(clean, hyperlinks=False, style=style or "none")  # type: ignore[no-any-return]

    def syntax_block(self, code: str, language: str | None) -> RenderableType:
        """Highlighted code without borders (artifacts, write previews)."""
        elements = self._elements()
        return elements.syntax_renderable(code, language, self._syntax)  # type: ignore[no-any-return]

    def to_strips(self, renderable: RenderableType, width: int, style: Style | None = None) -> list[Strip]:
        """Render ``renderable`` at ``width`` cells into padded strips (one per line)."""
        width = max(1, width)
        options = self.console.options.update(width=width, min_width=width, max_width=width, height=None)
        lines = self.console.render_lines(renderable, options, style=style or Style(), pad=True)
        return [_safe_strip(line, width) for line in lines]

    def markdown_strips(self, text: str, width: int, cache: dict[str, list[Strip]] | None = None,
                        final: bool = True, style: Style | None = None, cache_prefix: str = "",
                        indent: int = 0) -> list[Strip]:
        """Strips of Markdown ``text`` rendered block by block (see ``markdown_blocks``), each ``indent`` blank
        cells + ``width`` cells wide.

        ``cache`` maps ``cache_prefix`` + a closed block's source to its (indented) strips (same width/theme;
        the prefix separates e.g. thinking from answer text); the open tail of a streaming text
        (``final=False``) is rendered fresh each time and never cached.
        """
        blocks, tail = split_blocks(text, final=final)
        tail = hold_partial_fence(tail) if tail and not final else tail  # no one-line grow and shrink per fence
        out: list[Strip] = []
        blank = blank_strip(width + indent)
        prefix = f"{cache_prefix}{indent}\0"
        for i, block in enumerate(blocks + ([tail] if tail else [])):
            is_tail = i == len(blocks)
            key = prefix + block
            strips = None if (cache is None or is_tail) else cache.get(key)
            if strips is None:
                strips = block_strips(self, block, width, style, indent)
                if cache is not None and not is_tail:
                    cache[key] = strips
            if out:
                out.append(blank)
            out.extend(strips)
        return out


def block_strips(ctx: RenderContext, block: str, width: int, style: Style | None = None,
                 indent: int = 0) -> list[Strip]:
    """One Markdown block's strips at ``width`` without Rich's blank lines around it, after ``indent`` blank
    cells (``markdown_blocks`` gives the blocks)."""
    strips = _trim_blank(ctx.to_strips(ctx.markdown(block, style), width))
    if indent:
        strips = [_indent(s, indent) for s in strips]
    return strips


def _indent(strip: Strip, cells: int) -> Strip:
    """``strip`` after ``cells`` blank cells (null style)."""
    return Strip([Segment(" " * cells, NULL_STYLE), *strip], strip.cell_length + cells)


def _trim_blank(strips: list[Strip]) -> list[Strip]:
    """Drop Rich's blank lines before/after a block (lists, tables, quotes); blocks get one blank between."""
    start, end = 0, len(strips)
    while start < end and not strips[start].text.strip():
        start += 1
    while end > start and not strips[end - 1].text.strip():
        end -= 1
    return strips[start:end]


def diff_text(diff: str, theme: PiTheme) -> Text:
    """Colour a diff: ``+`` lines ``toolDiffAdded``, ``-`` lines ``toolDiffRemoved``, others context."""
    text = Text()
    for i, line in enumerate(diff.rstrip("\n").split("\n")):
        if i:
            text.append("\n")
        if line.startswith("+") and not line.startswith("+++"):
            text.append(line, theme.fg("toolDiffAdded"))
        elif line.startswith("-") and not line.startswith("---"):
            text.append(line, theme.fg("toolDiffRemoved"))
        else:
            text.append(line, theme.fg("toolDiffContext"))
    return text


def group(*items: RenderableType | None) -> Group:
    """``Group`` of the non-``None`` renderables."""
    return Group(*[i for i in items if i is not None])
