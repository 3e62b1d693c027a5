"""Header: ``pi-tui vX`` with compact key hints; on the offline model, how to get a real one.

pi-reference §3.14 "Layout": logo and compact hints. The offline notice names the ways to add a model: an API
key environment variable, ``auth.json`` in the agent dir, or a local OpenAI-compatible server in
``models.json`` (local servers found on start are offered in the model picker).
"""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

from pi_tui.tui.theme_loader import PiTheme


def offline_notice(agent_dir: str) -> str:
    """The text shown while the built-in offline model is active."""
    return (f"Offline demo model. For a real model set ANTHROPIC_API_KEY or OPENAI_API_KEY (or add keys to "
            f"{agent_dir}/auth.json), or add a local server to {agent_dir}/models.json; Ctrl+L picks a model.")


class Header(Widget):
    """One or two lines at the top."""

    DEFAULT_CSS = """
    Header { height: auto; padding: 0 1; }
    """

    def __init__(self, theme: PiTheme, version: str, hints: str, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.pi_theme = theme
        self.version = version
        self.hints = hints
        self.notice: str | None = None

    def set_notice(self, notice: str | None) -> None:
        """Show (or remove with ``None``) the second line."""
        self.notice = notice
        self.refresh(layout=True)

    def render(self) -> Text:
        t = self.pi_theme
        text = Text.assemble(("π ", t.fg("accent", bold=True)), (f"pi-tui v{self.version}", t.fg("accent")),
                             ("  " + self.hints, t.fg("dim")))
        if self.notice:
            text.append("\n")
            text.append(self.notice, style=t.fg("warning"))
        return text
