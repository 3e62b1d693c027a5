"""Queued messages above the editor (pi-reference §3.14 "Queued message display").

One dim line per item, ``Steering: <text>`` then ``Follow-up: <text>`` (first line, truncated), then
``↳ <dequeue key> to edit all queued messages``. Hidden when both queues are empty. The data is the session's
``queue_update`` snapshot, kept separate from the widget.
"""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

from pi_tui.tui.theme_loader import PiTheme


def queue_lines(steering: list[str], follow_up: list[str], dequeue_key: str) -> list[tuple[str, str]]:
    """``(kind, text)`` lines to show; kind is ``steer``, ``follow`` or ``hint``."""
    lines: list[tuple[str, str]] = []
    for text in steering:
        lines.append(("steer", "Steering: " + _first_line(text)))
    for text in follow_up:
        lines.append(("follow", "Follow-up: " + _first_line(text)))
    if lines:
        lines.append(("hint", f"↳ {dequeue_key} to edit all queued messages"))
    return lines


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

    def set_local(self, steering: list[str], follow_up: list[str]) -> None:
        """Replace the app's own queue (texts typed during compaction), shown after the session's items."""
        self.local_steering = list(steering)
        self.local_follow_up = list(follow_up)
        self._update_display()

    def _update_display(self) -> None:
        self.display = bool(self.steering or self.follow_up or self.local_steering or self.local_follow_up)
        self.refresh(layout=True)

    def set_queues(self, steering: list[str], follow_up: list[str]) -> None:
        """Replace the shown queues (from a ``queue_update`` event)."""
        self.steering = list(steering)
        self.follow_up = list(follow_up)
        self._update_display()

    def render(self) -> Text:
        t = self.pi_theme
        styles = {"steer": t.fg("muted"), "follow": t.fg("muted"), "hint": t.fg("dim", italic=True)}
        lines = queue_lines(self.steering + self.local_steering, self.follow_up + self.local_follow_up,
                            self.dequeue_key)
        width = max(10, self.size.width - 2)
        out = []
        for kind, text in lines:
            line = Text(text, style=styles[kind], no_wrap=True, overflow="ellipsis")
            line.truncate(width, overflow="ellipsis")
            out.append(line)
        return Text("\n").join(out)
