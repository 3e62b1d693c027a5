"""Rich renderables for transcript content, styled from a pi theme, and rendering them to Textual ``Strip``s.

``RenderContext`` owns one off-screen Rich ``Console`` (with a Rich theme built from the pi tokens) and the
display flags (thinking hidden, tools expanded). ``to_strips(renderable, width)`` renders once to a list of
strips, which the transcript caches per width. Markdown follows pi's look: ``#`` headings in ``mdHeading``,
fenced code between ```` ```lang ```` border lines in ``mdCodeBlockBorder`` with the code indented and
highlighted by a syntax theme made from the nine ``syntax*`` tokens (pi-reference §3.15).
"""

from __future__ import annotations

import io
from typing import Any, ClassVar

from pygments.token import (
    Comment,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Token,
)
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.markdown import CodeBlock, Heading, Markdown, MarkdownContext, MarkdownElement
from rich.segment import Segment
from rich.style import Style
from rich.syntax import ANSISyntaxTheme, Syntax
from rich.text import Text
from rich.theme import Theme as RichTheme
from textual.strip import Strip

from pi_tui.tui.theme_loader import PiTheme
from pi_tui.tui.widgets.markdown_blocks import split_blocks

CODE_INDENT = "  "  # settings markdown.codeBlockIndent default (pi-reference §3.16)


def syntax_theme(theme: PiTheme) -> ANSISyntaxTheme:
    """A Rich syntax theme from the nine ``syntax*`` tokens."""
    fg = theme.fg
    return ANSISyntaxTheme(
        {
            Token: fg("mdCodeBlock"),
            Comment: fg("syntaxComment", italic=True),
            Keyword: fg("syntaxKeyword"),
            Keyword.Type: fg("syntaxType"),
            Name: fg("syntaxVariable"),
            Name.Function: fg("syntaxFunction"),
            Name.Class: fg("syntaxType"),
            Name.Builtin: fg("syntaxFunction"),
            Name.Decorator: fg("syntaxFunction"),
            String: fg("syntaxString"),
            Number: fg("syntaxNumber"),
            Operator: fg("syntaxOperator"),
            Operator.Word: fg("syntaxKeyword"),
            Punctuation: fg("syntaxPunctuation"),
        }
    )


def rich_theme(theme: PiTheme) -> RichTheme:
    """Rich style names used by ``rich.markdown`` mapped to pi's markdown tokens."""
    fg = theme.fg
    styles: dict[str, Style] = {
        "markdown.code": fg("mdCode"),
        "markdown.code_block": fg("mdCodeBlock"),
        "markdown.block_quote": fg("mdQuote", italic=True),
        "markdown.hr": fg("mdHr"),
        "markdown.item.bullet": fg("mdListBullet"),
        "markdown.item.number": fg("mdListBullet"),
        "markdown.link": fg("mdLink", underline=True),
        "markdown.link_url": fg("mdLinkUrl"),
        "markdown.table.border": fg("mdCodeBlockBorder"),
        "markdown.table.header": fg("mdHeading", bold=True),
        "markdown.em": Style(italic=True),
        "markdown.strong": Style(bold=True),
        "markdown.s": Style(strike=True),
        "markdown.paragraph": Style(),
        "markdown.text": Style(),
    }
    for level in range(1, 7):
        styles[f"markdown.h{level}"] = fg("mdHeading", bold=True, underline=level == 1)
    return RichTheme(styles, inherit=True)


class PiHeading(Heading):
    """``## Title`` in ``mdHeading`` (pi keeps the hashes, left aligned)."""

    def on_enter(self, context: MarkdownContext) -> None:
        super().on_enter(context)
        self.text.append("#" * int(self.tag[1:]) + " ")

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        text = self.text.copy()
        text.justify = "left"
        yield text


