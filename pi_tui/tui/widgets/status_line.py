"""Status line above the queue and editor: "Working...", retry countdown, compaction (pi-reference §3.14).

Hidden when there is nothing to say. On tiny terminals (the screen's ``-tiny`` breakpoint class, below 9 rows)
the queue area has no row, so the status line carries the queue's one-line summary (``queue_note``) after its
message: a queued message is never hidden (issue 9, new-user run). The spinner and the retry countdown run on timers that exist only
while the status is active; an idle app runs no timer.

While a reply streams, the transcript repaints ten times a second; ``join_frame`` (called by it just before it
repaints) advances the spinner then, and the spinner's own timer skips a step made that way, so both are painted
in one screen update instead of two (issue 15: the spinner's own screen updates were half of all updates).
Each drawn state (message, spinner frame, queue note, width, theme, the widget's look) is styled by Textual once
and its finished row reused (``render_lines``): the spinner cycles through a few frames, and styling the row again
on every streaming frame cost about 1 ms each time.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.geometry import Region
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget

from pi_tui.tui.theme_loader import PiTheme

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
MAX_DRAWN = 32  # finished rows kept (one per drawn state: spinner frames x messages)
WORKING = "Working..."
"""The message while the agent runs; extensions may change it, its spinner or hide it (``customize_working``)."""


class StatusLine(Widget):
    """One line: a spinner and a message cut with an ellipsis to the width, or nothing (``display = False``)."""

    DEFAULT_CSS = """
    StatusLine { height: 1; padding: 0 1; display: none; }
    """

    def __init__(self, theme: PiTheme, spin: bool = True, clock: Callable[[], float] = time.monotonic,
                 **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.pi_theme = theme
        self._clock = clock  # seconds, monotonic (tests pass their own)
        self.spin = spin
        self.message = ""
        self._frame = 0
        self._timer: Timer | None = None
        self._deadline: float | None = None
        self._template: Callable[[int], str] = str
        self.queue_note = ""  # QueueView.summary(): shown only on tiny screens, where the queue has no row
        self.working_message: str | None = None  # pi's ctx.ui.setWorkingMessage (None: WORKING)
        self.working_visible = True  # pi's setWorkingVisible
        self.working_frames: list[str] | None = None  # pi's setWorkingIndicator frames (None: SPINNER)
        self.working_interval = 0.12
        self._is_working = False
        self._advanced_at = 0.0  # time.monotonic() of the last spinner step
        self._drawn: dict[tuple[Any, ...], list[Strip]] = {}  # render_lines: drawn state -> finished rows
        self._drawn_theme: PiTheme | None = None

    def customize_working(self, *, message: str | None | bool = False, visible: bool | None = None,
                          frames: list[str] | None | bool = False, interval_ms: int | None = None) -> None:
        """Extension changes to the working row (``False``: unchanged; ``message``/``frames`` None restore
        the default); shown at once when the agent is working."""
        if message is not False:
            self.working_message = message or None  # type: ignore[assignment]
        if visible is not None:
            self.working_visible = visible
        if frames is not False:
            self.working_frames = None if frames is None else list(frames)  # type: ignore[arg-type]
            self.working_interval = (interval_ms or 120) / 1000 if frames is not None else 0.12
            if self._timer is not None:
                self._timer.stop()
                self._timer = None
        if self._is_working:
            self.show(WORKING)

    def set_queue_note(self, note: str) -> None:
        """The queue's one-line summary ("" when nothing is queued)."""
        self.queue_note = note
        self._sync_display()
        self.refresh()

    @property
    def tiny(self) -> bool:
        """The app's tiny-terminal breakpoint is on (the queue widget has no row there)."""
        return bool(self.is_mounted and self.screen.has_class("-tiny"))

    def _sync_display(self) -> None:
        self.display = bool(self.message or (self.queue_note and self.tiny))

    def on_resize(self) -> None:
        self._sync_display()

    def show(self, message: str) -> None:
        """Show ``message`` with a spinner (starts the spinner timer); ``WORKING`` as extensions set it."""
        self._is_working = message == WORKING
        if self._is_working and not self.working_visible:
            self.message = ""
            self._sync_display()
            return
        if self._is_working and self.working_message:
            message = self.working_message
        self.message = message
        self._deadline = None
        self.display = True
        self._start()
        self.refresh()

    def countdown(self, template: Callable[[int], str], seconds: float) -> None:
        """Show ``template(remaining whole seconds)``, counting down to 0 (a function, not a format string:
        the text may quote a provider's JSON, braces included)."""
        self._template = template
        self._deadline = self._clock() + seconds
        self.message = template(max(0, round(seconds)))
        self.display = True
        self._start()
        self.refresh()

    def clear(self) -> None:
        """Hide (unless a tiny screen shows the queue note here) and stop every timer."""
        self.message = ""
        self._is_working = False
        self._deadline = None
        self._sync_display()
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    @property
    def timer_running(self) -> bool:
        """True while the spinner/countdown timer exists."""
        return self._timer is not None

    def _start(self) -> None:
        if self._timer is None and self.spin and self.is_mounted:
            self._timer = self.set_interval(self._interval(), self._tick)

    def _frames(self) -> list[str] | str:
        return self.working_frames if self._is_working and self.working_frames is not None else SPINNER

    def _interval(self) -> float:
        return self.working_interval if self._is_working else 0.12

    def join_frame(self) -> None:
        """Another widget repaints now: take the spinner's next step with it when it is nearly due (at least three
        quarters of an interval since the last one), so the two are painted in one screen update."""
        if self._timer is None or not self.display:
            return
        now = self._clock()
        if now - self._advanced_at >= 0.75 * self._interval():
            self._advance(now)

    def _tick(self) -> None:
        now = self._clock()
        if now - self._advanced_at < 0.9 * self._interval():
            return  # taken with another widget's repaint (join_frame) since the last tick
        self._advance(now)

    def _advance(self, now: float) -> None:
        self._advanced_at = now
        self._frame = (self._frame + 1) % max(1, len(self._frames()))
        if self._deadline is not None:
            left = self._deadline - now
            self.message = self._template(max(0, int(left + 0.999)))
        self.refresh()

    def _glyph(self) -> str:
        frames = self._frames()
        return (frames[self._frame % len(frames)] if frames else "") if self.spin else "•"

    def render_lines(self, crop: Region) -> list[Strip]:
        """Textual's rendering of the row, reused for a state drawn before (module docstring). The key holds all
        ``render`` reads and every input of Textual's styling (size, crop, colours, filters, padding)."""
        if self._drawn_theme is not self.pi_theme or len(self._drawn) > MAX_DRAWN:
            self._drawn, self._drawn_theme = {}, self.pi_theme
        styles = self.styles
        app = self.app
        key = (crop, self.size, self.message, self._glyph(), self.queue_note if self.tiny else "",
               self.rich_style, self.background_colors, styles.padding, styles.tint, styles.text_opacity,
               self.opacity, tuple(self.get_line_filters()), app.ansi_theme, app.native_ansi_color)
        found = self._drawn.get(key)
        if found is None:
            found = self._drawn[key] = super().render_lines(crop)
        return list(found)

    def render(self) -> Text:
        t = self.pi_theme
        spin = self._glyph()
        width = max(1, self.content_size.width)
        note = self.queue_note if self.tiny else ""
        if not self.message:
            line = Text(f"↳ {note}", style=t.fg("dim", italic=True), no_wrap=True, overflow="ellipsis")
        else:
            message = self.message
            spinner = Text.from_ansi(spin + " ", style=t.fg("accent")) if spin else Text("")
            room = width - spinner.cell_len - (len(note) + 3 if note else 0)
            if note and len(message) > room:  # the queue note keeps its place; the message gives way
                message = message[: max(1, room - 1)] + "…"
            line = Text.assemble(spinner, (message, t.fg("muted")),
                                 (f" · {note}" if note else "", t.fg("dim", italic=True)), no_wrap=True,
                                 overflow="ellipsis")
        line.truncate(width, overflow="ellipsis")  # one row: never wraps
        return line
