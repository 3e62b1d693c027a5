"""The TUI's :class:`~pi_tui.coding.extensions.ui.ExtensionUI`: extension dialogs as Textual modals
(``confirm`` → :class:`ConfirmModal`, ``select`` → :class:`FuzzyPicker`, ``input``/``editor`` →
:class:`TextPromptModal`), ``notify`` as a Textual toast, ``set_status`` as footer segments
(``on_status(statuses)``), ``set_widget`` as blocks of lines above/below the editor (``on_widget``), ``set_title`` as the app title, editor text through ``get/set_editor_text``
callbacks the app gives; custom header/footer, the working row, tool expansion and pastes through
:class:`~pi_tui.tui.custom_parts.CustomParts` (``parts``).

A dialog whose caller is cancelled (``timeout_ms`` expired, the handler abandoned) is dismissed with its
default, so no modal stays behind. A dialog with ``timeout_ms`` shows a live countdown after its title
(``Title (5s)``, ``Title (4s)``, ...; pi docs/extensions.md "Timed Dialogs with Countdown") and is dismissed
with its default when it reaches zero. Titles and messages are shown literally, every line (no markup).
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Sequence
from typing import Any

from rich.text import Text
from textual.app import App
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.widgets import Static

from pi_tui.tui.custom_parts import CustomParts
from pi_tui.tui.extension_components import ExtensionComponents
from pi_tui.tui.modals import arrival_guard
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
        parts: CustomParts | None = None,
        components: ExtensionComponents | None = None,
    ) -> None:
        self.app = app
        self.parts = parts
        self.components = components
        self.on_widget = on_widget
        self.statuses: dict[str, str] = {}
        self.on_status = on_status
        self._get_editor_text = get_editor_text
        self._set_editor_text = set_editor_text

    @property
    def has_ui(self) -> bool:
        """True."""
        return True

    async def _show(
        self, screen: ModalScreen[Any], default: Any,
        countdown: tuple[str, Callable[[int], str], int | None] | None = None,
    ) -> Any:
        """Push ``screen`` and wait for its result. ``countdown = (title widget selector, text(seconds left),
        timeout_ms)`` rewrites that widget every second and dismisses ``screen`` with ``default`` at zero."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

        def done(value: Any) -> None:
            if not future.done():
                future.set_result(value)

        arrival_guard.register(screen)  # it appears on its own: keys typed before it are not its answer
        ticker = None
        selector, text, timeout_ms = countdown or ("", str, None)
        try:
            mounted = self.app.push_screen(screen, callback=done)
            if timeout_ms:
                ticker = asyncio.ensure_future(self._count_down(screen, default, selector, text, timeout_ms))
            await mounted
            arrival_guard.painted(screen)  # whatever the dialog's class: its grace starts with the next frame
            return await future
        except asyncio.CancelledError:
            if screen.is_attached and screen in self.app.screen_stack:
                screen.dismiss(default)
            raise
        finally:
            if ticker is not None:
                ticker.cancel()

    async def _count_down(self, screen: ModalScreen[Any], default: Any, selector: str,
                          text: Callable[[int], str], timeout_ms: int) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_ms / 1000
        while (left := deadline - loop.time()) > 0:
            try:
                screen.query_one(selector, Static).update(Text(text(math.ceil(left))))
            except NoMatches:  # not composed yet: try again at once
                await asyncio.sleep(0.02)
                continue
            await asyncio.sleep(min(left, left - math.floor(left) or 1.0))
        if screen.is_attached and screen in self.app.screen_stack:
            screen.dismiss(default)

    async def confirm(self, title: str, message: str = "", *, timeout_ms: int | None = None) -> bool:
        """Yes/No modal (No has focus first)."""
        question = f"{title}\n\n{message}" if message else title
        modal = ConfirmModal(question, confirm="Yes", cancel="No")
        def text(left: int) -> str:
            return f"{title} ({left}s)\n\n{message}" if message else f"{title} ({left}s)"

        return bool(await self._show(modal, False, ("#confirm-question", text, timeout_ms)))

    async def select(self, title: str, options: Sequence[str], *, timeout_ms: int | None = None) -> str | None:
        """Fuzzy picker over ``options``."""
        entries = [PickerEntry(label=str(o), value=str(o)) for o in options]
        value = await self._show(FuzzyPicker(title, entries), None, ("#picker-title", lambda left: f"{title} ({left}s)", timeout_ms))
        return None if value is None else str(value)

    async def input(self, title: str, placeholder: str = "", *, timeout_ms: int | None = None) -> str | None:
        """One-line text modal."""
        value = await self._show(TextPromptModal(title, placeholder=placeholder), None,
                                 ("#prompt-title", lambda left: f"{title} ({left}s)", timeout_ms))
        return None if value is None else str(value)

    async def editor(self, title: str, prefill: str = "", *, timeout_ms: int | None = None) -> str | None:
        """Multi-line text modal."""
        value = await self._show(TextPromptModal(title, prefill=prefill, multiline=True), None,
                                 ("#prompt-title", lambda left: f"{title} ({left}s)", timeout_ms))
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

    # ---------------------------------------------------------------- custom parts (custom_parts.py)

    def set_header(self, spec: Any) -> None:
        """An extension's header component (None: the built-in header)."""
        if self.parts is not None:
            self.parts.set_header(spec)

    def set_footer(self, spec: Any) -> None:
        """An extension's footer component (None: the built-in footer)."""
        if self.parts is not None:
            self.parts.set_footer(spec)

    def set_working_message(self, message: str | None) -> None:
        """The working row's text (None: the default)."""
        if self.parts is not None:
            self.parts.set_working_message(message)

    def set_working_visible(self, visible: bool) -> None:
        """Show or hide the working row."""
        if self.parts is not None:
            self.parts.set_working_visible(visible)

    def set_working_indicator(self, frames: list[str] | None, interval_ms: int | None) -> None:
        """The working spinner's frames (None: the default)."""
        if self.parts is not None:
            self.parts.set_working_indicator(frames, interval_ms)

    def set_tools_expanded(self, expanded: bool) -> None:
        """Expand or collapse tool output."""
        if self.parts is not None:
            self.parts.set_tools_expanded(expanded)

    def get_tools_expanded(self) -> bool:
        """Whether tool output is expanded."""
        return self.parts.get_tools_expanded() if self.parts is not None else False

    def paste_to_editor(self, text: str) -> None:
        """Paste ``text`` into the editor."""
        if self.parts is not None:
            self.parts.paste_to_editor(text)

    # ---------------------------------------------------------------- components and themes (extension_components.py)

    async def custom(self, spec: Any, *, overlay: bool = False) -> Any:
        """An extension's component as a modal until it calls ``done(value)``; returns ``value``."""
        if self.components is None:
            return None
        return await self.components.custom(self._show, spec, overlay)

    def set_editor_component(self, spec: Any) -> None:
        """An extension's editor component in front of the editor (None: the built-in editor alone)."""
        if self.components is not None:
            self.components.set_editor_component(spec)

    def add_autocomplete_provider(self, spec: Any) -> None:
        """Stack an extension's completion provider on the editor's."""
        if self.components is not None:
            self.components.add_autocomplete_provider(spec)

    def clear_autocomplete_providers(self) -> None:
        """Only the built-in completion again."""
        if self.components is not None:
            self.components.clear_autocomplete_providers()

    def current_theme(self) -> Any:
        """The current theme's ANSI helpers (``ctx.ui.theme``)."""
        return self.components.current_theme() if self.components is not None else None

    def get_all_themes(self) -> list[dict[str, Any]]:
        """Every theme ``/theme`` offers."""
        return self.components.get_all_themes() if self.components is not None else []

    def get_theme(self, name: str) -> Any:
        """One theme without switching (None when unknown)."""
        return self.components.get_theme(name) if self.components is not None else None

    def set_theme(self, theme: Any) -> dict[str, Any]:
        """Switch theme; ``{"success": ...}``."""
        if self.components is None:
            return {"success": False, "error": "UI not available"}
        return self.components.set_theme(theme)

    def set_extension_themes(self, paths: Sequence[str]) -> None:
        """Themes offered by extensions (``resources_discover``)."""
        if self.components is not None:
            self.components.set_extension_themes(paths)
