"""Images in the transcript: a card per image (name, size, dimensions, MIME type) and, where the terminal
can show colour pixels, a small preview drawn with half-block cells (issue 12).

pi draws images with the Kitty or iTerm2 graphics protocol when ``terminal.showImages`` is on and the
terminal is one of Kitty, Ghostty, WezTerm, iTerm2 (never under tmux/screen), and a text line otherwise.
pi-tui cannot hand the terminal raw graphics under Textual's compositor, so the preview is made of ``▀``
cells coloured from the pixels (two pixels per cell), ``terminal.imageWidthCells`` wide at most (default 60),
when ``terminal.showImages`` is on and :func:`terminal_shows_pixels` says the terminal has 24-bit colour;
the card is always shown (DIFFERENCES I3).

A user message sent with images carries pi's ``<file name="...">…</file>`` lines before the text (the CLI's
``@file`` form, :func:`pi_tui.coding.images.file_tag`); the transcript shows the text without them and names
each card after its file.
"""

from __future__ import annotations

import base64
import io
import os
import re
from collections.abc import Mapping, Sequence
from typing import Any

from rich.box import ROUNDED
from rich.panel import Panel
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip

from pi_tui.coding.images import format_bytes, image_facts
from pi_tui.coding.user_blocks import FileBlock, UserBlocks, split_user_text
from pi_tui.tui.widgets.message_render import RenderContext
from pi_tui.tui.widgets.transcript_items import UserItem, field
from pi_tui.tui.widgets.user_message_item import UserMessageItem

_FILE_TAG = re.compile(r'<file name="([^"\n]*)">((?:\[Image[^\]\n]*\]\n?)*)</file>\n?')
"""pi's reference line of an attached image: its notes (``[Image: original …]``, ``[Image converted …]``,
``[Image omitted: …]``) one per line, never a text file's ``<file>`` block (that starts with a newline)."""
PREVIEW_MAX_ROWS = 12
"""Rows of the half-block preview at most (24 pixel rows)."""


def terminal_shows_pixels(env: Mapping[str, str] | None = None) -> bool:
    """True when the terminal can draw the half-block preview: 24-bit colour (``COLORTERM=truecolor|24bit``,
    or a terminal pi knows to have it: Kitty, Ghostty, WezTerm, iTerm2, VS Code, Alacritty) and no
    ``NO_COLOR``. Unlike pi's graphics check, tmux is fine (cells pass through)."""
    env = os.environ if env is None else env
    if env.get("NO_COLOR"):
        return False
    if env.get("COLORTERM", "").lower() in ("truecolor", "24bit"):
        return True
    program = env.get("TERM_PROGRAM", "").lower()
    term = env.get("TERM", "").lower()
    return bool(env.get("KITTY_WINDOW_ID") or env.get("WEZTERM_PANE") or env.get("ITERM_SESSION_ID")
                or env.get("GHOSTTY_RESOURCES_DIR") or "kitty" in term or "ghostty" in term
                or program in ("kitty", "ghostty", "wezterm", "iterm.app", "vscode", "alacritty"))


def split_file_tags(text: str) -> tuple[list[str], str]:
    """``(paths, rest)``: the ``<file name=…>`` lines that start ``text`` (pi's image references) and the rest."""
    paths: list[str] = []
    pos = 0
    while match := _FILE_TAG.match(text, pos):
        paths.append(match.group(1))
        pos = match.end()
    return paths, text[pos:]


def card(name: str | None, data: str, mime_type: str, ctx: RenderContext) -> Panel:
    """The card of one image: ``name  12.3 KB · 800x600 · image/png`` in a rounded box."""
    t = ctx.theme
    facts = image_facts(data, mime_type)
    details = [format_bytes(facts.size)]
    if facts.width and facts.height:
        details.append(f"{facts.width}x{facts.height}")
    details.append(mime_type)
    line = Text(name or "image", style=t.fg("accent"))
    line.append("  " + " · ".join(details), style=t.fg("muted"))
    return Panel(line, box=ROUNDED, border_style=t.fg("border"), expand=False, padding=(0, 1))


_PREVIEWS: dict[tuple[int, int, int], list[list[tuple[tuple[int, int, int], tuple[int, int, int]]]]] = {}


