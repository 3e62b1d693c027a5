"""A header or footer drawn by an extension (pi's ``ctx.ui.setHeader`` / ``setFooter``; the component
contract is in ``pi_tui/coding/extensions/ui_slots.py``).

:class:`ExtensionSlot` sits next to the built-in part and stands in for it while a component is set: the
built-in part is hidden, the component's ``render(width)`` lines are shown (ANSI colours kept, each line cut
to the width). When the factory or a render raises, or returns something that is not lines, the slot
reports it once (``SlotSpec.fail``: one error naming the extension), drops the component and shows the
built-in part again. Lines are rendered once per width and again after ``tui.request_render()``.

A slot may keep one line of the built-in part that the user must not lose (``trailer``): the header slot keeps
the offline-model notice below an extension's header (while the built-in offline demo model answers, the user
needs to know it and how to get a real model), cut to one row like the built-in header's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

from pi_tui.coding.extensions.ui_slots import SlotSpec, dispose, render_lines
from pi_tui.tui.theme_loader import PiTheme

MAX_SLOT_LINES = 10
"""A custom header or footer shows at most this many lines (the transcript keeps the rest of the screen)."""


class ExtensionTheme:
    """The ``theme`` a component factory gets: ANSI strings in the app's current theme (pi's ``Theme``)."""

    def __init__(self, theme: Callable[[], PiTheme]) -> None:
        self._theme = theme

    @staticmethod
    def _ansi(style: Style, text: str) -> str:
        return style.render(str(text))  # SGR codes in true colour; Text.from_ansi reads them back

    def fg(self, token: str, text: str) -> str:
        """``text`` in the theme colour ``token`` (``accent``, ``muted``, ``dim``, ``error`` ...)."""
        return self._ansi(self._theme().fg(token), text)

    def bg(self, token: str, text: str) -> str:
        """``text`` on the theme background ``token``."""
        return self._ansi(self._theme().bg(token), text)

    def bold(self, text: str) -> str:
        """Bold ``text``."""
        return self._ansi(Style(bold=True), text)

    def italic(self, text: str) -> str:
        """Italic ``text``."""
        return self._ansi(Style(italic=True), text)


class TuiHandle:
    """The ``tui`` a component factory gets: ``request_render()``, ``width``, ``height`` (the app's size)."""

    def __init__(self, slot: ExtensionSlot) -> None:
        self._slot = slot

    def request_render(self) -> None:
        """Draw the component again (its ``render`` is called at the next refresh)."""
        self._slot.invalidate()

    @property
    def width(self) -> int:
        """The terminal's width in cells."""
        return int(self._slot.app.size.width) if self._slot.is_attached else 80

    @property
    def height(self) -> int:
        """The terminal's height in rows."""
        return int(self._slot.app.size.height) if self._slot.is_attached else 24


class ExtensionSlot(Widget):
    """Stands in for ``built_in`` (a widget, looked up when needed) while an extension's component is set."""

    SCOPED_CSS = False  # the rule for the replaced built-in part is not about this widget
    DEFAULT_CSS = """
    ExtensionSlot { height: auto; padding: 0 1; display: none; }
    ExtensionSlot.-active { display: block; }
    .-replaced-by-extension { display: none; }
    Screen.-tiny ExtensionSlot#ext-header { display: none; }
    """

    def __init__(self, built_in: Callable[[], Widget | None], theme: Callable[[], PiTheme],
                 extra_args: Callable[[], tuple[Any, ...]] = tuple,
                 trailer: Callable[[], Text | None] = lambda: None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._built_in = built_in
        self._trailer = trailer
        self.theme_view = ExtensionTheme(theme)
        self._extra_args = extra_args
        self.spec: SlotSpec | None = None
        self.component: Any = None
        self._lines: list[str] | None = None
        self._width = -1

    @property
    def active(self) -> bool:
        """A component is shown in place of the built-in part."""
        return self.component is not None

    def set_spec(self, spec: SlotSpec | None) -> None:
        """Show ``spec``'s component (built now) or, with None, the built-in part again."""
        self._drop()
        if spec is not None:
            try:
                component = spec.factory(TuiHandle(self), self.theme_view, *self._extra_args())
                if component is None:
                    raise TypeError("the factory returned None, not a component")
            except Exception as exc:
                spec.fail(exc)
                self._show_built_in(True)
                return
            self.spec, self.component = spec, component
        self._show_built_in(self.component is None)

    def invalidate(self) -> None:
        """Render the component again at the next refresh (``tui.request_render()``)."""
        self._lines = None
        if self.component is not None:
            invalidate = getattr(self.component, "invalidate", None)
            if callable(invalidate):
                try:
                    invalidate()
                except Exception as exc:
                    self._failed(exc)
                    return
        self.refresh(layout=True)

    def _drop(self) -> None:
        if self.component is not None:
            dispose(self.component)
        self.spec = self.component = None
        self._lines = None

    def _show_built_in(self, show: bool) -> None:
        built_in = self._built_in()
        if built_in is not None:  # classes, not inline styles: a tiny screen still hides the header
            built_in.set_class(not show, "-replaced-by-extension")
        self.set_class(not show, "-active")
        self.refresh(layout=True)

    def _failed(self, exc: BaseException) -> None:
        spec = self.spec
        self._drop()
        if spec is not None:
            spec.fail(exc)
        self._show_built_in(True)

    def lines(self, width: int) -> list[str]:
        """The component's lines at ``width`` (cached; [] after a failure, which restores the built-in part)."""
        if self.component is None:
            return []
        if self._lines is None or width != self._width:
            try:
                self._lines = render_lines(self.component, width)[:MAX_SLOT_LINES]
            except Exception as exc:
                self.call_later(self._failed, exc)  # not while Textual is laying out or painting
                self._lines = []
            self._width = width
        return self._lines

    def trailer(self) -> Text | None:
        """The built-in part's line kept below the component (None: none now, or no component shown)."""
        if self.component is None:
            return None
        try:
            return self._trailer()
        except Exception:  # the app's own line: never lose the component over it
            return None

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """One row per rendered line, and one for the trailer."""
        lines = self.lines(width)
        return len(lines) + (1 if lines and self.trailer() is not None else 0)

    def render(self) -> Text:
        width = max(1, self.content_size.width)
        out = []
        lines = self.lines(width)
        for line in lines:
            text = Text.from_ansi(line.replace("\t", "    "))
            text.no_wrap = True
            text.truncate(width, overflow="ellipsis")
            out.append(text)
        trailer = self.trailer() if lines else None
        if trailer is not None:
            trailer = trailer.copy()
            trailer.no_wrap = True
            trailer.truncate(width, overflow="ellipsis")
            out.append(trailer)
        return Text("\n").join(out)
