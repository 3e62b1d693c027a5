"""``mcp.json``: MCP server entries from the user and project files (pi 1.x docs/mcp.md "Configure servers").

Files: ``<agent dir>/mcp.json`` (user; agent dir = ``$PI_TUI_DIR`` or ``~/.pi-tui/agent``) and
``<cwd>/.pi-tui/mcp.json`` (project, read only when the project is trusted). Both hold
``{"mcpServers": {NAME: ENTRY}}``; ENTRY is ``{command, args?, env?, cwd?}`` (stdio) or ``{url, headers?}``
(streamable HTTP), plus ``type?`` (``stdio`` | ``http`` | ``streamable-http``; ``sse`` is rejected),
``enabled?`` (default true), ``timeout?`` (seconds per request, default 60) and ``description?``.

Rules (pi): a server name has only letters, digits, ``_`` and ``-``; names that differ only in ``-``/``_`` are
the same server (a second one in a file is rejected). A project entry replaces the user entry of that name; a
project entry without ``command``/``url``/``type`` only overrides ``enabled``/``timeout`` of the user entry.
``${VAR}`` in ``env`` and ``headers`` values expands from the environment (unset: empty, reported); a leading
``~/`` in ``command``, an argument or ``cwd`` names the home directory; a relative ``cwd`` resolves against the
session directory. Invalid entries are reported in :attr:`McpConfigLoad.errors` and skipped; the others load.

An HTTP entry may have an ``oauth`` block (pi 1.x docs/mcp.md "Authenticate with OAuth"), :class:`McpOAuthConfig`:
``clientId``/``clientSecret`` (a client registered with the authorization server beforehand; the secret may use
``${VAR}``), ``scope`` (space-separated, for servers that advertise none), ``callbackPort`` / ``callbackUrl``
(the redirect URI, HTTP on ``localhost``, ``127.0.0.1`` or ``[::1]``) and ``clientName`` (the name sent when
registering). ``clientRegistration`` and ``authServerMetadataUrl`` are reported as not supported and ignored.

Expanded ``env`` and ``headers`` values are registered with :mod:`pi_tui.ai.secret_redaction`, so a token that
ends up in a tool result or error text is redacted from session files, logs and exports.
Not supported (pi 1.x has them): ``!command`` values, ``exposure``/``toolExposure``.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pi_tui.ai.secret_redaction import register_secret
from pi_tui.coding.config.jsonc import loads_jsonc
from pi_tui.coding.config.paths import APP_DIR_NAME, get_agent_dir
from pi_tui.coding.config.settings import write_json_atomic

DEFAULT_TIMEOUT_S = 60.0
"""Per-request timeout in seconds when an entry has none (pi docs/mcp.md)."""
MCP_FILE_NAME = "mcp.json"
SERVER_NAME_RE = re.compile(r"^[A-Za-z0-9_-]+$")
_VAR_RE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_KNOWN_TYPES = ("stdio", "http", "streamable-http")

Transport = Literal["stdio", "http"]
Source = Literal["user", "project", "client"]
"""Where an entry came from: ``mcp.json`` of the user or project, or the editor (ACP ``session/new``)."""


@dataclass(frozen=True)
class McpOAuthConfig:
    """The ``oauth`` block of an HTTP entry (module docstring); every field optional.

    ``callback_url`` is the redirect URI as written (None: ``http://127.0.0.1:<callback_port or a free
    port>/callback``); ``client_secret`` is already ``${VAR}``-expanded and registered as a secret.
    """

    client_id: str | None = None
    client_secret: str | None = None
    client_name: str | None = None
    scope: str | None = None
    callback_port: int | None = None
    callback_url: str | None = None


@dataclass(frozen=True)
class McpServerConfig:
    """One usable server entry, ``${VAR}`` and ``~`` already expanded.

    ``transport`` is ``"stdio"`` (``command``/``args``/``env``/``cwd``) or ``"http"`` (``url``/``headers``).
    ``timeout`` is seconds per request. ``source``/``path`` name the file that defined the entry.
    """

    name: str
    transport: Transport
    command: str | None = None
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    url: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    enabled: bool = True
    timeout: float = DEFAULT_TIMEOUT_S
    description: str | None = None
    source: Source = "user"
    path: Path | None = None
    oauth: McpOAuthConfig | None = None

    def summary(self) -> str:
        """``command arg…`` or the URL, for listings (no env or header values: they may be secrets)."""
        if self.transport == "http":
            return self.url or ""
        return " ".join([self.command or "", *self.args]).strip()


@dataclass
class McpConfigLoad:
    """Result of :func:`load_mcp_config`: usable servers by name (file order, user first) and error lines."""

    servers: dict[str, McpServerConfig] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)


def user_mcp_path(agent_dir: Path | None = None) -> Path:
    """``<agent dir>/mcp.json``."""
    return (agent_dir or get_agent_dir()) / MCP_FILE_NAME


def project_mcp_path(cwd: str | os.PathLike[str]) -> Path:
    """``<cwd>/.pi-tui/mcp.json``."""
    return Path(cwd) / APP_DIR_NAME / MCP_FILE_NAME


def canonical_name(name: str) -> str:
    """The identity of a server name: ``-`` and ``_`` count as the same (pi docs/mcp.md "Configuration rules")."""
    return name.replace("-", "_")


def expand_vars(value: str, env: Mapping[str, str], missing: list[str] | None = None) -> str:
    """Replace each ``${NAME}`` with ``env[NAME]`` (unset → ``""``, its name appended to ``missing``)."""

    def sub(match: re.Match[str]) -> str:
        var = match.group(1)
        if var not in env:
            if missing is not None:
                missing.append(var)
            return ""
        return env[var]

    return _VAR_RE.sub(sub, value)


def _home(value: str) -> str:
    return os.path.expanduser(value) if value.startswith("~/") or value == "~" else value


def read_mcp_file(path: Path) -> tuple[dict[str, Any], str | None]:
    """The ``mcpServers`` object of one file (``{}`` if the file is missing) and an error line if unreadable."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}, None
    except OSError as exc:
        return {}, f"{path}: cannot read: {exc.strerror or exc}"
    if not text.strip():
        return {}, None
    try:
        data = loads_jsonc(text)
    except ValueError as exc:
        return {}, f"{path}: invalid JSON: {exc}"
    if not isinstance(data, dict):
        return {}, f"{path}: expected a JSON object"
    servers = data.get("mcpServers", {})
    if not isinstance(servers, dict):
        return {}, f"{path}: mcpServers must be an object"
    return servers, None


