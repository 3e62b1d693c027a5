"""Plain-Textual baselines the pi-tui figures are compared with (same machine, same run).

- :class:`MinimalApp`: one ``Static`` and one ``Input`` (start-up and idle-CPU baseline).
- :class:`MarkdownStreamApp`: a ``Markdown`` widget in an anchored ``VerticalScroll``, fed through
  ``Markdown.get_stream`` (the documented Textual way to stream a chat reply), plus an ``Input``.
- :class:`MarkdownChatApp`: one ``Markdown`` widget per message in a ``VerticalScroll`` (how Textual chat apps
  show a transcript) plus an ``Input``; ``append_message`` adds one more.
"""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Input, Markdown, Static


class MinimalApp(App[None]):
    """The smallest useful Textual app: a line of text and an input."""

    def compose(self) -> ComposeResult:
        yield Static("minimal Textual app")
        yield Input(placeholder="type here")


class MarkdownStreamApp(App[None]):
    """A streaming chat reply the Textual way: ``Markdown.get_stream`` into an anchored scroll view."""

    CSS = "VerticalScroll { height: 1fr; } Markdown { layout: stream; }"

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="log"):
            yield Markdown(id="reply")
        yield Input(placeholder="type here")

    def on_mount(self) -> None:
        self.query_one("#log", VerticalScroll).anchor()


class MarkdownChatApp(App[None]):
    """A transcript of one ``Markdown`` widget per message (the usual Textual chat-app design)."""

    CSS = "VerticalScroll { height: 1fr; } Markdown { margin: 0 0 1 0; }"

    def __init__(self, messages: list[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.initial = messages

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="log"):
            for text in self.initial:
                yield Markdown(text)
        yield Input(placeholder="type here")

    def on_mount(self) -> None:
        self.log_view.anchor()

    @property
    def log_view(self) -> VerticalScroll:
        """The scrolling transcript container."""
        return self.query_one("#log", VerticalScroll)

    async def append_message(self, text: str) -> Markdown:
        """Mount one more message at the end and keep the view at the bottom."""
        widget = Markdown(text)
        await self.log_view.mount(widget)
        self.log_view.anchor()
        return widget
