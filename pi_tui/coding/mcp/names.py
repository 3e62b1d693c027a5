"""Agent tool names for MCP server tools (pi 1.x docs/mcp.md "Configuration rules").

A server tool ``T`` of server ``S`` becomes ``mcp__S__T`` with every character other than ASCII letters,
digits and ``_`` replaced by ``_``. Providers accept ``^[a-zA-Z0-9_-]{1,64}$`` (OpenAI, Anthropic; Google
allows 64 too), so a longer name is cut and given a hash suffix. Tools of one server whose names collide
after this all get a hash suffix of their original name (pi), so each stays reachable and the names are
stable across reconnects (they depend only on the server and tool names).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

MAX_TOOL_NAME_LENGTH = 64
_UNSAFE = re.compile(r"[^A-Za-z0-9_]")
PREFIX = "mcp__"
_SPACES = re.compile(r"\s+")


def sanitize(part: str) -> str:
    """Replace every character other than ``[A-Za-z0-9_]`` by ``_`` (empty → ``_``)."""
    return _UNSAFE.sub("_", part) or "_"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def _fit(name: str, original: str, *, force_hash: bool) -> str:
    if not force_hash and len(name) <= MAX_TOOL_NAME_LENGTH:
        return name
    suffix = "_" + _digest(original)
    return name[: MAX_TOOL_NAME_LENGTH - len(suffix)] + suffix


def agent_tool_names(server: str, tool_names: Iterable[str]) -> dict[str, str]:
    """Map each server tool name to its unique, provider-safe agent tool name (``mcp__<server>__<tool>``).

    Names are at most :data:`MAX_TOOL_NAME_LENGTH` characters of ``[A-Za-z0-9_]``; tools whose sanitized names
    collide (or would be cut to the same prefix) each get ``_<8 hex of sha256(original)>``.
    """
    originals = list(dict.fromkeys(tool_names))
    base = {tool: f"{PREFIX}{sanitize(server)}__{sanitize(tool)}" for tool in originals}
    counts: dict[str, int] = {}
    for tool in originals:
        key = base[tool][:MAX_TOOL_NAME_LENGTH]
        counts[key] = counts.get(key, 0) + 1
    out: dict[str, str] = {}
    for tool in originals:
        collides = counts[base[tool][:MAX_TOOL_NAME_LENGTH]] > 1
        out[tool] = _fit(base[tool], tool, force_hash=collides)
    # A hash suffix could in theory meet another tool's plain name; disambiguate deterministically.
    used: set[str] = set()
    for tool in originals:
        name = out[tool]
        n = 2
        while name in used:
            name = _fit(f"{out[tool]}_{n}", f"{tool}#{n}", force_hash=True)
            n += 1
        used.add(name)
        out[tool] = name
    return out


def command_name(server: str, prompt: str) -> str:
    """Slash command name of a server prompt: ``mcp:<server>:<prompt>`` (spaces → ``_``)."""
    return "mcp:" + server + ":" + _SPACES.sub("_", prompt.strip())
