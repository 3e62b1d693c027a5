"""Markdown → HTML for the export page: markdown-it-py (CommonMark + tables + strikethrough), code by Pygments.

Safety rules (the page is self-contained and shows untrusted model/tool text):

* raw HTML in the text is escaped, never passed through (``html=False``);
* links keep markdown-it's URL validation (no ``javascript:``/``vbscript:``/``file:``/non-image ``data:``) and
  open in a new tab with ``rel="noopener noreferrer"``;
* an image whose source is not a ``data:image/...`` URI is written as a link, so opening the page never fetches
  anything from the network (pi's export shows remote images; this one does not, see DIFFERENCES.md).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.util import ClassNotFound

_FORMATTER = HtmlFormatter(nowrap=True)
MAX_HIGHLIGHT_CHARS = 200_000
"""Longer code is escaped, not highlighted (Pygments on megabytes of tool output would stall the export)."""


def _lexer_by_name(language: str) -> Lexer | None:
    try:
        return get_lexer_by_name(language.strip().lower(), stripnl=False, ensurenl=False)
    except (ClassNotFound, ValueError):
        return None


def lexer_for_path(path: str) -> Lexer | None:
    """The Pygments lexer for a file name (``src/app.py`` → Python), or ``None`` when unknown."""
    try:
        return get_lexer_for_filename(path, stripnl=False, ensurenl=False)
    except (ClassNotFound, ValueError):
        return None


def highlight_code(code: str, language: str | None = None, lexer: Lexer | None = None) -> str:
    """``code`` as HTML spans with Pygments' short class names (``k``, ``s``, ``c``…, coloured by the page CSS);
    escaped plain text when the language is unknown or the code is very long. No wrapper element."""
    chosen = lexer or (_lexer_by_name(language) if language else None)
    if chosen is None or len(code) > MAX_HIGHLIGHT_CHARS:
        return html.escape(code)
    return highlight(code, chosen, _FORMATTER)


def code_block(code: str, language: str | None = None, lexer: Lexer | None = None, css_class: str = "code") -> str:
    """A ``<pre class=...><code>`` block of highlighted ``code``."""
    lang = f' data-lang="{html.escape(language)}"' if language else ""
    return f'<pre class="{css_class}"{lang}><code>{highlight_code(code, language, lexer)}</code></pre>'


def _fence(renderer: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    token = tokens[idx]
    language = token.info.strip().split(maxsplit=1)[0] if token.info.strip() else ""
    return code_block(token.content, language or None) + "\n"


def _image(renderer: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    token = tokens[idx]
    src = str(token.attrGet("src") or "")
    alt = html.escape(token.content or "image")
    if src.lower().startswith("data:image/"):
        return f'<img src="{html.escape(src)}" alt="{alt}">'
    return f'<a class="remote-image" href="{html.escape(src)}" target="_blank" rel="noopener noreferrer">[image: {alt}]</a>'


def _link_open(renderer: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    tokens[idx].attrSet("target", "_blank")
    tokens[idx].attrSet("rel", "noopener noreferrer")
    return str(renderer.renderToken(tokens, idx, options, env))


@lru_cache(maxsize=1)
def _renderer() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable(["table", "strikethrough"])
    md.add_render_rule("fence", _fence)
    md.add_render_rule("code_block", _fence)
    md.add_render_rule("image", _image)

    md.add_render_rule("link_open", _link_open)
    return md


def render_markdown(text: str) -> str:
    """``text`` (Markdown) as an HTML fragment, safe to insert in the page (see the module rules)."""
    return _renderer().render(text)
