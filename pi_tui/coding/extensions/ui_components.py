"""The component side of ``ctx.ui`` that front ends without a screen answer with pi's defaults (pi 0.73
docs/extensions.md "Custom Components", "Custom Editor", "Autocomplete Providers", theme management; the RPC
defaults are docs/rpc.md "Extension UI Protocol": ``custom()`` → None, ``set_editor_component`` a no-op,
``get_all_themes()`` → ``[]``, ``get_theme()`` → None, ``set_theme()`` → ``{"success": False, "error": ...}``).

Contracts (Python names for pi's):

* ``ctx.ui.custom(factory, overlay=False)``: ``factory(tui, theme, keybindings, done)`` returns a component
  (``render(width) -> list[str]``, ``handle_input(key)``, optional ``invalidate()``/``dispose()``); the call
  waits until the component calls ``done(value)`` and returns ``value``. Keys are Textual key names
  (``"enter"``, ``"escape"``, ``"up"``, ``"ctrl+c"``; a printable key is its character), not pi's raw terminal
  bytes. ``keybindings.matches(key, action)`` tells whether a key is bound to an app action
  (``"tui.input.submit"``, ``"app.interrupt"`` ...).
* ``ctx.ui.set_editor_component(factory)``: ``factory(tui, theme, keybindings)`` returns an editor component
  that sees every key the editor gets first (:class:`CustomEditor`: ``handle_input(key) -> bool``, True when it
  took the key) and may label the editor (``label() -> str | None``, e.g. a vim mode); the built-in editor does
  the editing (``component.editor``, :class:`EditorHandle`), as pi's ``CustomEditor`` extends ``Editor``.
* ``ctx.ui.add_autocomplete_provider(factory)``: ``factory(current)`` returns a provider over ``current`` (the
  provider below it, the built-in slash/argument/``@`` one at the bottom): ``get_suggestions(lines, line, col,
  options)`` (sync or async) → ``{"prefix", "items": [{"value", "label", "description"}]}`` or None;
  optional ``apply_completion(lines, line, col, item, prefix)`` → ``{"lines", "cursor_line", "cursor_col"}``.
* Themes: ``ctx.ui.theme`` (``fg(token, text)``, ``bg``, ``bold``, ``italic``, ``name``),
  ``get_all_themes()`` → ``[{"name", "path"}]``, ``get_theme(name)``, ``set_theme(name or theme)`` →
  ``{"success": True}`` or ``{"success": False, "error"}``. Extensions add themes the pi way: ``theme_paths``
  (files or folders of ``*.json``) returned from ``resources_discover``.
"""

from __future__ import annotations

from typing import Any, Protocol

UI_NOT_AVAILABLE = "UI not available"
"""pi's ``setTheme`` error without a UI."""


class PlainTheme:
    """``ctx.ui.theme`` without a screen (print, JSON, RPC, ACP): every style returns the text unchanged."""

    name = "plain"

    def fg(self, token: str, text: str) -> str:
        """``text`` (no colour without a screen)."""
        return str(text)

    def bg(self, token: str, text: str) -> str:
        """``text``."""
        return str(text)

    def bold(self, text: str) -> str:
        """``text``."""
        return str(text)

    def italic(self, text: str) -> str:
        """``text``."""
        return str(text)


class EditorHandle(Protocol):
    """What an editor component may do with the built-in editor (the TUI's ``EditorControls``)."""

    @property
    def text(self) -> str:
        """The editor's text."""
        ...

    def set_text(self, text: str) -> None:
        """Replace the text (cursor at the end)."""
        ...

    @property
    def cursor(self) -> tuple[int, int]:
        """``(row, column)`` of the cursor."""
        ...

    def set_cursor(self, row: int, col: int) -> None:
        """Put the cursor at ``(row, col)`` (clamped to the text)."""
        ...

    def move(self, direction: str) -> None:
        """Move the cursor ``left``/``right``/``up``/``down``/``line_start``/``line_end``/``word_left``/
        ``word_right``."""
        ...

    def insert(self, text: str) -> None:
        """Insert ``text`` at the cursor."""
        ...

    def delete(self, direction: str = "right") -> None:
        """Delete the character right (``"right"``) or left (``"left"``) of the cursor, or the cursor's
        line (``"line"``)."""
        ...

    def submit(self) -> None:
        """Send the text, as the submit key does."""
        ...


class CustomEditor:
    """Base class for ``ctx.ui.set_editor_component`` components (pi's ``CustomEditor``): override
    :meth:`handle_input` (return True for a key you took; False lets the built-in editor and the app's keys
    handle it) and :meth:`label`. ``editor`` is the :class:`EditorHandle`, set by the front end before the
    first key."""

    def __init__(self, tui: Any = None, theme: Any = None, keybindings: Any = None) -> None:
        self.tui = tui
        self.theme = theme
        self.keybindings = keybindings
        self.editor: EditorHandle | None = None

    def handle_input(self, key: str) -> bool:
        """``key`` reached the editor; True when it was taken (the default: none is)."""
        return False

    def label(self) -> str | None:
        """Text shown on the editor's border (None: nothing)."""
        return None


def theme_result(error: str | None = None) -> dict[str, Any]:
    """pi's ``setTheme`` result: ``{"success": True}``, or ``{"success": False, "error": error}``."""
    return {"success": True} if error is None else {"success": False, "error": error}
