"""Registries shared by built-ins and extensions: one list each, not two (issue 11 "Built-ins through the
same seams"; DESIGN.md "Extensibility and the outside world").

:class:`CommandRegistry` holds every slash command the front ends offer: the TUI's built-ins
(``source="builtin"``), extension commands (``"extension"``), prompt templates (``"template"``), skills
(``"skill"``, named ``skill:NAME``) and MCP prompts (``"mcp"``, named ``mcp:SERVER:NAME``). The palette,
completion, ``/hotkeys``, dispatch and RPC ``get_commands`` all read it (pi's ``get_commands`` lists
extension commands, templates and skills: pi docs/rpc.md).

Names are stored without the leading slash. Registration order is kept: :meth:`CommandRegistry.all`
lists commands in the order they were first registered (a ``replace=True`` keeps the old position).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

CommandHandler = Callable[[str, Any], Awaitable[None] | None]
"""``handler(argument_text, context)``: the text after the command name (stripped, may be ``""``) and the
context object the front end passes (the TUI app's command context, an RPC/print context); sync or async."""

COMMAND_SOURCES = ("builtin", "extension", "template", "skill", "mcp")


@dataclass(frozen=True)
class CommandSpec:
    """One slash command.

    ``name``: without the slash (``"model"``, ``"skill:review"``, ``"mcp:git:status"``); ``description``:
    one line for the palette and ``get_commands``; ``handler``: see :data:`CommandHandler`; ``usage``: the
    argument hint (``"[provider/model]"``); ``source``: one of :data:`COMMAND_SOURCES`; ``owner``: the
    extension name, template/skill file path or MCP server name (empty for built-ins);
    ``get_argument_completions(prefix)``: the completions of the argument text typed so far, or None.
    """

    name: str
    description: str
    handler: CommandHandler
    usage: str = ""
    source: str = "builtin"
    owner: str = ""
    get_argument_completions: Callable[[str], list[str]] | None = None


def _normalise(name: str) -> str:
    return name[1:] if name.startswith("/") else name


class CommandRegistry:
    """Slash commands by name, in registration order (module docstring).

    Not thread-safe; every caller runs on the event loop.
    """

    def __init__(self) -> None:
        self._commands: dict[str, CommandSpec] = {}

    def register(self, spec: CommandSpec, *, replace: bool = False) -> None:
        """Add ``spec``. Raises ``ValueError`` when its name is empty, contains whitespace or is already
        taken and ``replace`` is false; with ``replace=True`` the new spec takes the old one's place."""
        name = spec.name
        if not name or name.startswith("/") or any(ch.isspace() for ch in name):
            raise ValueError(f"Invalid command name {name!r}: no slash, no spaces")
        existing = self._commands.get(name)
        if existing is not None and not replace:
            who = f"{existing.source} {existing.owner}".strip()
            raise ValueError(f"Command /{name} is already registered ({who})")
        self._commands[name] = spec

    def unregister(self, name: str) -> None:
        """Remove the command ``name`` (a leading slash is ignored); nothing happens when it is absent."""
        self._commands.pop(_normalise(name), None)

    def remove_owner(self, source: str, owner: str | None = None) -> None:
        """Remove every command of ``source``, or only those of ``source`` owned by ``owner`` (an extension
        being reloaded, a server that went away)."""
        for name, spec in list(self._commands.items()):
            if spec.source == source and (owner is None or spec.owner == owner):
                del self._commands[name]

    def get(self, name: str) -> CommandSpec | None:
        """The command ``name`` (with or without the leading slash), or None."""
        return self._commands.get(_normalise(name))

    def all(self) -> list[CommandSpec]:
        """Every command, in registration order."""
        return list(self._commands.values())

    def names(self) -> list[str]:
        """Every command name (without slash), in registration order."""
        return list(self._commands)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and _normalise(name) in self._commands

    def __len__(self) -> int:
        return len(self._commands)
