"""A failed attempt that auto-retry superseded, in the transcript: one dim line instead of its partial reply
(new-user run #31: every failed attempt's half answer stayed on screen, once per attempt).

``Attempt 1 of 4 failed: <the error in one line> (click or Ctrl+O to show its partial reply)``; a click or
Ctrl+O shows the partial reply under the line. The session file keeps the failed message as it was. The same
numbering as the status line and the final ``Retry failed after n attempts`` (every attempt counted, the first
included; ``attempts_text``).
"""

from __future__ import annotations

from typing import Any

from rich.padding import Padding
from rich.text import Text
from textual.strip import Strip

from pi_tui.coding.error_summary import summarize_error
from pi_tui.tui.widgets.message_render import RenderContext, blank_strip
from pi_tui.tui.widgets.transcript_items import AssistantItem, TranscriptItem, field


def attempts_text(retry: int, max_retries: int | None = None) -> str:
    """``attempt 2 of 4`` for the ``retry``-th retry (1-based) of ``max_retries``: attempts count the first
    request too, as ``Retry failed after 4 attempts`` does; ``attempt 2`` when the total is unknown."""
    return f"attempt {retry + 1}" + (f" of {max_retries + 1}" if max_retries is not None else "")


def failed_attempt(item: TranscriptItem) -> bool:
    """True for an assistant reply that failed with an error and called no tool (what a retry supersedes)."""
    if not isinstance(item, AssistantItem) or field(item.message, "stop_reason") != "error":
        return False
    return not item.has_tool_calls()


class FailedAttemptItem(TranscriptItem):
    """One superseded attempt: ``number`` (1-based, the first request is 1), ``total`` attempts when known, the
    failed ``message`` (its partial text is shown when expanded)."""

    clickable = True

    def __init__(self, message: Any, number: int, total: int | None = None) -> None:
        super().__init__()
        self.message = message
        self.number = number
        self.total = total
        self.expanded = False

    def reply_text(self) -> str:
        """The partial reply's text (thinking left out)."""
        return "\n\n".join(field(b, "text", "") or "" for b in field(self.message, "content", []) or []
                           if field(b, "type") == "text").strip()

    def plain_text(self) -> str:
        return self.headline()

    def headline(self) -> str:
        """``Attempt n of m failed: <error>``."""
        count = f"Attempt {self.number}" + (f" of {self.total}" if self.total else "")
        return f"{count} failed: {summarize_error(field(self.message, 'error_message')).one_line()}"

    def toggle(self) -> bool:
        self.expanded = not self.expanded
        self.changed()
        return True

    def build(self, ctx: RenderContext, width: int) -> list[Strip]:
        t = ctx.theme
        shown = self.expanded or ctx.expand_tools
        line = Text(self.headline(), style=t.fg("dim"))
        if self.reply_text() and not shown:
            line.append(f" (click or {ctx.expand_key} to show its partial reply)", style=t.fg("dim"))
        out = ctx.to_strips(Padding(line, (0, 0, 0, 1)), width)
        if shown and self.reply_text():
            reply = AssistantItem({"role": "assistant", "content": [
                {"type": "text", "text": self.reply_text()}], "stop_reason": "stop"})
            out += [blank_strip(width), *reply.build(ctx, width)]
        return out
