"""MCP servers an ACP client passes in ``session/new`` / ``session/load`` (ACP "Session Setup": ``mcpServers``).

Editors such as Zed hand the agent the MCP servers their user configured, as stdio (``command``, ``args``,
``env`` as ``[{name, value}]``) or HTTP (``url``, ``headers`` as ``[{name, value}]``) entries. pi-tui connects
them like the servers of its own ``mcp.json`` (source ``client``, listed in RPC ``get_state`` and ``/mcp``): a
client server replaces a configured one of the same name for that session. SSE servers are refused
(``mcpCapabilities.sse`` is false, and pi-tui's MCP client has no SSE transport); a name that is not a valid
server name is made one (``My Server`` → ``My-Server``). Values are taken as given: no ``${VAR}`` expansion.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from pi_tui.coding.mcp.config import DEFAULT_TIMEOUT_S, SERVER_NAME_RE, McpServerConfig


def _pairs(items: Any) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items or []:
        name = getattr(item, "name", None)
        if name is None and isinstance(item, dict):
            name = item.get("name")
        value = getattr(item, "value", None)
        if value is None and isinstance(item, dict):
            value = item.get("value")
        if isinstance(name, str) and name and isinstance(value, str):
            out[name] = value
    return out


def _field(server: Any, name: str) -> Any:
    return server.get(name) if isinstance(server, dict) else getattr(server, name, None)


def server_name(raw: str) -> str:
    """A valid pi-tui server name for ``raw`` (letters, digits, ``_`` and ``-``; others become ``-``)."""
    name = re.sub(r"[^A-Za-z0-9_-]+", "-", raw.strip()).strip("-")
    return name if name and SERVER_NAME_RE.match(name) else "client-server"


def client_servers(servers: Sequence[Any] | None) -> tuple[list[McpServerConfig], list[str]]:
    """``(configs, problems)`` for the ACP ``mcpServers`` list (SDK models or plain dicts).

    ``problems`` has one sentence for each entry that cannot be used (SSE, no command or URL, a URL that is not
    http(s), a name given twice); the others become :class:`McpServerConfig` with ``source="client"``."""
    configs: list[McpServerConfig] = []
    problems: list[str] = []
    seen: set[str] = set()
    for server in servers or []:
        raw_name = str(_field(server, "name") or "")
        name = server_name(raw_name)
        kind = _field(server, "type")
        if name in seen:
            problems.append(f"MCP server {raw_name!r} from the client: a second server of that name is ignored")
            continue
        if kind == "sse":
            problems.append(f"MCP server {raw_name!r} from the client uses SSE, which pi-tui does not support; "
                            "give it the server's streamable HTTP endpoint")
            continue
        url, command = _field(server, "url"), _field(server, "command")
        if kind == "http" or (url and not command):
            if not isinstance(url, str) or not re.match(r"^https?://", url):
                problems.append(f"MCP server {raw_name!r} from the client: url must be http:// or https://")
                continue
            configs.append(McpServerConfig(name=name, transport="http", url=url, headers=_pairs(_field(server, "headers")),
                                           timeout=DEFAULT_TIMEOUT_S, source="client"))
        elif isinstance(command, str) and command.strip():
            args = tuple(str(a) for a in (_field(server, "args") or []))
            configs.append(McpServerConfig(name=name, transport="stdio", command=command, args=args,
                                           env=_pairs(_field(server, "env")), timeout=DEFAULT_TIMEOUT_S,
                                           source="client"))
        else:
            problems.append(f"MCP server {raw_name!r} from the client has neither a command nor a url")
            continue
        seen.add(name)
    return configs, problems


def connect_client_servers(session: Any, servers: Sequence[Any] | None) -> list[str]:
    """Add the client's servers to ``session.mcp`` and start the session's MCP servers (its ``mcp.json`` ones
    too). Returns the problems (for stderr). A session with MCP off (``--no-mcp``) connects nothing and says so."""
    configs, problems = client_servers(servers)
    link = getattr(session, "mcp", None)
    if link is None:
        return problems
    if configs and not link.enabled:
        names = ", ".join(c.name for c in configs)
        return [*problems, f"MCP is off (--no-mcp or --no-tools): the client's servers are not connected: {names}"]
    for config in configs:
        link.manager.add_server(config)
    link.start()
    return problems
