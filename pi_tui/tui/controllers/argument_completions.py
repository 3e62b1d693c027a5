"""Argument completions of the built-in commands, shown by the editor's completion list after ``/name ``
(pi 0.73.1 ``createBaseAutocompleteProvider``: ``/model`` completes ``provider/id``; pi-tui adds ``/theme``).

Each is ``complete(prefix) -> list[dict] | None`` in pi's ``AutocompleteItem`` shape (``value``, ``label``,
``description``), registered on the built-in's ``CommandSpec.get_argument_completions``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pi_tui.coding.fuzzy import fuzzy_filter
from pi_tui.tui.controllers.host import AppHost
from pi_tui.tui.theme_loader import available_themes

Completer = Callable[[str], list[dict[str, str]] | None]


def builtin_argument_completions(host: AppHost) -> dict[str, Completer]:
    """The completers by built-in command name."""

    def model(prefix: str) -> list[dict[str, str]] | None:
        """pi's: the available models as ``provider/id`` (shown by id, the provider beside it), fuzzy matched
        on ``"id provider"``."""
        session = host.session
        models = list(session.available_models()) if session is not None else []
        items = [{"value": f"{m.provider}/{m.id}", "label": m.id, "description": m.provider, "text": f"{m.id} "
                  f"{m.provider}"} for m in models]
        found = fuzzy_filter(items, prefix, lambda item: item["text"])
        return [{k: v for k, v in item.items() if k != "text"} for item in found] or None

    def theme(prefix: str) -> list[dict[str, str]] | None:
        names = available_themes(Path(host.cwd))
        current = host.pi_theme.name
        found = fuzzy_filter(names, prefix, str)
        return [{"value": n, "label": n, "description": "current" if n == current else ""} for n in found] or None

    return {"model": model, "theme": theme}
