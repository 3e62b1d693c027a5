"""Rich elements and styles for pi's Markdown look, imported lazily (rich.markdown and pygments cost ~25 ms).

``syntax_theme``/``rich_theme`` build Rich styles from the pi tokens; ``PiHeading`` keeps the ``#`` marks;
``PiCodeBlock`` draws ```` ```lang ```` border lines around indented, highlighted code (pi-reference §3.15).
"""

from __future__ import annotations

from typing import Any, ClassVar

from markdown_it import MarkdownIt
from markdown_it.token import Token as MdToken
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
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.markdown import CodeBlock, Heading, ListItem, Markdown, MarkdownContext, MarkdownElement
from rich.segment import Segment
from rich.style import Style
from rich.syntax import ANSISyntaxTheme, Syntax
from rich.text import Text
from rich.theme import Theme as RichTheme

from pi_tui.tui.theme_loader import PiTheme

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


class PiListItem(ListItem):
    """Ordered items numbered ``1.`` as in pi (Rich prints the bare number)."""

    def render_number(
        self, console: Console, options: ConsoleOptions, number: int, last_number: int
    ) -> RenderResult:
        width = len(str(last_number)) + 3
        lines = console.render_lines(self.elements, options.update(width=options.max_width - width), style=self.style)
        style = console.get_style("markdown.item.number", default="none")
        numeral = Segment(f"{number}.".rjust(width - 1) + " ", style)
        padding = Segment(" " * width, style)
        new_line = Segment("\n")
        for i, line in enumerate(lines):
            yield numeral if i == 0 else padding
            yield from line
            yield new_line


def _html_block_as_paragraph(token: MdToken) -> list[MdToken]:
    """A raw HTML block (``<script>alert(2)</script> hi``, ``<div>``) as a paragraph of its literal text."""
    children: list[MdToken] = []
    for i, line in enumerate(token.content.rstrip("\n").split("\n")):
        if i:
            children.append(MdToken("hardbreak", "br", 0))
        children.append(MdToken("text", "", 0, content=line))
    inline = MdToken("inline", "", 0, content=token.content.rstrip("\n"), children=children, map=token.map)
    return [MdToken("paragraph_open", "p", 1, map=token.map), inline, MdToken("paragraph_close", "p", -1)]


class _KeepLineBreaks(Markdown):
    """Markdown whose single newlines stay line breaks (as in pi's terminal Markdown), not spaces, and whose raw
    HTML is shown as the text it is: Rich drops ``html_inline``/``html_block`` tokens, so ``List<String>``,
    ``<div class="x">`` or ``#include <stdio.h>`` outside code spans vanished from the screen (pi shows them)."""

    _parser: ClassVar[MarkdownIt | None] = None

    def __init__(self, markup: str, code_theme: str = "monokai", justify: Any = None, style: Any = "none",
                 hyperlinks: bool = True, inline_code_lexer: str | None = None,
                 inline_code_theme: str | None = None) -> None:
        # Rich's Markdown.__init__, with one parser for every block (it built a MarkdownIt, linkify patterns
        # included, for each one: more than the parse itself; issue 15). MarkdownIt.parse keeps no state.
        parser = _KeepLineBreaks._parser
        if parser is None:
            parser = _KeepLineBreaks._parser = MarkdownIt().enable("strikethrough").enable("table")
        self.markup = markup
        self.parsed = parser.parse(markup)
        self.code_theme = code_theme
        self.justify = justify
        self.style = style
        self.hyperlinks = hyperlinks
        self.inline_code_lexer = inline_code_lexer
        self.inline_code_theme = inline_code_theme or code_theme
        if any(t.type == "html_block" for t in self.parsed):
            self.parsed = [
                part for t in self.parsed for part in (_html_block_as_paragraph(t) if t.type == "html_block" else [t])
            ]
        stack = list(self.parsed)
        while stack:
            token = stack.pop()
            if token.type == "softbreak":
                token.type = "hardbreak"
            elif token.type == "html_inline":
                token.type = "text"
            if token.children:
                stack.extend(token.children)


def make_markdown_class(theme: PiTheme, syntax: ANSISyntaxTheme) -> type[Markdown]:
    """A ``Markdown`` subclass using ``PiHeading`` and a ``PiCodeBlock`` bound to this theme."""
    code_cls = type("ThemedCode", (PiCodeBlock,), {
        "border_style": theme.fg("mdCodeBlockBorder"), "pi_syntax_theme": syntax})
    elements: dict[str, type[MarkdownElement]] = dict(Markdown.elements)
    elements.update({"heading_open": PiHeading, "fence": code_cls, "code_block": code_cls,
                     "list_item_open": PiListItem})
    return type("PiMarkdown", (_KeepLineBreaks,), {"elements": elements})


def syntax_renderable(code: str, language: str | None, theme: ANSISyntaxTheme) -> RenderableType:
    """Highlighted code without borders."""
    return Syntax(code, language or "text", theme=theme, word_wrap=True, background_color="default")


__all__ = ["make_markdown_class", "rich_theme", "syntax_renderable", "syntax_theme"]
