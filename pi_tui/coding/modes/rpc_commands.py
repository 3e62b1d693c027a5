"""RPC ``get_commands``: the session's registered commands in pi's shape (pi 0.73.1 ``modes/rpc``; docs/rpc.md).

pi lists the commands a client can run with ``prompt`` by prefixing ``/``: extension commands, then prompt
templates, then skills (``skill:NAME``), each ``{"name", "description", "source", "sourceInfo"}`` with
``source`` one of ``"extension"``, ``"prompt"``, ``"skill"``. The built-in interactive commands (``/model``,
``/hotkeys``, ...) are left out: they only run in the TUI. pi-tui's registry (``CommandRegistry``) names
templates ``"template"`` (sent as pi's ``"prompt"``) and also holds MCP prompts (``"mcp"``, listed last, a
pi-tui addition). ``sourceInfo`` carries ``path`` (the owner the command was registered with: the extension,
template or skill file, the MCP server); pi's ``scope``/``origin`` are not known to the registry
(DIFFERENCES.md D21).
"""

from __future__ import annotations

from typing import Any

from pi_tui.coding.extensions.registries import CommandRegistry

RPC_SOURCES = {"extension": "extension", "template": "prompt", "skill": "skill", "mcp": "mcp"}
"""Registry source -> the ``source`` sent, in the order pi lists them."""


def rpc_commands(registry: CommandRegistry | None) -> list[dict[str, Any]]:
    """``get_commands``' ``commands`` list for ``registry`` (empty without one); see the module docstring."""
    if registry is None:
        return []
    specs = registry.all()
    out: list[dict[str, Any]] = []
    for source, sent in RPC_SOURCES.items():
        for spec in specs:
            if spec.source == source:
                out.append({"name": spec.name, "description": spec.description, "source": sent,
                            "sourceInfo": {"path": spec.owner}})
    return out