def _pixel_pairs(data: str, columns: int) -> list[list[tuple[tuple[int, int, int], tuple[int, int, int]]]]:
    """Rows of (top, bottom) RGB pairs, ``columns`` wide at most (cached per image and width)."""
    key = (hash(data), len(data), columns)
    rows = _PREVIEWS.get(key)
    if rows is not None:
        return rows
    from PIL import Image

    rows = []
    try:
        with Image.open(io.BytesIO(base64.b64decode(data))) as image:
            image.draft("RGB", (columns * 2, PREVIEW_MAX_ROWS * 4))  # JPEG: decode at a reduced size
            rgb = image.convert("RGB")
        rgb.thumbnail((columns, PREVIEW_MAX_ROWS * 2))  # a half cell is about square
        w, h = rgb.size
        if h % 2:
            rgb = rgb.resize((w, h + 1))
            h += 1
        raw = rgb.tobytes()  # RGB, row by row

        def pixel(x: int, y: int) -> tuple[int, int, int]:
            i = 3 * (y * w + x)
            return raw[i], raw[i + 1], raw[i + 2]

        for y in range(0, h - 1, 2):
            rows.append([(pixel(x, y), pixel(x, y + 1)) for x in range(w)])
    except Exception:
        rows = []  # a block that does not decode: card only
    if len(_PREVIEWS) > 64:
        _PREVIEWS.clear()
    _PREVIEWS[key] = rows
    return rows


def preview_strips(data: str, columns: int, indent: int = 1) -> list[Strip]:
    """The half-block preview of a base64 image, ``columns`` cells wide at most (empty when undecodable)."""
    strips = []
    pad = Segment(" " * indent)
    for row in _pixel_pairs(data, max(1, columns)):
        segments = [pad] + [Segment("▀", Style(color=f"rgb{top}", bgcolor=f"rgb{bottom}")) for top, bottom in row]
        strips.append(Strip(segments, indent + len(row)))
    return strips


def image_strips(images: Sequence[tuple[str | None, Any]], ctx: RenderContext, width: int) -> list[Strip]:
    """Cards (and previews when ``ctx.image_previews``) for ``(name, image block)`` pairs, at ``width``."""
    out: list[Strip] = []
    for name, block in images:
        data, mime = str(field(block, "data", "") or ""), str(field(block, "mime_type", None)
                                                               or field(block, "mimeType", "image"))
        out.extend(ctx.to_strips(card(name, data, mime, ctx), width))
        columns = min(ctx.image_width_cells, max(1, width - 2))
        if ctx.image_previews and data:
            out.extend(strip.extend_cell_length(width) for strip in preview_strips(data, columns))
    return out


class UserImagesItem(UserMessageItem):
    """A user message with images: its text (pi's file lines taken out), a ``[file]`` line per text file sent
    with it (``UserMessageItem``) and a card per image below it."""

    def __init__(self, text: str, images: Sequence[tuple[str | None, Any]], files: Sequence[FileBlock] = ()) -> None:
        super().__init__(UserBlocks(text, list(files)))
        self.images = list(images)

    def plain_text(self) -> str:
        names = ", ".join(name or "image" for name, _ in self.images)
        return f"{super().plain_text()}\n[images: {names}]"

    def estimate_height(self, width: int) -> int:
        return super().estimate_height(width) + 3 * len(self.images)

    def build(self, ctx: RenderContext, width: int) -> list[Strip]:
        return super().build(ctx, width) + image_strips(self.images, ctx, width)


def user_item(content: Any) -> UserItem:
    """The transcript item for a user message's ``content`` (a string or text/image blocks)."""
    from pi_tui.tui.widgets.transcript_items import message_text
    from pi_tui.tui.widgets.user_message_item import user_text_item

    if isinstance(content, str) or not any(field(b, "type") == "image" for b in content or []):
        return user_text_item(message_text(content))  # @file and /skill blocks as compact lines (#3, #13)
    texts = [str(field(b, "text", "") or "") for b in content if field(b, "type") == "text"]
    images = [b for b in content if field(b, "type") == "image"]
    blocks = split_user_text("\n".join(texts))  # image lines and text files (a text file's XML was shown)
    paths = [f.path for f in blocks.files if f.content is None]
    names: list[str | None] = [os.path.basename(p) or p for p in paths]
    names += [None] * (len(images) - len(names))
    return UserImagesItem(blocks.text.strip(), list(zip(names, images, strict=False)),
                          [f for f in blocks.files if f.content is not None])
