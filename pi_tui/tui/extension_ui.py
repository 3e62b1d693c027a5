"""The TUI's :class:`~pi_tui.coding.extensions.ui.ExtensionUI`: extension dialogs as Textual modals
(``confirm`` → :class:`ConfirmModal`, ``select`` → :class:`FuzzyPicker`, ``input``/``editor`` →
:class:`TextPromptModal`), ``notify`` as a Textual toast, ``set_status`` as footer segments
(``on_status(statuses)``), ``set_widget`` as blocks of lines above/below the editor (``on_widget``), ``set_title`` as the app title, editor text through ``get/set_editor_text``
callbacks the app gives.

A dialog whose caller is cancelled (``timeout_ms`` expired, the handler abandoned) is dismissed with its
default, so no modal stays behind.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

from textual.app import App
from textual.screen import ModalScreen

from pi_tui.tui.modals.confirm import ConfirmModal
from pi_tui.tui.modals.fuzzy_picker import FuzzyPicker, PickerEntry
from pi_tui.tui.modals.text_prompt import TextPromptModal

SEVERITY = {"info": "information", "warning": "warning", "error": "error"}


class TextualExtensionUI:
    """ExtensionUI over ``app`` (module docstring)."""

    def __init__(
        self,
        app: App[Any],
        *,
        on_status: Callable[[dict[str, str]], None] | None = None,
        get_editor_text: Callable[[], str] | None = None,
        set_editor_text: Callable[[str], None] | None = None,
        on_widget: Callable[[str, list[str] | None, str], None] | None = None,
    ) -> None:
        self.app = app
        self.on_widget = on_widget
        self.statuses: dict[str, str] = {}
        self.on_status = on_status
        self._get_editor_text = get_editor_text
        self._set_editor_text = set_editor_text

    @property
    def has_ui(self) -> bool:
        """True."""
        return True

    async def _show(self, screen: ModalScreen[Any], default: Any) -> Any:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

        def done(value: Any) -> None:
            if not future.done():
                future.set_result(value)

        self.app.push_screen(screen, callback=done)
        try:
            return await future
        except asyncio.CancelledError:
            if screen.is_attached and screen in self.app.screen_stack:
                screen.dismiss(default)
            raise

    async def confirm(self, title: str, message: str = "", *, timeout_ms: int | None = None) -> bool:
        """Yes/No modal (No has focus first)."""
        question = f"{title}\n\n{message}" if message else title
        return bool(await self._show(ConfirmModal(question, confirm="Yes", cancel="No"), False))

    async def select(self, title: str, options: Sequence[str], *, timeout_ms: int | None = None) -> str | None:
        """Fuzzy picker over ``options``."""
        entries = [PickerEntry(label=str(o), value=str(o)) for o in options]
        value = await self._show(FuzzyPicker(title, entries), None)
        return None if value is None else str(value)

    async def input(self, title: str, placeholder: str = "", *, timeout_ms: int | None = None) -> str | None:
        """One-line text modal."""
        value = await self._show(TextPromptModal(title, placeholder=placeholder), None)
        return None if value is None else str(value)

    async def editor(self, title: str, prefill: str = "", *, timeout_ms: int | None = None) -> str | None:
        """Multi-line text modal."""
        value = await self._show(TextPromptModal(title, prefill=prefill, multiline=True), None)
        return None if value is None else str(value)

    def notify(self, message: str, level: str = "info") -> None:
        """A toast."""
        self.app.notify(message, severity=SEVERITY.get(level, "information"))  # type: ignore[arg-type]

    def set_status(self, key: str, text: str | None) -> None:
        """Set or clear the footer segment ``key``."""
        if text is None:
            self.statuses.pop(key, None)
        else:
            self.statuses[key] = text
        if self.on_status is not None:
            self.on_status(dict(self.statuses))

    def set_widget(self, key: str, lines: Sequence[str] | None, placement: str = "aboveEditor") -> None:
        """Set or clear (None) the widget ``key`` above (``"aboveEditor"``) or below (``"belowEditor"``)
        the editor (``on_widget(key, lines, placement)``; any other placement is above, as pi)."""
        if self.on_widget is not None:
            self.on_widget(key, None if lines is None else [str(x) for x in lines],
                           "belowEditor" if placement == "belowEditor" else "aboveEditor")

    def set_title(self, title: str) -> None:
        """The app's title."""
        self.app.title = title

    def set_editor_text(self, text: str) -> None:
        """Replace the editor's text."""
        if self._set_editor_text is not None:
            self._set_editor_text(text)

    def get_editor_text(self) -> str:
        """The editor's text."""
        return self._get_editor_text() if self._get_editor_text is not None else ""