class PiCodeBlock(CodeBlock):
    """A fenced code block between dim ```` ``` ```` border lines, code indented and highlighted."""

    border_style: ClassVar[Style] = Style()
    pi_syntax_theme: ClassVar[ANSISyntaxTheme | None] = None

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        code = str(self.text).rstrip("\n")
        lang = "" if self.lexer_name == "text" else self.lexer_name
        yield Text("```" + lang, style=self.border_style)
        theme: Any = self.pi_syntax_theme or self.theme
        syntax = Syntax(code, self.lexer_name, theme=theme, word_wrap=True, padding=0, background_color="default")
        yield _Indent(syntax, len(CODE_INDENT))
        yield Text("```", style=self.border_style)


class _Indent:
    """Render ``inner`` indented by ``n`` columns (cheaper than ``Padding``, no background)."""

    def __init__(self, inner: RenderableType, n: int) -> None:
        self.inner, self.n = inner, n

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = max(1, options.max_width - self.n)
        lines = console.render_lines(self.inner, options.update(width=width), pad=False)
        pad = Segment(" " * self.n)
        new_line = Segment.line()
        for line in lines:
            yield pad
            yield from line
            yield new_line


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
        self.generation = 0
        self.set_theme(theme)

    def set_theme(self, theme: PiTheme) -> None:
        """Switch theme: rebuild the console and syntax theme; bumps ``generation``."""
        self.theme = theme
        self.syntax = syntax_theme(theme)
        self.console = Console(
            file=io.StringIO(), width=80, color_system="truecolor", force_terminal=True,
            theme=rich_theme(theme), legacy_windows=False, emoji=False, highlight=False,
        )
        self._md_class = self._make_markdown_class(theme)
        self.generation += 1

    def bump(self) -> None:
        """Mark every cached render stale (a display flag changed)."""
        self.generation += 1

    def _make_markdown_class(self, theme: PiTheme) -> type[Markdown]:
        code_cls = type("ThemedCode", (PiCodeBlock,), {
            "border_style": theme.fg("mdCodeBlockBorder"), "pi_syntax_theme": self.syntax})
        elements: dict[str, type[MarkdownElement]] = dict(Markdown.elements)
        elements.update({"heading_open": PiHeading, "fence": code_cls, "code_block": code_cls})
        return type("PiMarkdown", (Markdown,), {"elements": elements})

    def markdown(self, text: str, style: Style | None = None) -> RenderableType:
        """One Markdown block as a renderable (links shown with their URL, no OSC 8)."""
        return self._md_class(text, hyperlinks=False, style=style or "none")

    def syntax_block(self, code: str, language: str | None) -> RenderableType:
        """Highlighted code without borders (artifacts, write previews)."""
        return Syntax(code, language or "text", theme=self.syntax, word_wrap=True, background_color="default")

    def to_strips(self, renderable: RenderableType, width: int, style: Style | None = None) -> list[Strip]:
        """Render ``renderable`` at ``width`` cells into padded strips (one per line)."""
        width = max(1, width)
        options = self.console.options.update(width=width, min_width=width, max_width=width, height=None)
        lines = self.console.render_lines(renderable, options, style=style or Style(), pad=True)
        return [Strip(line, width) for line in lines]

    def markdown_strips(self, text: str, width: int, cache: dict[str, list[Strip]] | None = None,
                        final: bool = True, style: Style | None = None) -> list[Strip]:
        """Strips of Markdown ``text`` rendered block by block (see ``markdown_blocks``).

        ``cache`` maps a closed block's source to its strips (same width/theme); the open tail of a streaming
        text (``final=False``) is rendered fresh each time and never cached.
        """
        blocks, tail = split_blocks(text, final=final)
        out: list[Strip] = []
        blank = Strip.blank(width)
        for i, block in enumerate(blocks + ([tail] if tail else [])):
            is_tail = i == len(blocks)
            strips = None if (cache is None or is_tail) else cache.get(block)
            if strips is None:
                strips = self.to_strips(self.markdown(block, style), width)
                if cache is not None and not is_tail:
                    cache[block] = strips
            if out:
                out.append(blank)
            out.extend(strips)
        return out


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