def _str_map(raw: Any, what: str, errors: list[str], env: Mapping[str, str], prefix: str) -> dict[str, str] | None:
    if raw is None:
        return {}
    if not isinstance(raw, dict) or not all(isinstance(v, str | int | float) for v in raw.values()):
        errors.append(f"{prefix}: {what} must be an object of strings")
        return None
    out: dict[str, str] = {}
    for key, value in raw.items():
        missing: list[str] = []
        expanded = expand_vars(str(value), env, missing)
        for var in missing:
            errors.append(f"{prefix}: {what}.{key} uses ${{{var}}}, which is not set")
        register_secret(expanded)
        out[str(key)] = expanded
    return out


def parse_entry(
    name: str,
    raw: Any,
    *,
    source: Source,
    path: Path | None,
    cwd: str,
    env: Mapping[str, str],
    errors: list[str],
) -> McpServerConfig | None:
    """Validate and expand one entry; on a problem append ``"<file>: <name>: <reason>"`` to ``errors`` and
    return None (a missing ``${VAR}`` is reported but does not reject the entry)."""
    prefix = f"{path}: {name}" if path else name
    if not SERVER_NAME_RE.match(name):
        errors.append(f"{prefix}: server names may contain only letters, digits, _ and -")
        return None
    if not isinstance(raw, dict):
        errors.append(f"{prefix}: entry must be an object")
        return None
    kind = raw.get("type")
    if kind == "sse":
        errors.append(f"{prefix}: the SSE transport is not supported; use the server's streamable HTTP endpoint")
        return None
    if kind is not None and kind not in _KNOWN_TYPES:
        errors.append(f"{prefix}: type must be stdio, http or streamable-http, not {kind!r}")
        return None
    enabled = raw.get("enabled", True)
    if not isinstance(enabled, bool):
        errors.append(f"{prefix}: enabled must be true or false")
        return None
    timeout = raw.get("timeout", DEFAULT_TIMEOUT_S)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0:
        errors.append(f"{prefix}: timeout must be a positive number of seconds")
        return None
    description = raw.get("description")
    description = description if isinstance(description, str) and description.strip() else None
    command, url = raw.get("command"), raw.get("url")
    if command is not None and url is not None:
        errors.append(f"{prefix}: give either command or url, not both")
        return None
    transport: Transport = "http" if (url is not None or kind in ("http", "streamable-http")) else "stdio"
    common: dict[str, Any] = {
        "name": name, "enabled": enabled, "timeout": float(timeout), "description": description,
        "source": source, "path": path,
    }
    if transport == "http":
        if not isinstance(url, str) or not re.match(r"^https?://", url):
            errors.append(f"{prefix}: url must be an http:// or https:// URL")
            return None
        headers = _str_map(raw.get("headers"), "headers", errors, env, prefix)
        if headers is None:
            return None
        oauth = None
        if raw.get("oauth") is not None:
            from pi_tui.coding.mcp.oauth_config import parse_oauth

            oauth = parse_oauth(raw["oauth"], f"{prefix}: oauth", errors, env)
            if oauth is None:
                return None
        return McpServerConfig(transport="http", url=url, headers=headers, oauth=oauth, **common)
    if not isinstance(command, str) or not command.strip():
        errors.append(f"{prefix}: needs a command (stdio) or a url (streamable HTTP)")
        return None
    if raw.get("oauth") is not None:
        errors.append(f"{prefix}: oauth applies to HTTP servers only; ignored")
    args = raw.get("args", [])
    if not isinstance(args, list) or not all(isinstance(a, str | int | float) for a in args):
        errors.append(f"{prefix}: args must be a list of strings")
        return None
    server_env = _str_map(raw.get("env"), "env", errors, env, prefix)
    if server_env is None:
        return None
    server_cwd = raw.get("cwd")
    if server_cwd is not None and not isinstance(server_cwd, str):
        errors.append(f"{prefix}: cwd must be a string")
        return None
    resolved_cwd = None
    if server_cwd:
        resolved_cwd = str(Path(cwd) / _home(server_cwd))
    return McpServerConfig(
        transport="stdio",
        command=_home(command),
        args=tuple(_home(str(a)) for a in args),
        env=server_env,
        cwd=resolved_cwd,
        **common,
    )


