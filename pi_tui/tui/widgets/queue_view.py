"""Queued messages above the editor (pi-reference §3.14 "Queued message display").

One dim line per item, ``Steering: <text>`` then ``Follow-up: <text>`` (first line, truncated), then
``↳ <dequeue key> to edit all queued messages``; when the rows do not hold every item (short terminals), the
hint counts the rest (``↳ +2 more · …``). Hidden when both queues are empty. The data is the session's
``queue_update`` snapshot, kept separate from the widget.
"""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

from pi_tui.tui.theme_loader import PiTheme

PENDING_NOTE = "sent once the session is ready"
AFTER_COMMAND_NOTE = "sent when the command ends"
"""The hint's note for what was typed before the session existed (AFTER_COMMAND_NOTE: after a user !cmd)."""


def queue_lines(steering: list[str], follow_up: list[str], dequeue_key: str,
                max_rows: int | None = None, pending: list[str] | None = None,
                pending_note: str = PENDING_NOTE) -> list[tuple[str, str]]:
    """``(kind, text)`` lines to show; kind is ``pending``, ``steer``, ``follow`` or ``hint``.

    ``pending``: prompts and commands typed before the session existed (start-up), or a prompt given to the
    session whose run has not started, ``Pending: <text>``; the hint starts with ``pending_note`` (when they are
    sent; :data:`AFTER_COMMAND_NOTE` for prompts that wait for a running user ``!cmd``, tester2 #10).

    ``max_rows`` (the rows the widget has; ``None``: unlimited) keeps the hint line whatever the height: when
    the items do not all fit, the first ones are shown and the hint says how many more are queued
    (``↳ +2 more · Alt+Up to edit all queued messages``), so a short terminal never hides messages silently;
    one row holds a summary (``↳ 3 queued (2 steering, 1 follow-up) · Alt+Up to edit``).
    """
    items: list[tuple[str, str]] = [("pending", "Pending: " + _first_line(t)) for t in pending or []]
    items += [("steer", "Steering: " + _first_line(t)) for t in steering]
    items += [("follow", "Follow-up: " + _first_line(t)) for t in follow_up]
    if not items:
        return []
    hint = f"{dequeue_key} to edit all queued messages"
    if pending:
        hint = f"{pending_note} · {hint}"
    if max_rows is None or len(items) + 1 <= max_rows:
        return [*items, ("hint", f"↳ {hint}")]
    if max_rows <= 0:
        return []
    if max_rows == 1:  # tiny terminals: one line still says what is queued (it was hidden below 9 rows)
        return [("hint", f"↳ {queue_summary([*(pending or []), *steering], follow_up)} · {dequeue_key} to edit")]
    shown = items[: max_rows - 1]
    return [*shown, ("hint", f"↳ +{len(items) - len(shown)} more · {hint}")]


def queue_summary(steering: list[str], follow_up: list[str]) -> str:
    """``Steering: fix it`` for one message, else ``3 queued (2 steering, 1 follow-up)`` ("" for none)."""
    if not steering and not follow_up:
        return ""
    if len(steering) + len(follow_up) == 1:
        return ("Steering: " + _first_line(steering[0])) if steering else ("Follow-up: " + _first_line(follow_up[0]))
    kinds = [f"{len(steering)} steering"] if steering else []
    kinds += [f"{len(follow_up)} follow-up"] if follow_up else []
    return f"{len(steering) + len(follow_up)} queued ({', '.join(kinds)})"


def _first_line(text: str) -> str:
    first = text.strip().split("\n", 1)[0]
    return first + (" …" if "\n" in text.strip() else "")


class QueueView(Widget):
    """Shows the steering and follow-up queues."""

    DEFAULT_CSS = """
    QueueView { height: auto; max-height: 8; padding: 0 1; display: none; }
    """

    def __init__(self, theme: PiTheme, dequeue_key: str = "Alt+Up", **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.pi_theme = theme
        self.dequeue_key = dequeue_key
        self.steering: list[str] = []
        self.follow_up: list[str] = []
        self.local_steering: list[str] = []  # typed during compaction, sent after it (held by the app)
        self.local_follow_up: list[str] = []
        self.pending: list[str] = []  # typed before the session existed (sent once it is ready)
        self.pending_note = PENDING_NOTE  # when the pending texts go (AFTER_COMMAND_NOTE: after a user !cmd)

    def set_local(self, steering: list[str], follow_up: list[str], pending: list[str] | None = None,
                  pending_note: str = PENDING_NOTE) -> None:
        """Replace the app's own queue (texts typed during compaction), shown after the session's items;
        ``pending``: texts not sent yet (held until the session exists or a running ``!cmd`` ends, or a prompt
        whose run has not started), shown first, with ``pending_note`` in the hint."""
        self.local_steering = list(steering)
        self.local_follow_up = list(follow_up)
        self.pending = list(pending or [])
        self.pending_note = pending_note
        self._update_display()

    def _update_display(self) -> None:
        self.display = bool(self.steering or self.follow_up or self.local_steering or self.local_follow_up
                            or self.pending)
        self.refresh(layout=True)

    def set_queues(self, steering: list[str], follow_up: list[str]) -> None:
        """Replace the shown queues (from a ``queue_update`` event)."""
        self.steering = list(steering)
        self.follow_up = list(follow_up)
        self._update_display()

    def summary(self) -> str:
        """A short line for everything queued (``2 queued · Alt+Up to edit``; "" when empty): what the status
        line shows when the terminal is too short for this widget."""
        count = len(self.pending + self.steering + self.local_steering + self.follow_up + self.local_follow_up)
        return f"{count} queued · {self.dequeue_key} to edit" if count else ""

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """Every line (the CSS ``max-height`` then caps it; ``render`` fits the lines into what is left)."""
        return len(queue_lines(self.steering + self.local_steering, self.follow_up + self.local_follow_up,
                               self.dequeue_key, pending=self.pending, pending_note=self.pending_note))

    def render(self) -> Text:
        t = self.pi_theme
        styles = {"pending": t.fg("muted"), "steer": t.fg("muted"), "follow": t.fg("muted"),
                  "hint": t.fg("dim", italic=True)}
        lines = queue_lines(self.steering + self.local_steering, self.follow_up + self.local_follow_up,
                            self.dequeue_key, max_rows=self.size.height or None, pending=self.pending,
                            pending_note=self.pending_note)
        width = max(10, self.size.width - 2)
        out = []
        for kind, text in lines:
            line = Text(text, style=styles[kind], no_wrap=True, overflow="ellipsis")
            line.truncate(width, overflow="ellipsis")
            out.append(line)
        return Text("\n").join(out)
