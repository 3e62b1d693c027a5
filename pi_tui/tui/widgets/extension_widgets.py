"""Extension widgets above and below the editor (pi's ``ctx.ui.setWidget``; pi docs/extensions.md
"Widgets"): each key holds a block of lines; blocks stack in the order their keys were first set; setting
a key again replaces its block in place (pi moves it to the end: here it keeps its place, so a widget that
updates does not jump); ``None`` removes it. A block shows at most :data:`MAX_WIDGET_LINES` lines, then
``... (widget truncated)`` (pi). Lines may carry ANSI colours. Hidden when no block is set.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

from pi_tui.tui.theme_loader import PiTheme

MAX_WIDGET_LINES = 10
TRUNCATED = "... (widget truncated)"
PLACEMENTS = ("aboveEditor", "belowEditor")


def widget_lines(blocks: dict[str, list[str]]) -> list[tuple[str, bool]]:
    """``(line, is_truncation_note)`` for every block, in order (each block cut to ``MAX_WIDGET_LINES``)."""
    out: list[tuple[str, bool]] = []
    for lines in blocks.values():
        out.extend((line, False) for line in lines[:MAX_WIDGET_LINES])
        if len(lines) > MAX_WIDGET_LINES:
            out.append((TRUNCATED, True))
    return out


class ExtensionWidgetArea(Widget):
    """The widgets of one placement (``aboveEditor`` or ``belowEditor``)."""

    DEFAULT_CSS = """
    ExtensionWidgetArea { height: auto; max-height: 12; padding: 0 1; display: none; }
    Screen.-short ExtensionWidgetArea { max-height: 3; }
    Screen.-tiny ExtensionWidgetArea { max-height: 0; }
    """

    def __init__(self, theme: PiTheme, placement: str, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.pi_theme = theme
        self.placement = placement
        self.blocks: dict[str, list[str]] = {}

    def set_block(self, key: str, lines: Sequence[str] | None) -> None:
        """Set (``lines``) or remove (None) the block ``key``."""
        if lines is None:
            self.blocks.pop(key, None)
        else:
            self.blocks[key] = [str(line).replace("\t", "    ") for line in lines for line in str(line).split("\n")]
        self.display = bool(self.blocks)
        self.refresh(layout=True)

    def clear(self) -> None:
        """Remove every block."""
        self.blocks.clear()
        self.display = False
        self.refresh(layout=True)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """One row per line (the CSS ``max-height`` caps it)."""
        return len(widget_lines(self.blocks))

    def render(self) -> Text:
        width = max(10, self.size.width - 2)
        theme = getattr(self.app, "pi_theme", self.pi_theme)  # follows /theme
        out = []
        for line, note in widget_lines(self.blocks):
            text = Text(TRUNCATED, style=theme.fg("muted")) if note else Text.from_ansi(line)
            text.no_wrap = True
            text.truncate(width, overflow="ellipsis")
            out.append(text)
        return Text("\n").join(out)
