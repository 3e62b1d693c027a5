"""Theme management for extensions in the TUI (pi 0.73 docs/extensions.md: ``ctx.ui.theme``, ``getAllThemes``,
``getTheme``, ``setTheme``; themes from ``resources_discover``'s ``themePaths``).

* ``theme``: the current theme as ANSI helpers (:class:`~pi_tui.tui.widgets.extension_slot.ExtensionTheme`,
  with its ``name``); it follows ``/theme``.
* ``get_all_themes()``: ``[{"name", "path"}]`` of every theme ``/theme`` offers (``path`` None for the ones
  shipped with pi-tui), extensions' included.
* ``get_theme(name)``: that theme without switching (None when unknown or invalid).
* ``set_theme(name)``: switches as ``/theme name`` does (Textual theme, Rich styles, every widget) and saves
  it as the ``theme`` setting, except a theme an extension supplied (it is not there at the next start before
  the extension loads); ``set_theme(theme)`` with an object from ``get_theme`` switches without saving (pi's
  ``setThemeInstance``). Returns ``{"success": True}`` or ``{"success": False, "error"}``.
* ``set_extension_themes(paths)``: the ``theme_paths`` offered (``*.json`` files, or folders of them; a path
  that is neither is skipped); ``[]`` when the extensions unload (a theme on screen stays until another is
  chosen: ``/reload`` offers it again at once).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pi_tui.coding.extensions.ui_components import theme_result
from pi_tui.tui.theme_loader import (
    BUILTIN_DIR,
    EXTENSION_THEMES,
    PiTheme,
    ThemeError,
    available_themes,
    find_theme,
    set_extension_themes,
)
from pi_tui.tui.widgets.extension_slot import ExtensionTheme


class NamedTheme(ExtensionTheme):
    """An :class:`ExtensionTheme` of one theme, with its ``name`` and ``path`` (``get_theme``'s result)."""

    def __init__(self, theme: Callable[[], PiTheme]) -> None:
        super().__init__(theme)
        self._get = theme

    @property
    def name(self) -> str:
        """The theme's name."""
        return self._get().name

    @property
    def path(self) -> str | None:
        """The theme file (None for the shipped themes)."""
        path = self._get().path
        return None if path is None or path.parent == BUILTIN_DIR else str(path)


def theme_files(paths: Sequence[str]) -> dict[str, Path]:
    """Theme name (file stem) -> file, for ``*.json`` files and folders of them in ``paths``."""
    found: dict[str, Path] = {}
    for raw in paths:
        path = Path(raw).expanduser()
        files = sorted(path.glob("*.json")) if path.is_dir() else [path] if path.suffix == ".json" and path.is_file() else []
        for file in files:
            found.setdefault(file.stem, file)
    return found


class ExtensionThemes:
    """The theme calls of :class:`~pi_tui.tui.extension_ui.TextualExtensionUI` over ``app`` (an object with
    ``pi_theme``, ``cwd`` and ``set_pi_theme(name, save=...)``)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def _cwd(self) -> Path | None:
        cwd = getattr(self.app, "cwd", None)
        return Path(cwd) if cwd else None

    def current(self) -> NamedTheme:
        """``ctx.ui.theme``."""
        return NamedTheme(lambda: self.app.pi_theme)

    def get_all(self) -> list[dict[str, Any]]:
        """``ctx.ui.get_all_themes()``."""
        rows = []
        for name in available_themes(self._cwd()):
            theme = self.get(name)
            rows.append({"name": name, "path": theme.path if theme is not None else None})
        return rows

    def get(self, name: str) -> NamedTheme | None:
        """``ctx.ui.get_theme(name)``."""
        try:
            theme = find_theme(str(name), self._cwd())
        except ThemeError:
            return None
        return NamedTheme(lambda: theme)

    def set(self, theme: Any) -> dict[str, Any]:
        """``ctx.ui.set_theme(name or theme)``."""
        if isinstance(theme, NamedTheme):
            name, save = theme.path or theme.name, False
        elif isinstance(theme, str):
            name, save = theme, theme not in EXTENSION_THEMES
        else:
            return theme_result(f"set_theme needs a theme name or a theme from get_theme, not {type(theme).__name__}")
        try:
            self.app.set_pi_theme(name, save=save)
        except ThemeError as exc:
            return theme_result(str(exc))
        return theme_result()

    def offer(self, paths: Sequence[str]) -> None:
        """``set_extension_themes``: the offered theme files from now on (module docstring)."""
        set_extension_themes(theme_files(paths))
