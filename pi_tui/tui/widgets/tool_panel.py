"""Tool-call panel: every tool call of the session with status, its short form and elapsed time.

Toggled with the ``app.tools.panel`` keys (F2 / Ctrl+B) or ``/tools``. Up/Down select a call; the detail pane
shows its full arguments and its live partial output, then its result. The call data are the transcript's
``ToolItem`` objects (one source of truth); the panel only reads them.

Rows use each tool's own one-line form (``tool_format.call_line``: ``$ for i in …``, ``read src/app.py:1-40``),
not JSON. The highlight follows the running call (else the newest) until the user picks a row with the keys
or the mouse; closing the panel lets it follow again.

The panel reacts to events: ``add_call`` appends one row, ``call_changed`` re-renders one row (and the detail
pane when that call is shown); nothing is rebuilt while the panel is hidden, and showing it fills the list
once. A 1-second timer re-renders only the rows of running calls (their elapsed time) while it is shown.
"""

from __future__ import annotations

import json
from typing import Any

from rich.console import Group
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.timer import Timer
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option, OptionDoesNotExist

from pi_tui.agent.terminal_text import sanitize_terminal_output
from pi_tui.tui.theme_loader import PiTheme
from pi_tui.tui.widgets import tool_format
from pi_tui.tui.widgets.transcript_items import TOOL_FAILED, TOOL_FINISHED, ToolItem

STATUS_ICON = {"pending": "…", "queued": "◌", "running": "●", "done": "✓", "error": "✗", "blocked": "⊘",
               "interrupted": "✗"}
STATUS_LABEL = {"pending": "queued", "queued": "queued", "running": "running", "done": "done", "error": "error",
                "blocked": "blocked", "interrupted": "interrupted"}
LABEL_WIDTH = max(len(label) for label in STATUS_LABEL.values())
FINISHED = TOOL_FINISHED


def elapsed_text(item: ToolItem, show_timing: bool = True) -> str:
    """``1.2s`` / ``—`` for a call that has not started (``…`` when timing is hidden, e.g. snapshots)."""
    if not show_timing:
        return "…" if item.status == "running" else ""
    e = item.elapsed
    return "—" if e is None else f"{e:.1f}s"


def short_form(item: ToolItem) -> str:
    """The call as its tool shows it in the transcript, on one line (``$ ls -la``, ``read a.py``), without terminal
    control sequences (the model writes the arguments: tester2 #7)."""
    return " ".join(sanitize_terminal_output(tool_format.call_line(item.name, item.args)).split())


def row_text(item: ToolItem, theme: PiTheme, width: int = 60, show_timing: bool = True) -> Text:
    """One list row, ``width`` cells: ``✓ done        $ ls -la             0.3s`` (the status column fits
    the longest label, ``interrupted``)."""
    status = item.status
    style = (theme.fg("error") if status in TOOL_FAILED else
             {"done": theme.fg("success"), "running": theme.fg("accent")}.get(status, theme.fg("muted")))
    head = f"{STATUS_ICON[status]} {STATUS_LABEL[status]:<{LABEL_WIDTH}}"
    tail = "  " + elapsed_text(item, show_timing)
    room = max(8, width - len(head) - len(tail))
    call = short_form(item)
    call = call if len(call) <= room else call[: room - 1] + "…"
    return Text.assemble((head, style), (call.ljust(room), theme.fg("toolTitle") or "bold"),
                         (tail, theme.fg("dim")))


class ToolList(OptionList):
    """The panel's list; remembers when the user picked a row (keys or mouse) so the highlight stops
    following the running call. PageUp/PageDown scroll the detail pane (``on_page(±1)``): the list is short and
    Up/Down/Home/End select in it (tester3 #2: a long "Output so far" could not be scrolled)."""

    picked = False
    on_page: Any = None  # Callable[[int], None]: scroll the detail pane a page down (1) or up (-1)

    def _pick(self) -> None:
        self.picked = True

    def action_cursor_up(self) -> None:
        self._pick()
        super().action_cursor_up()

    def action_cursor_down(self) -> None:
        self._pick()
        super().action_cursor_down()

    def action_first(self) -> None:
        self._pick()
        super().action_first()

    def action_last(self) -> None:
        self._pick()
        super().action_last()

    def action_page_up(self) -> None:
        if self.on_page is not None:
            self.on_page(-1)
            return
        self._pick()
        super().action_page_up()

    def action_page_down(self) -> None:
        if self.on_page is not None:
            self.on_page(1)
            return
        self._pick()
        super().action_page_down()

    async def _on_click(self, event: events.Click) -> None:
        self._pick()
        await super()._on_click(event)


