"""Footer (pi-reference §3.14): cwd (~), git branch, session name; token totals, cost, context %, model.

Line 1: ``~/proj (main) • my session``. Line 2: ``↑1.2k ↓340 R12k W1.1k $0.012 23.4%/200k (auto)`` on the
left, ``(provider) model-id • medium`` on the right (``loading model…`` while the session is still being
built at start-up, ``no model`` only when there is none, as pi's ``no-model``). Context % uses the warning colour above 70 and the error
colour above 90. Token numbers use pi's format (``format_tokens``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from rich.text import Text
from textual.widget import Widget

from pi_tui.tui.theme_loader import PiTheme

LOADING_TEXT = "loading model…"  # start-up, before the session (and so the model) exists; not "no model"


def format_tokens(n: float) -> str:
    """pi's token format: <1000 raw, <10k one decimal + k, <1M rounded k, <10M one decimal M, else M."""
    n = int(n)
    if n < 1000:
        return str(n)
    if n < 10_000:
        return f"{n / 1000:.1f}k"
    if n < 1_000_000:
        return f"{round(n / 1000)}k"
    if n < 10_000_000:
        return f"{n / 1_000_000:.1f}M"
    return f"{round(n / 1_000_000)}M"


def tilde(path: str, home: str | None = None) -> str:
    """``path`` with the home directory replaced by ``~``."""
    home = home if home is not None else os.path.expanduser("~")
    if home and (path == home or path.startswith(home.rstrip("/") + "/")):
        return "~" + path[len(home.rstrip("/")):]
    return path


@dataclass
class FooterData:
    """Everything the footer shows; the app fills it from the session (no polling)."""

    cwd: str = ""
    branch: str | None = None
    session_name: str | None = None
    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0
    cost: float = 0.0
    context_percent: float | None = None
    context_window: int = 0
    auto_compact: bool = True
    model_id: str = ""
    provider: str = ""
    thinking_level: str | None = None
    reasoning: bool = False
    multi_provider: bool = False
    loading: bool = False  # the session is still being built (start-up): the model is not known yet
    statuses: dict[str, str] = field(default_factory=dict)
    """Extension status segments by key (``ctx.ui.set_status``): a third line, sorted by key (pi)."""
    read_only: bool = False
    """Another pi-tui owns the session file: nothing from this window is saved (issue 9); shown on line 1."""
    mcp_state: str | None = None
    """Short MCP state when a server needs attention (``MCP: git failed``), shown at the end of line 1."""


def status_line(statuses: dict[str, str], theme: PiTheme, width: int) -> Text | None:
    """pi's extension status line: texts sorted by key, whitespace collapsed, joined by a space, cut to
    ``width`` with a dim ellipsis; None without statuses."""
    if not statuses:
        return None
    texts = [" ".join(statuses[key].split()) for key in sorted(statuses)]
    line = Text(" ".join(t for t in texts if t))
    if line.cell_len > width:
        line.truncate(max(0, width - 3))
        line.append("...", style=theme.fg("dim"))
    return line


def footer_lines(d: FooterData, theme: PiTheme, width: int) -> tuple[Text, Text]:
    """The two footer lines as Rich ``Text`` fitted to ``width`` cells."""
    dim = theme.fg("dim")
    loc = d.cwd + (f" ({d.branch})" if d.branch else "") + (f" • {d.session_name}" if d.session_name else "")
    mcp = d.mcp_state or ""
    if d.read_only:
        mcp = "read-only: not saved" + (f" · {mcp}" if mcp else "")
    room = width - (len(mcp) + 2 if mcp else 0)
    if mcp and room < 10:  # too narrow for both: the MCP state wins only when there is space for it
        mcp, room = "", width
    if len(loc) > room:
        loc = loc[: max(0, room - 3)] + "..."
    line1 = Text(loc, style=dim)
    if mcp:
        line1.append(" " * max(2, width - len(loc) - len(mcp)))
        line1.append(mcp, style=theme.fg("error"))

    left = Text(style=dim)
    parts = []
    if d.input:
        parts.append(f"↑{format_tokens(d.input)}")
    if d.output:
        parts.append(f"↓{format_tokens(d.output)}")
    if d.cache_read:
        parts.append(f"R{format_tokens(d.cache_read)}")
    if d.cache_write:
        parts.append(f"W{format_tokens(d.cache_write)}")
    if d.cost > 0:
        parts.append(f"${d.cost:.3f}")
    left.append(" ".join(parts))
    if d.context_window:
        pct = "?" if d.context_percent is None else f"{d.context_percent:.1f}%"
        style = dim
        if d.context_percent is not None and d.context_percent > 90:
            style = theme.fg("error")
        elif d.context_percent is not None and d.context_percent > 70:
            style = theme.fg("warning")
        if parts:
            left.append(" ")
        left.append(f"{pct}/{format_tokens(d.context_window)}", style=style)
        if d.auto_compact:
            left.append(" (auto)")
    right = d.model_id or (LOADING_TEXT if d.loading else "no model")
    if d.reasoning:
        right += f" • {d.thinking_level}" if d.thinking_level and d.thinking_level != "off" else " • thinking off"
    if d.multi_provider and d.provider:
        with_provider = f"({d.provider}) {right}"
        if left.cell_len + 2 + len(with_provider) <= width:
            right = with_provider
    gap = width - left.cell_len - len(right)
    line2 = left.copy()
    if gap >= 2:
        line2.append(" " * gap + right, style=dim)
    else:
        line2.append("  " + right, style=dim)
        line2.truncate(width, overflow="ellipsis")
    return line1, line2


class Footer(Widget):
    """Two dim lines under the editor (three with extension statuses). ``data`` is replaced by the app;
    ``refresh()`` repaints."""

    DEFAULT_CSS = """
    Footer { height: 2; padding: 0 1; }
    Footer.-with-status { height: 3; }
    """

    def __init__(self, theme: PiTheme, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.pi_theme = theme
        self.data = FooterData(loading=True)  # until the app fills it: the model is not known yet (#32)

    def set_data(self, data: FooterData) -> None:
        """Replace the shown data and repaint."""
        self.data = data
        self.set_class(bool(data.statuses), "-with-status")
        self.refresh()

    def render(self) -> Text:
        width = max(10, self.size.width - 2)
        a, b = footer_lines(self.data, self.pi_theme, width)
        if self.size.height == 1:  # tiny terminals (the app's CSS): the model and token line only
            return b
        status = status_line(self.data.statuses, self.pi_theme, width)
        return Text("\n").join([a, b] if status is None else [a, b, status])
