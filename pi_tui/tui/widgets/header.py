"""Header: ``pi-tui vX`` with compact key hints; on the offline model, how to get a real one.

pi-reference §3.14 "Layout": logo and compact hints. The offline notice names the ways to add a model: an API
key environment variable, ``auth.json`` in the agent dir, or a local OpenAI-compatible server in
``models.json`` (local servers found on start are offered in the model picker).
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.widget import Widget

from pi_tui.tui.theme_loader import PiTheme


def offline_notice(agent_dir: str) -> str:
    """The text shown while the built-in offline model is active (what to do first: it is cut to one row)."""
    return (f"Offline demo model · Ctrl+L picks a model · for a real one set ANTHROPIC_API_KEY or OPENAI_API_KEY, "
            f"or add keys to {agent_dir}/auth.json or a local server to {agent_dir}/models.json")


class Header(Widget):
    """One or two lines at the top, never wrapped (one line on short terminals, hidden on tiny ones)."""

    DEFAULT_CSS = """
    Header { height: auto; padding: 0 1; }
    """

    def __init__(self, theme: PiTheme, version: str, hints: str, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.pi_theme = theme
        self.version = version
        self.hints = hints
        self.notice: str | None = None
        self.notice_listeners: list[Callable[[], None]] = []
        """Called after the notice changed (an extension's header shows it too: ``custom_parts.py``)."""

    def set_notice(self, notice: str | None) -> None:
        """Show (or remove with ``None``) the second line."""
        changed = notice != self.notice
        self.notice = notice
        self.refresh(layout=True)
        if changed:
            for listener in list(self.notice_listeners):
                listener()

    @property
    def one_line(self) -> bool:
        """On short terminals (the screen's ``-short``/``-tiny`` class, set by the app's breakpoints) the header
        is a single truncated line so the transcript, editor and footer keep the rows."""
        return self.is_attached and (self.screen.has_class("-short") or self.screen.has_class("-tiny"))

    def render(self) -> Text:
        """One row per line, each cut with an ellipsis to the width (issue 9: at 80 columns the hints wrapped)."""
        t = self.pi_theme
        width = max(1, self.content_size.width or self.size.width - 2)
        logo = Text.assemble(("π ", t.fg("accent", bold=True)), (f"pi-tui v{self.version}", t.fg("accent")))
        if self.one_line:
            rest = (self.notice, t.fg("warning")) if self.notice else (self.hints, t.fg("dim"))
            return _fit(Text.assemble(logo, ("  " + rest[0], rest[1])), width)
        lines = [_fit(Text.assemble(logo, ("  " + self.hints, t.fg("dim"))), width)]
        if self.notice:
            lines.append(_fit(Text(self.notice, style=t.fg("warning")), width))
        return Text("\n").join(lines)


def _fit(line: Text, width: int) -> Text:
    line.no_wrap = True
    line.overflow = "ellipsis"
    line.truncate(width, overflow="ellipsis")
    return line