class ToolPanel(Vertical):
    """List of tool calls plus details of the selected one."""

    DEFAULT_CSS = """
    ToolPanel { width: 45%; min-width: 40; border-left: vkey $border; display: none; }
    ToolPanel > #tool-title { height: 1; padding: 0 1; text-style: bold; }
    ToolPanel > OptionList, ToolPanel > OptionList:focus { height: 1fr; max-height: 50%; border: none; }
    ToolPanel > VerticalScroll { height: 1fr; padding: 0 1; }
    """

    def __init__(self, theme: PiTheme, show_timing: bool = True, toggle_key: str = "F2",
                 **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.pi_theme = theme
        self.show_timing = show_timing
        self.toggle_key = toggle_key
        self._built = False
        self.calls: list[ToolItem] = []
        self._timer: Timer | None = None
        self._row_width = 40
        self.row_renders = 0  # rows rendered so far (tests check that one event re-renders one row)
        self._detail_of: ToolItem | None = None  # the call the detail pane shows (``_show_detail``)

    def compose(self) -> ComposeResult:
        return iter(())  # children are mounted on first show (keeps the first paint cheap)

    @property
    def is_built(self) -> bool:
        """True once the list and detail pane are mounted (the first time the panel is shown)."""
        return self._built

    @property
    def option_list(self) -> ToolList:
        return self.query_one("#tool-list", ToolList)

    @property
    def live(self) -> bool:
        """Shown and mounted: only then do events touch the widgets."""
        return bool(self.display and self._built and self.is_mounted)

    async def build(self) -> None:
        """Mount the list and detail pane (once), then fill them."""
        if not self._built:
            self._built = True
            tool_list = ToolList(id="tool-list")
            tool_list.on_page = self._page_detail
            await self.mount(Static(f"Tool calls (↑/↓ select, PgUp/PgDn output, {self.toggle_key} close)",
                                    id="tool-title"),
                             tool_list, VerticalScroll(Static("", id="tool-detail"), id="tool-detail-scroll"))
        self.refill()

    # ------------------------------------------------------------------ data from the session view
    def set_calls(self, calls: list[ToolItem]) -> None:
        """Replace every call (session switch, rebuilt transcript)."""
        self.calls = list(calls)
        self.refill()

    def add_call(self, item: ToolItem) -> None:
        """Register a new call (one row appended at the end of the list)."""
        self.calls.append(item)
        if self.live:
            self.option_list.add_option(self._option(item))
            self._follow()
            self._sync_timer()

    def reset(self) -> None:
        """Forget every call (new session)."""
        self.set_calls([])

    def call_changed(self, item: ToolItem) -> None:
        """``item`` changed (status, arguments, output): re-render its row, and the detail pane if shown."""
        if not self.live:
            return
        self._render_row(item)
        if not self._follow() and self.selected() is item:
            self._show_detail()
        self._sync_timer()

    def update_calls(self) -> None:
        """Re-render every row and the detail pane (theme switch); events use ``call_changed``."""
        self.refill()

    # ------------------------------------------------------------------ rendering
    def refill(self) -> None:
        """Fill the list from ``calls`` (on show, resize, theme or session switch; not per event)."""
        if not self.live:
            return
        ol = self.option_list
        self._row_width = max(30, (self.size.width or int(self.app.size.width * 0.45)) - 4)
        highlighted = ol.highlighted
        ol.set_options([self._option(c) for c in self.calls])
        if not self._follow() and self.calls:
            ol.highlighted = min(highlighted if highlighted is not None else len(self.calls) - 1,
                                 len(self.calls) - 1)
        self._show_detail()
        self._sync_timer()

    def _option(self, item: ToolItem) -> Option:
        self.row_renders += 1
        return Option(row_text(item, self.pi_theme, self._row_width, self.show_timing), id=item.tool_call_id)

    def _render_row(self, item: ToolItem) -> None:
        self.row_renders += 1
        try:
            self.option_list.replace_option_prompt(
                item.tool_call_id, row_text(item, self.pi_theme, self._row_width, self.show_timing))
        except OptionDoesNotExist:
            pass

    def follow_target(self) -> ToolItem | None:
        """The call the highlight follows: the newest running call, else the newest call."""
        for item in reversed(self.calls):
            if item.status == "running":
                return item
        return self.calls[-1] if self.calls else None

    def _follow(self) -> bool:
        """Highlight the follow target unless the user picked a row; True when the highlight moved."""
        ol = self.option_list
        target = self.follow_target()
        if ol.picked or target is None:
            return False
        index = self.calls.index(target)
        if ol.highlighted == index:
            return False
        ol.highlighted = index  # the OptionHighlighted handler shows its details
        return True

    def _sync_timer(self) -> None:
        running = any(c.status == "running" for c in self.calls)
        if running and self._timer is None and self.show_timing and self.live:
            self._timer = self.set_interval(1.0, self._tick)
        elif not running and self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _tick(self) -> None:
        """Elapsed times: only the rows of running calls (and the detail header if one is shown)."""
        if not self.live:
            return
        for item in self.calls:
            if item.status == "running":
                self._render_row(item)
        selected = self.selected()
        if selected is not None and selected.status == "running":
            self._show_detail()

    def selected(self) -> ToolItem | None:
        """The highlighted call."""
        if not self._built:
            return None
        i = self.option_list.highlighted
        return self.calls[i] if i is not None and 0 <= i < len(self.calls) else None

    def _page_detail(self, direction: int) -> None:
        scroll = self.query_one("#tool-detail-scroll", VerticalScroll)
        (scroll.scroll_page_down if direction > 0 else scroll.scroll_page_up)(animate=False)

    def _show_detail(self) -> None:
        item = self.selected()
        detail = self.query_one("#tool-detail", Static)
        scroll = self.query_one("#tool-detail-scroll", VerticalScroll)
        # A running call's output is followed at its end unless the reader scrolled up; another call starts at
        # the top (its arguments) when finished, at the end of its output while running (tester3 #2).
        same = item is self._detail_of
        self._detail_of = item
        if item is not None and item.status not in FINISHED and (not same or scroll.scroll_y >= scroll.max_scroll_y - 1):
            at = scroll.scroll_y

            def follow() -> None:  # after the new text is laid out; not if the reader scrolled meanwhile
                if scroll.scroll_y == at:
                    scroll.scroll_end(animate=False, immediate=True)

            scroll.call_after_refresh(follow)
        elif not same:
            scroll.scroll_home(animate=False)
        if item is None:
            detail.update(Text("No tool calls yet.", style=self.pi_theme.fg("muted")))
            return
        t = self.pi_theme
        try:
            args = json.dumps(item.args, indent=2, ensure_ascii=False)
        except (TypeError, ValueError):
            args = str(item.args)
        args = sanitize_terminal_output(args)  # json.dumps leaves C1 controls (U+009B CSI, ...) as they are
        finished = item.status in FINISHED
        out = item.result_text if finished else item.partial_text
        name, call_id = sanitize_terminal_output(item.name), sanitize_terminal_output(item.tool_call_id)
        head = Text.assemble((f"{name} ", "bold"), (f"[{STATUS_LABEL[item.status]}] ", t.fg("accent")),
                             (f"id {call_id} · {elapsed_text(item, self.show_timing)}", t.fg("dim")))
        label = "Result" if finished else "Output so far"
        out_style = t.fg("error") if item.status in TOOL_FAILED else t.fg("toolOutput")
        detail.update(Group(head, Text(short_form(item), style=t.fg("toolTitle") or "bold"),
                            Text("Arguments", style="bold"), Text(args, style=t.fg("muted")),
                            Text(label, style="bold"), Text(out or "(none)", style=out_style)))

    # ------------------------------------------------------------------ Textual events
    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_detail()

    def on_resize(self) -> None:
        # Rows are fitted to the panel's width; the first fill may run before the panel is laid out.
        width = max(30, (self.size.width or int(self.app.size.width * 0.45)) - 4)
        if width != self._row_width:
            self.refill()

    def on_hide(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self._built:
            self.option_list.picked = False  # opened again, the panel follows the running call

    def on_show(self) -> None:
        self._sync_timer()

    def set_theme(self, theme: Any) -> None:
        """New theme: every row and the detail pane again."""
        self.pi_theme = theme
        self.refill()