def _is_override_only(raw: Any) -> bool:
    return isinstance(raw, dict) and not any(k in raw for k in ("command", "url", "type"))


def load_mcp_config(
    cwd: str,
    *,
    project_trusted: bool,
    agent_dir: Path | None = None,
    env: Mapping[str, str] | None = None,
) -> McpConfigLoad:
    """Merge the user file and (when ``project_trusted``) the project file into usable servers.

    Never raises for bad files or entries: they become lines in ``errors``. The project file of an untrusted
    project is not read at all (pi docs/security.md).
    """
    environ = os.environ if env is None else env
    result = McpConfigLoad()
    files: list[tuple[Source, Path]] = [("user", user_mcp_path(agent_dir))]
    if project_trusted:
        files.append(("project", project_mcp_path(cwd)))
    by_canonical: dict[str, str] = {}
    for source, path in files:
        raw_servers, error = read_mcp_file(path)
        if error:
            result.errors.append(error)
            continue
        seen_here: set[str] = set()
        for name, raw in raw_servers.items():
            key = canonical_name(str(name))
            if key in seen_here:
                result.errors.append(f"{path}: {name}: same server as another entry in this file (- and _ match)")
                continue
            seen_here.add(key)
            existing = by_canonical.get(key)
            if source == "project" and existing is not None and _is_override_only(raw):
                base = result.servers[existing]
                try:
                    enabled = raw.get("enabled", base.enabled)
                    timeout = float(raw.get("timeout", base.timeout))
                    if not isinstance(enabled, bool) or timeout <= 0:
                        raise ValueError
                except (TypeError, ValueError):
                    result.errors.append(f"{path}: {name}: enabled must be true/false and timeout a positive number")
                    continue
                result.servers[existing] = _replace(base, enabled=enabled, timeout=timeout, source="project", path=path)
                continue
            entry = parse_entry(str(name), raw, source=source, path=path, cwd=cwd, env=environ, errors=result.errors)
            if entry is None:
                continue
            if existing is not None:
                del result.servers[existing]
            by_canonical[key] = entry.name
            result.servers[entry.name] = entry
    return result


def _replace(config: McpServerConfig, **changes: Any) -> McpServerConfig:
    import dataclasses

    return dataclasses.replace(config, **changes)


# ---------------------------------------------------------------- writing (``pi-tui mcp add/remove``)


def _load_for_write(path: Path) -> dict[str, Any]:
    """The whole file as an object (missing → ``{}``); raises ValueError for a file that cannot be parsed, so
    a broken file is never overwritten."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    if not text.strip():
        return {}
    data = loads_jsonc(text)
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a JSON object")
    servers = data.get("mcpServers")
    if servers is not None and not isinstance(servers, dict):
        raise ValueError(f"{path}: mcpServers must be an object")
    return data


def add_server_entry(path: Path, name: str, entry: dict[str, Any], *, replace: bool = True) -> bool:
    """Write ``entry`` as ``mcpServers[name]`` in ``path``, keeping every other key; returns True when it
    replaced an entry of the same (canonical) name. Written atomically with mode 0600 (entries may hold
    tokens). Raises ValueError for an invalid name, an unparsable file, or (``replace=False``) a name that is
    there already (the file is not touched); OSError when it cannot write."""
    if not SERVER_NAME_RE.match(name):
        raise ValueError("server names may contain only letters, digits, _ and -")
    data = _load_for_write(path)
    servers: dict[str, Any] = dict(data.get("mcpServers") or {})
    replaced = [key for key in servers if canonical_name(key) == canonical_name(name)]
    if replaced and not replace:
        raise ValueError(f"an MCP server named {replaced[0]} is there already (add --force to replace it, "
                         f"or pi-tui mcp remove {replaced[0]})")
    for key in replaced:
        del servers[key]
    servers[name] = entry
    data["mcpServers"] = servers
    write_json_atomic(path, data, mode=0o600)
    return bool(replaced)


def remove_server_entry(path: Path, name: str) -> bool:
    """Delete ``mcpServers[name]`` (canonical match) from ``path``; False when there was none."""
    data = _load_for_write(path)
    servers: dict[str, Any] = dict(data.get("mcpServers") or {})
    matches = [key for key in servers if canonical_name(key) == canonical_name(name)]
    if not matches:
        return False
    for key in matches:
        del servers[key]
    data["mcpServers"] = servers
    write_json_atomic(path, data, mode=0o600)
    return True


def dumps_entry(entry: dict[str, Any]) -> str:
    """Compact JSON of an entry (for messages)."""
    return json.dumps(entry, ensure_ascii=False)
