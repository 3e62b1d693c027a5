"""What a scrolled-up transcript keeps at its top line (issue 9), and finding it again after a rebuild.

``ViewAnchor`` is the item (and row) at the top line of a scrolled-up view; changed heights above it, appends,
expand/collapse and resizes keep that item at the top (after a width change at the same relative row).
``find_anchor`` finds the item standing for it among a rebuilt list of items (compaction, resync, switch).
"""

from __future__ import annotations

from dataclasses import dataclass

from pi_tui.tui.widgets.message_render import RenderContext
from pi_tui.tui.widgets.transcript_items import TranscriptItem


@dataclass(frozen=True)
class ViewAnchor:
    """``row`` of ``item`` at the top line, captured when the item was ``height`` lines high at ``width``
    columns (after a width change the row is scaled to the new height)."""

    item: TranscriptItem
    row: int
    height: int
    width: int


def find_anchor(items: list[TranscriptItem], index: int, row: int, new: list[TranscriptItem],
                ctx: RenderContext, from_end: bool = False) -> tuple[TranscriptItem, int] | None:
    """The item of ``new`` (and row) standing for ``items[index]`` at ``row``: the same kind and text, the same
    occurrence (counted from the end with ``from_end``: ``items`` were the end of ``new``, a session preview);
    when the rebuild folds it under a collapsed summary, the outermost shown summary at row 0. ``None`` when no
    item of ``new`` matches."""
    old = items[index]

    def key(item: TranscriptItem) -> tuple[str, str]:
        return type(item).__name__, item.plain_text()

    wanted = key(old)
    before = items[index + 1:] if from_end else items[:index]
    occurrence = sum(1 for it in before if key(it) == wanted)
    matches = [it for it in new if key(it) == wanted]
    if not matches:
        return None
    if from_end:
        matches.reverse()
    match = matches[min(occurrence, len(matches) - 1)]
    if match.fold_owner is not None and match.folded(ctx):
        owner = match.fold_owner  # the outermost summary that is shown
        while owner.fold_owner is not None and owner.folded(ctx):
            owner = owner.fold_owner
        return owner, 0
    return match, row
