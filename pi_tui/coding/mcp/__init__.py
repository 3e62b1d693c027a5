"""MCP client (issue 13; pi 1.x docs/mcp.md): ``mcp.json`` config, server connections with the official ``mcp``
SDK, server tools as agent tools, prompts as slash commands, and the ``pi-tui mcp`` subcommand. No Textual here.

Modules: :mod:`.config` (files, merge, ``${VAR}``), :mod:`.connection` (one server), :mod:`.manager` (all servers
of a session), :mod:`.tools` (agent tools), :mod:`.content` (result blocks), :mod:`.names` (tool names),
:mod:`.cli` (``pi-tui mcp``).
"""
