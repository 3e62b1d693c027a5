"""The component calls of ``ctx.ui`` in the TUI, for :class:`~pi_tui.tui.extension_ui.TextualExtensionUI`:
``custom`` (``extension_custom.py``), ``set_editor_component`` (``extension_editor.py``),
``add_autocomplete_provider`` (``extension_completion.py``) and theme management (``extension_themes.py``).
Contracts: ``pi_tui/coding/extensions/ui_components.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pi_tui.coding.extensions.ui_slots import SlotSpec
from pi_tui.tui.extension_completion import ProviderStack
from pi_tui.tui.extension_custom import CustomComponentScreen
from pi_tui.tui.extension_editor import EditorComponentHost
from pi_tui.tui.extension_themes import ExtensionThemes, NamedTheme
from pi_tui.tui.widgets.extension_slot import ExtensionTheme

if TYPE_CHECKING:
    from pi_tui.tui.controllers.host import AppHost


class ExtensionComponents:
    """Components and themes of ``host`` (module docstring)."""

    def __init__(self, host: AppHost) -> None:
        self.host = host
        self.theme_view = ExtensionTheme(lambda: host.pi_theme)
        self.editor = EditorComponentHost(lambda: host.prompt_input, self.theme_view, lambda: host.keymap)
        self.themes = ExtensionThemes(host)
        self._providers: ProviderStack | None = None

    @property
    def providers(self) -> ProviderStack:
        """The editor completion's provider stack (made the first time)."""
        completion = self.host.prompt_input.completion
        if self._providers is None:
            self._providers = ProviderStack(completion)  # type: ignore[arg-type]
        if completion is not None and completion.providers is not self._providers:
            completion.providers = self._providers
        return self._providers

    async def custom(self, show: Any, spec: SlotSpec, overlay: bool) -> Any:
        """``ctx.ui.custom``: the component's screen until ``done(value)``; ``show(screen, default)`` pushes
        and awaits it (``TextualExtensionUI._show``)."""
        screen = CustomComponentScreen(spec, self.theme_view, self.host.keymap, overlay=overlay)
        return await show(screen, None)

    def set_editor_component(self, spec: SlotSpec | None) -> None:
        """``ctx.ui.set_editor_component``."""
        self.editor.set_spec(spec)

    def add_autocomplete_provider(self, spec: SlotSpec) -> None:
        """``ctx.ui.add_autocomplete_provider``."""
        self.providers.add(spec)

    def clear_autocomplete_providers(self) -> None:
        """The extensions unloaded: only the built-in completion."""
        if self._providers is not None:
            self._providers.clear()

    def current_theme(self) -> NamedTheme:
        """``ctx.ui.theme``."""
        return self.themes.current()

    def get_all_themes(self) -> list[dict[str, Any]]:
        """``ctx.ui.get_all_themes()``."""
        return self.themes.get_all()

    def get_theme(self, name: str) -> NamedTheme | None:
        """``ctx.ui.get_theme(name)``."""
        return self.themes.get(name)

    def set_theme(self, theme: Any) -> dict[str, Any]:
        """``ctx.ui.set_theme(name or theme)``."""
        return self.themes.set(theme)

    def set_extension_themes(self, paths: Sequence[str]) -> None:
        """The ``theme_paths`` of ``resources_discover``."""
        self.themes.offer(paths)
