"""``pi-tui mcp add|list|remove`` (pi 1.x docs/mcp.md "Quick setup", cli.md "MCP commands").

- ``pi-tui mcp add NAME [-l|--local] [--env K=V]... [--timeout S] -- COMMAND [ARGS...]``: a stdio server;
- ``pi-tui mcp add NAME [-l] --url URL [--header K=V]... [--timeout S]``: a streamable HTTP server;
- ``pi-tui mcp list``: connects to every enabled server and prints its state, tool count and error;
  exits 1 when an entry is invalid or an enabled server is not connected (pi); the project file counts
  only in a trusted project;
- ``pi-tui mcp remove NAME [-l]``;
- ``pi-tui mcp login NAME``: OAuth sign-in for a streamable HTTP server (:mod:`pi_tui.coding.mcp.oauth`: the
  authorization URL is printed and opened in the browser, the tokens stored in ``<agent dir>/mcp-auth.json``);
  ``pi-tui mcp logout NAME`` deletes them.

Without ``--local`` the user file ``<agent dir>/mcp.json`` is written; with it ``<cwd>/.pi-tui/mcp.json``.
Values are stored as given, so ``--header 'Authorization=Bearer ${TOKEN}'`` keeps the variable, not the token.
Exit codes: 0 ok, 1 failure, 2 bad arguments.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import urllib.parse
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from pi_tui.coding.mcp.config import (
    SERVER_NAME_RE,
    McpConfigLoad,
    add_server_entry,
    load_mcp_config,
    project_mcp_path,
    remove_server_entry,
    user_mcp_path,
)

USAGE = """pi-tui mcp add NAME [-l] [--force] [--env K=V]... [--timeout S] -- COMMAND [ARGS...]
       pi-tui mcp add NAME [-l] --url URL [--header K=V]... [--timeout S]
       pi-tui mcp list
       pi-tui mcp remove NAME [-l]
       pi-tui mcp login NAME | pi-tui mcp logout NAME"""

ProjectTrust = Callable[[str], bool]


def _pairs(values: Sequence[str], what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise SystemExit(f"Error: {what} must be KEY=VALUE, got {item!r}")
        out[key.strip()] = value
    return out


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pi-tui mcp", usage=USAGE, add_help=True)
    sub = parser.add_subparsers(dest="action", required=True)
    add = sub.add_parser("add", usage=USAGE)
    add.add_argument("name")
    add.add_argument("-l", "--local", action="store_true", help="write the project file .pi-tui/mcp.json")
    add.add_argument("--url", help="streamable HTTP endpoint")
    add.add_argument("--header", action="append", default=[], help="HTTP header K=V (repeatable)")
    add.add_argument("--env", action="append", default=[], help="environment variable K=V (repeatable)")
    add.add_argument("--timeout", type=float, help="seconds per request (default 60)")
    add.add_argument("--force", action="store_true", help="replace a server of the same name")
    sub.add_parser("list", usage=USAGE)
    remove = sub.add_parser("remove", usage=USAGE)
    remove.add_argument("name")
    remove.add_argument("-l", "--local", action="store_true", help="the project file .pi-tui/mcp.json")
    for action in ("login", "logout"):
        sub.add_parser(action, usage=USAGE).add_argument("name")
    return parser


def _target(local: bool, cwd: str, agent_dir: Path | None) -> Path:
    return project_mcp_path(cwd) if local else user_mcp_path(agent_dir)


def _add(ns: argparse.Namespace, command: list[str], cwd: str, agent_dir: Path | None, out: TextIO) -> int:
    if not SERVER_NAME_RE.match(ns.name):
        print("Error: server names may contain only letters, digits, _ and -", file=sys.stderr)
        return 2
    if bool(ns.url) == bool(command):
        print("Error: give either --url URL or -- COMMAND [ARGS...]\n" + USAGE, file=sys.stderr)
        return 2
    entry: dict[str, Any]
    if ns.url:
        if ns.env:
            print("Error: --env is for stdio servers; use --header for --url", file=sys.stderr)
            return 2
        parsed = urllib.parse.urlparse(ns.url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            print(f"Error: --url must be an http:// or https:// URL, got {ns.url!r}", file=sys.stderr)
            return 2
        entry = {"url": ns.url}
        if ns.header:
            entry["headers"] = _pairs(ns.header, "--header")
    else:
        if ns.header:
            print("Error: --header is for --url servers; use --env for a command", file=sys.stderr)
            return 2
        entry = {"command": command[0], "args": command[1:]}
        if ns.env:
            entry["env"] = _pairs(ns.env, "--env")
    if ns.timeout is not None:
        if ns.timeout <= 0:
            print("Error: --timeout must be a positive number of seconds", file=sys.stderr)
            return 2
        entry["timeout"] = ns.timeout
    path = _target(ns.local, cwd, agent_dir)
    try:
        replaced = add_server_entry(path, ns.name, entry, replace=ns.force)
    except (ValueError, OSError) as exc:
        print(f"Error: cannot update {path}: {exc}", file=sys.stderr)
        return 1
    print(f"{'Updated' if replaced else 'Added'} MCP server {ns.name} in {path}", file=out)
    return 0


def _remove(ns: argparse.Namespace, cwd: str, agent_dir: Path | None, out: TextIO) -> int:
    path = _target(ns.local, cwd, agent_dir)
    try:
        removed = remove_server_entry(path, ns.name)
    except (ValueError, OSError) as exc:
        print(f"Error: cannot update {path}: {exc}", file=sys.stderr)
        return 1
    if not removed:
        print(f"Error: no MCP server named {ns.name} in {path}", file=sys.stderr)
        return 1
    print(f"Removed MCP server {ns.name} from {path}", file=out)
    return 0


async def _connect_all(config: McpConfigLoad, agent_dir: Path | None) -> list[dict[str, Any]]:
    from pi_tui.coding.mcp.manager import McpManager, mcp_log_dir

    manager = McpManager(config, log_dir=mcp_log_dir(agent_dir))
    manager.start()
    try:
        await manager.wait_ready()
        return manager.status()
    finally:
        await manager.close()


def list_servers(cwd: str, *, project_trusted: bool, agent_dir: Path | None, out: TextIO) -> int:
    """Connect to every enabled server, print one line each (``NAME  STATE  N tools  SOURCE  command/url``)
    and any error; 1 when an entry is invalid or an enabled server is not connected."""
    config = load_mcp_config(cwd, project_trusted=project_trusted, agent_dir=agent_dir)
    for error in config.errors:
        print(f"error: {error}", file=out)
    if not config.servers:
        where = f"{user_mcp_path(agent_dir)}" + (f" or {project_mcp_path(cwd)}" if project_trusted else "")
        print(f"No MCP servers configured ({where}).", file=out)
        return 1 if config.errors else 0
    rows = asyncio.run(_connect_all(config, agent_dir))
    width = max(len(r["name"]) for r in rows)
    failed = False
    for row in rows:
        server = config.servers[row["name"]]
        tools = f"{row['tools']} tool{'s' if row['tools'] != 1 else ''}" if row["state"] == "connected" else "-"
        print(f"{row['name'].ljust(width)}  {row['state']:<12} {tools:<9} {row['source']:<7} {server.summary()}", file=out)
        if row.get("error"):
            print(f"{' ' * width}  {row['error']}", file=out)
        failed = failed or (row["state"] != "connected" and server.enabled)
    return 1 if failed or config.errors else 0


def _project_trusted(cwd: str) -> bool:
    """Whether the project's ``.pi-tui/mcp.json`` may be used (:func:`pi_tui.coding.resources.trust.is_trusted`;
    the shell command never asks)."""
    from pi_tui.coding.resources.trust import is_trusted

    return is_trusted(cwd)


def main(
    argv: Sequence[str],
    *,
    cwd: str | None = None,
    agent_dir: Path | None = None,
    project_trusted: ProjectTrust | None = None,
    out: TextIO | None = None,
) -> int:
    """Run ``pi-tui mcp ARGV``; returns the exit code (2 for bad arguments)."""
    out = out or sys.stdout
    cwd = cwd or os.getcwd()
    argv = list(argv)
    command: list[str] = []
    if "--" in argv:
        index = argv.index("--")
        argv, command = argv[:index], argv[index + 1 :]
    try:
        ns = _parser().parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0) if exc.code in (0, None) else 2
    if ns.action != "add" and command:
        print("Error: '--' is only used with 'mcp add'", file=sys.stderr)
        return 2
    try:
        if ns.action == "add":
            return _add(ns, command, cwd, agent_dir, out)
        if ns.action == "remove":
            return _remove(ns, cwd, agent_dir, out)
    except SystemExit as exc:  # _pairs reports a bad K=V
        print(exc, file=sys.stderr)
        return 2
    trusted = (project_trusted or _project_trusted)(cwd)
    if ns.action in ("login", "logout"):
        return sign_in(ns.action, ns.name, cwd, project_trusted=trusted, agent_dir=agent_dir, out=out)
    return list_servers(cwd, project_trusted=trusted, agent_dir=agent_dir, out=out)


def sign_in(action: str, name: str, cwd: str, *, project_trusted: bool, agent_dir: Path | None, out: TextIO) -> int:
    """``login``/``logout`` of the configured server ``name``: 0 when done, 1 on failure (the reason on
    stderr), 2 for a server that is unknown or not an OAuth (HTTP, no Authorization header) server."""
    from pi_tui.coding.mcp import oauth

    config = load_mcp_config(cwd, project_trusted=project_trusted, agent_dir=agent_dir)
    server = config.servers.get(name)
    if server is None:
        print(f"Error: no MCP server named {name} (pi-tui mcp list shows them)", file=sys.stderr)
        return 2
    if not oauth.oauth_applies(server):
        print(f"Error: {name} is not a streamable HTTP server without an Authorization header; "
              "OAuth sign-in does not apply", file=sys.stderr)
        return 2
    path = oauth.auth_path(agent_dir)
    if action == "logout":
        removed = oauth.forget(server, path)
        print(f"Signed out of {name}" if removed else f"{name} had no stored sign-in", file=out)
        return 0
    from pi_tui.coding.mcp.connection import describe_exception

    try:
        tools = asyncio.run(oauth.login(server, path=path, say=lambda text: print(text, file=out, flush=True)))
    except Exception as exc:  # the SDK raises exception groups; the first leaf is the reason
        print(f"Error: sign-in to {name} failed: {describe_exception(exc)}", file=sys.stderr)
        return 1
    print(f"Signed in to {name}: {tools} tool{'s' if tools != 1 else ''} (credentials in {path})", file=out)
    return 0
