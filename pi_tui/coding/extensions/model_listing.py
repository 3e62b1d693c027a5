"""``--list-models`` with extensions loaded (pi 0.73 main.ts lists models after its runtime, with the
extensions, is created): models an extension adds with ``pi.register_provider`` are listed too.

A throw-away session is built (no session file, no MCP servers, no settings written), its extensions are
loaded (``activate``; no ``session_start``: pi lists before any mode starts) with the no-UI defaults, and the
models with auth are read from its model registry. An extension that fails to load is one
``Extension error: ...`` line on stderr and the listing goes on. The built-in offline demo model is not listed
(it is only a stand-in when nothing is configured).
"""

from __future__ import annotations

import asyncio
from typing import Any

from pi_tui.coding.extensions.modes import print_error, quiet_runner_log


def _matches(search: str | None, label: str, name: str) -> bool:
    if not search:
        return True
    needle = search.lower()
    return needle in label.lower() or needle in name.lower()


async def _rows(options: dict[str, Any], search: str | None) -> list[tuple[str, str]]:
    from pi_tui.coding.agent_session.factory import create_agent_session
    from pi_tui.coding.extensions.setup import load_extensions
    from pi_tui.coding.offline_model import OFFLINE_PROVIDER

    session = create_agent_session(**{**options, "no_session": True, "no_mcp": True, "persist_settings": False})
    hooks = getattr(session, "extensions", None)
    try:
        if hooks is not None:
            hooks.runtime.error_listeners.append(print_error)
            quiet_runner_log()  # each error once, as print mode
            await load_extensions(hooks)
        rows = []
        for model in session.models.available_models():  # models with auth (a key, or none needed)
            label = f"{model.provider}/{model.id}"
            if model.provider == OFFLINE_PROVIDER:
                continue
            if _matches(search, label, model.name):
                rows.append((label, model.name))
        return rows
    finally:
        if hooks is not None:
            hooks.runtime.unload_all()  # their modules are forgotten (tests call main() in one process)


def list_models_with_extensions(options: dict[str, Any], search: str | None = None) -> list[tuple[str, str]]:
    """``(provider/id, name)`` rows of the models with auth, extensions' providers included, filtered by
    ``search`` (a case-insensitive substring of ``provider/id`` or the name). ``options``: the CLI's
    ``create_agent_session`` keyword arguments (``-e``, ``--no-extensions``, ``--api-key`` ... apply).
    Raises what ``create_agent_session`` raises for an unusable configuration."""
    return asyncio.run(_rows(options, search))
