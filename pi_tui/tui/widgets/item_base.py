"""The base of every transcript item (``TranscriptItem``) and the two readers items share.

A ``TranscriptItem`` renders once to cached strips per width (``strips``), ends with one blank spacer line, and
can give a height before it is rendered (``guess_height`` / ``estimate_height``: the transcript lays out
10,000-message sessions from estimates, issue 15). Folding (issue 9 item 4): an item whose ``fold_owner`` is a
collapsed compaction summary renders to no lines. The items themselves are in ``transcript_items`` and
``tool_items``.
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Any

from textual.strip import Strip

from pi_tui.tui.widgets import tool_format
from pi_tui.tui.widgets.message_render import RenderContext, blank_strip

if TYPE_CHECKING:
    from pi_tui.tui.widgets.transcript_items import SummaryItem


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
    """Base class. Subclasses implement ``build(ctx, width) -> list[Strip]`` (without the spacer).
    ``empty_takes_no_space``: a build of no lines gets no spacer either (the item takes no rows)."""

    clickable = False
    empty_takes_no_space = False

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
        # The key is taken before building and stored after it: a render in a worker thread (the transcript's
        # background re-wrap) while the item changes stands for the state it started from, and a build that
        # raises leaves no key claiming the old strips. An item with nothing to show takes no rows when
        # ``empty_takes_no_space`` (new-user run #26), not even its spacer.
        if folded:
            strips: list[Strip] = []
        else:
            body = self.build(ctx, width)
            strips = body + [blank_strip(width)] if body or not self.empty_takes_no_space else []
        if not folded:
            state = (key[1], key[2])
            if self._measured_for != state:
                self._measured = {}
                self._measured_for = state
            self._measured[width] = len(strips)
            self._last_measure = (width, len(strips))
        self._strips, self._key = strips, key
        return strips

    def last_strips(self, width: int) -> list[Strip]:
        """The latest render at ``width``, even if the item changed since (``[]`` when there is none): what
        the transcript paints until the new render is made, instead of blank lines (issue 9: the transcript
        flashed blank while a reply streamed)."""
        return self._strips if self._key is not None and self._key[0] == width else []

    def latest_strips(self) -> list[Strip]:
        """The latest render at whatever width (``[]`` when there is none): what the transcript paints after a
        resize until the render at the new width is made (tester finding #12)."""
        return self._strips if self._key is not None else []

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
