"""Slash commands (pi-reference §3.14 "Slash commands") and the command-palette provider exposing them.

Each command is ``/name [argument]``; ``parse_slash`` splits the editor text, and the app runs
``cmd_<name>(argument)``. The same table feeds the palette (F1) and slash autocompletion.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider


@dataclass(frozen=True)
class SlashCommand:
    """``name`` without the slash, one-line ``description``, ``usage`` for /hotkeys."""

    name: str
    description: str
    usage: str = ""


COMMANDS: tuple[SlashCommand, ...] = (
    SlashCommand("model", "Select a model (fuzzy filter)", "/model [search]"),
    SlashCommand("new", "Start a new session", "/new"),
    SlashCommand("resume", "Resume a previous session", "/resume"),
    SlashCommand("name", "Set or show the session name", "/name [name]"),
    SlashCommand("session", "Show session info and stats", "/session"),
    SlashCommand("compact", "Compact the context now", "/compact [instructions]"),
    SlashCommand("export", "Export the session to HTML (Markdown for a .md path)", "/export [path]"),
    SlashCommand("copy", "Copy the last answer to the clipboard", "/copy"),
    SlashCommand("theme", "Switch theme", "/theme [name]"),
    SlashCommand("tools", "Show/hide the tool-call panel", "/tools"),
    SlashCommand("hotkeys", "Show key bindings", "/hotkeys"),
    SlashCommand("quit", "Quit pi-tui", "/quit"),
)

_BY_NAME = {c.name: c for c in COMMANDS}


def parse_slash(text: str) -> tuple[SlashCommand, str] | None:
    """``(command, argument)`` when ``text`` is a known slash command, else ``None`` (sent as a prompt)."""
    stripped = text.strip()
    if not stripped.startswith("/"):
        return None
    name, _, arg = stripped[1:].partition(" ")
    cmd = _BY_NAME.get(name.strip())
    return (cmd, arg.strip()) if cmd else None


def complete_slash(prefix: str) -> list[SlashCommand]:
    """Commands whose ``/name`` starts with ``prefix`` (for autocompletion)."""
    p = prefix.strip().lstrip("/")
    return [c for c in COMMANDS if c.name.startswith(p)]


class SlashCommandProvider(Provider):
    """Command-palette provider: every slash command, run through the app's ``run_slash``."""

    async def discover(self) -> Hits:
        app: Any = self.app
        for cmd in COMMANDS:
            yield DiscoveryHit(f"/{cmd.name}", partial(app.run_slash, f"/{cmd.name}"), help=cmd.description)

    async def search(self, query: str) -> Hits:
        app: Any = self.app
        matcher = self.matcher(query)
        for cmd in COMMANDS:
            score = matcher.match(f"/{cmd.name} {cmd.description}")
            if score > 0:
                yield Hit(score, matcher.highlight(f"/{cmd.name}"), partial(app.run_slash, f"/{cmd.name}"),
                          help=cmd.description)
