"""A label line in the transcript: the label a ``label`` entry put on the message below it (pi's ``label``
entries, set from ``/tree``), shown as ``⚑ <label>`` in the theme's warning colour (pi's tree shows labels
in that colour)."""

from __future__ import annotations

from rich.padding import Padding
from rich.text import Text
from textual.strip import Strip

from pi_tui.tui.widgets.message_render import RenderContext
from pi_tui.tui.widgets.transcript_items import TranscriptItem


class LabelItem(TranscriptItem):
    """``label``: the text; placed right before the items of the labelled message."""

    def __init__(self, label: str) -> None:
        super().__init__()
        self.label = label

    def plain_text(self) -> str:
        return f"[{self.label}]"

    def build(self, ctx: RenderContext, width: int) -> list[Strip]:
        text = Text(f"⚑ [{self.label}]", style=ctx.theme.fg("warning"))
        return ctx.to_strips(Padding(text, (0, 0, 0, 1)), width)
