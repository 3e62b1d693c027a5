"""Tool-call panel: every tool call of the session with status, name, short args and elapsed time.

Toggled with F2 / Ctrl+B or ``/tools``. Up/Down select a call; the detail pane shows its full arguments and
its live partial output, then its result. The call data are the transcript's ``ToolItem`` objects (one source
of truth); the panel only reads them. A 1-second timer refreshes elapsed times only while a call is running
and the panel is shown.
"""

from __future__ import annotations

import json

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.timer import Timer
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from pi_tui.tui.theme_loader import PiTheme
from pi_tui.tui.widgets import tool_format
from pi_tui.tui.widgets.transcript_items import ToolItem

STATUS_ICON = {"pending": "…", "queued": "◌", "running": "●", "done": "✓", "error": "✗", "blocked": "⊘"}
STATUS_LABEL = {"pending": "queued", "queued": "queued", "running": "running", "done": "done", "error": "error",
                "blocked": "blocked"}


def elapsed_text(item: ToolItem, show_timing: bool = True) -> str:
    """``1.2s`` / ``—`` for a call that has not started (``…`` when timing is hidden, e.g. snapshots)."""
    if not show_timing:
        return "…" if item.status == "running" else ""
    e = item.elapsed
    return "—" if e is None else f"{e:.1f}s"


def row_text(item: ToolItem, theme: PiTheme, width: int = 60, show_timing: bool = True) -> Text:
    """One list row: ``✓ done    bash  {"command": "ls"}  0.3s``."""
    status = item.status
    style = {"done": theme.fg("success"), "error": theme.fg("error"), "blocked": theme.fg("error"),
             "running": theme.fg("accent")}.get(status, theme.fg("muted"))
    label = STATUS_LABEL[status]
    limit = max(10, width - 30)
    args = tool_format.short_args(item.args, limit).ljust(limit)
    return Text.assemble((f"{STATUS_ICON[status]} {label:<8}", style), (f"{item.name:<6} ", "bold"),
                         (args, theme.fg("muted")), ("  " + elapsed_text(item, show_timing), theme.fg("dim")))


class ToolPanel(Vertical):
    """List of tool calls plus details of the selected one."""

    DEFAULT_CSS = """
    ToolPanel { width: 45%; min-width: 40; border-left: vkey $border; display: none; }
    ToolPanel > #tool-title { height: 1; padding: 0 1; text-style: bold; }
    ToolPanel > OptionList, ToolPanel > OptionList:focus { height: 1fr; max-height: 50%; border: none; }
    ToolPanel > VerticalScroll { height: 1fr; padding: 0 1; }
    """

    def __init__(self, theme: PiTheme, show_timing: bool = True, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.pi_theme = theme
        self.show_timing = show_timing
        self._built = False
        self.calls: list[ToolItem] = []
        self._timer: Timer | None = None

    def compose(self) -> ComposeResult:
        return iter(())  # children are mounted on first show (keeps the first paint cheap)

    async def build(self) -> None:
        """Mount the list and detail pane (once), then fill them."""
        if not self._built:
            self._built = True
            await self.mount(Static("Tool calls (↑/↓ select, F2 close)", id="tool-title"),
                             OptionList(id="tool-list"),
                             VerticalScroll(Static("", id="tool-detail"), id="tool-detail-scroll"))
        self.update_calls()

    @property
    def is_built(self) -> bool:
        """True once the list and detail pane are mounted (the first time the panel is shown)."""
        return self._built

    @property
    def option_list(self) -> OptionList:
        return self.query_one("#tool-list", OptionList)

    def add_call(self, item: ToolItem) -> None:
        """Register a new call (shown at the end of the list)."""
        self.calls.append(item)
        self.update_calls()

    def reset(self) -> None:
        """Forget every call (new session)."""
        self.calls.clear()
        self.update_calls()

    def update_calls(self) -> None:
        """Re-draw rows and details (cheap; only when shown)."""
        if not self.display or not self._built or not self.is_mounted:
            return
        ol = self.option_list
        width = max(30, (self.size.width or int(self.app.size.width * 0.45)) - 4)
        highlighted = ol.highlighted
        ol.clear_options()
        ol.add_options([Option(row_text(c, self.pi_theme, width, self.show_timing), id=c.tool_call_id) for c in self.calls])
        if self.calls:
            ol.highlighted = min(highlighted if highlighted is not None else len(self.calls) - 1,
                                 len(self.calls) - 1)
        self._show_detail()
        running = any(c.status == "running" for c in self.calls)
        if running and self._timer is None and self.show_timing:
            self._timer = self.set_interval(1.0, self.update_calls)
        elif not running and self._timer is not None:
            self._timer.stop()
            self._timer = None

    def selected(self) -> ToolItem | None:
        """The highlighted call."""
        if not self._built:
            return None
        i = self.option_list.highlighted
        return self.calls[i] if i is not None and 0 <= i < len(self.calls) else None

    def _show_detail(self) -> None:
        item = self.selected()
        detail = self.query_one("#tool-detail", Static)
        if item is None:
            detail.update(Text("No tool calls yet.", style=self.pi_theme.fg("muted")))
            return
        t = self.pi_theme
        try:
            args = json.dumps(item.args, indent=2, ensure_ascii=False)
        except (TypeError, ValueError):
            args = str(item.args)
        out = item.result_text if item.status in ("done", "error", "blocked") else item.partial_text
        head = Text.assemble((f"{item.name} ", "bold"), (f"[{STATUS_LABEL[item.status]}] ", t.fg("accent")),
                             (f"id {item.tool_call_id} · {elapsed_text(item, self.show_timing)}", t.fg("dim")))
        label = "Result" if item.status in ("done", "error", "blocked") else "Output so far"
        out_style = t.fg("error") if item.status in ("error", "blocked") else t.fg("toolOutput")
        detail.update(Group(head, Text("Arguments", style="bold"), Text(args, style=t.fg("muted")),
                            Text(label, style="bold"), Text(out or "(none)", style=out_style)))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_detail()

    def on_resize(self) -> None:
        # Rows are fitted to the panel's width; the first fill may run before the panel is laid out.
        self.update_calls()

    def on_hide(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
