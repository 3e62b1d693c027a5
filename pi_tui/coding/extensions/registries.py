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
    ``get_argument_completions(prefix)``: the completions of the argument text typed so far (strings or pi's
    ``{value, label?, description?}`` items; sync or async), or None (``pi_tui.coding.autocomplete``).
    """

    name: str
    description: str
    handler: CommandHandler
    usage: str = ""
    source: str = "builtin"
    owner: str = ""
    get_argument_completions: Callable[[str], Any] | None = None


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


# ---------------------------------------------------------------------------------------------- shortcuts

ShortcutHandler = Callable[[Any], Awaitable[None] | None]
"""``handler(context)``: the extension context (sync or async)."""


@dataclass(frozen=True)
class ShortcutSpec:
    """A key bound by an extension (pi's ``registerShortcut``): ``key`` in the keymap's notation
    (``"ctrl+shift+p"``, ``"f5"``), ``description`` for ``/hotkeys``, ``owner`` the extension name."""

    key: str
    handler: ShortcutHandler
    description: str = ""
    owner: str = ""


class ShortcutRegistry:
    """Extension key bindings by key, in registration order; the TUI binds them through its keymap."""

    def __init__(self) -> None:
        self._shortcuts: dict[str, ShortcutSpec] = {}

    def register(self, spec: ShortcutSpec, *, replace: bool = False) -> None:
        """Add ``spec``; raises ``ValueError`` for an empty key or one already taken (unless ``replace``)."""
        key = spec.key.strip().lower()
        if not key:
            raise ValueError("Empty shortcut key")
        existing = self._shortcuts.get(key)
        if existing is not None and not replace:
            raise ValueError(f"Shortcut {key} is already registered ({existing.owner or 'built-in'})")
        self._shortcuts[key] = spec

    def get(self, key: str) -> ShortcutSpec | None:
        """The shortcut bound to ``key`` (case-insensitive), or None."""
        return self._shortcuts.get(key.strip().lower())

    def all(self) -> list[ShortcutSpec]:
        """Every shortcut, in registration order."""
        return list(self._shortcuts.values())

    def remove_owner(self, owner: str | None = None) -> None:
        """Remove the shortcuts of ``owner`` (all when None)."""
        for key, spec in list(self._shortcuts.items()):
            if owner is None or spec.owner == owner:
                del self._shortcuts[key]


# ---------------------------------------------------------------------------------------------- flags


@dataclass(frozen=True)
class FlagSpec:
    """A command-line flag registered by an extension (pi's ``registerFlag``): ``--name``; ``type`` is
    ``"boolean"`` (a switch) or ``"string"`` (takes a value); ``default`` is the value when not given."""

    name: str
    description: str = ""
    type: str = "boolean"
    default: bool | str | None = None
    owner: str = ""


class FlagRegistry:
    """Extension flags and their values. The CLI, which parses its arguments before extensions load,
    passes the flags it did not know (``--name``, ``--name=value``) to :meth:`set_unparsed`; the values
    apply once an extension registers the flag. A string flag takes its value as ``--name=value`` (a
    separate ``--name value`` only when the flag was registered before the arguments were given)."""

    def __init__(self) -> None:
        self._flags: dict[str, FlagSpec] = {}
        self._values: dict[str, bool | str] = {}

    def register(self, spec: FlagSpec) -> None:
        """Add ``spec``; raises ``ValueError`` for a bad name or type, or a name already taken."""
        if not spec.name or spec.name.startswith("-") or any(ch.isspace() for ch in spec.name):
            raise ValueError(f"Invalid flag name {spec.name!r}")
        if spec.type not in ("boolean", "string"):
            raise ValueError(f"Flag --{spec.name}: type must be 'boolean' or 'string', not {spec.type!r}")
        if spec.name in self._flags:
            raise ValueError(f"Flag --{spec.name} is already registered ({self._flags[spec.name].owner})")
        self._flags[spec.name] = spec

    def set_value(self, name: str, value: bool | str) -> None:
        """Record the value given on the command line for ``--name``."""
        self._values[name] = value

    def set_unparsed(self, argv: list[str]) -> list[str]:
        """Take ``--name``/``--name=value``/``--name value`` items out of ``argv`` (the arguments the CLI did
        not recognise); returns what is left (not flags). ``--name value`` takes the next item as the value
        only when ``name`` is a registered string flag."""
        rest: list[str] = []
        index = 0
        while index < len(argv):
            item = argv[index]
            index += 1
            if not item.startswith("--") or item == "--":
                rest.append(item)
                continue
            name, sep, value = item[2:].partition("=")
            spec = self._flags.get(name)
            if sep:
                self._values[name] = value
            elif spec is not None and spec.type == "string" and index < len(argv):
                self._values[name] = argv[index]
                index += 1
            else:
                self._values[name] = True
        return rest

    def get(self, name: str) -> bool | str | None:
        """The value of ``--name``: the one given, else the registered default, else None."""
        if name in self._values:
            return self._values[name]
        spec = self._flags.get(name)
        return spec.default if spec is not None else None

    def all(self) -> list[FlagSpec]:
        """Every registered flag, in registration order."""
        return list(self._flags.values())

    def unknown(self) -> list[str]:
        """Names given on the command line that no extension registered (reported as a warning)."""
        return [name for name in self._values if name not in self._flags]

    def remove_owner(self, owner: str | None = None) -> None:
        """Forget the flags of ``owner`` (all when None); given values stay for a reload."""
        for name, spec in list(self._flags.items()):
            if owner is None or spec.owner == owner:
                del self._flags[name]


# ---------------------------------------------------------------------------------------------- renderers

RenderCall = Callable[[dict[str, Any], Any], Any]
"""``render_call(args, context)`` → a ``str`` (plain text) or a Rich renderable shown as the tool row's
header, or None for the default. ``context``: :class:`RenderContext`."""
RenderResult = Callable[[Any, Any], Any]
"""``render_result(result, context)`` → ``str`` / Rich renderable / None (default rendering). ``result`` is
the tool result (``content``, ``details``, ``is_error``); ``context``: :class:`RenderContext`."""
RenderMessage = Callable[[Any, Any], Any]
"""``render(message, context)`` → ``str`` / Rich renderable / None for a ``custom`` message."""


@dataclass
class RenderContext:
    """What a renderer is told (pi's render context, Python names): the call's ``args``, ``tool_call_id``,
    ``cwd``, whether the row is ``expanded``, whether the result ``is_partial`` (still running) or
    ``is_error``, and ``state``, a dict shared by the call and result renderers of one row."""

    args: dict[str, Any]
    tool_call_id: str = ""
    cwd: str = ""
    expanded: bool = False
    is_partial: bool = False
    is_error: bool = False
    state: dict[str, Any] | None = None


@dataclass
class MessageRenderContext:
    """What a message renderer is told: whether the message is ``expanded`` (its own click or Ctrl+O;
    pi's ``options.expanded``)."""

    expanded: bool = True


@dataclass(frozen=True)
class ToolRendererSpec:
    """Custom transcript rendering of one tool's call and/or result; a missing slot (None) or one that
    raises keeps the default rendering of that slot (pi docs/extensions.md "Custom Rendering")."""

    tool_name: str
    render_call: RenderCall | None = None
    render_result: RenderResult | None = None
    owner: str = ""


@dataclass(frozen=True)
class MessageRendererSpec:
    """Custom transcript rendering of ``custom`` messages with ``custom_type`` (pi's
    ``registerMessageRenderer``)."""

    custom_type: str
    render: RenderMessage
    owner: str = ""


class RendererRegistry:
    """Tool and message renderers by tool name / custom type. A later registration for the same name
    replaces the earlier one (an extension overriding a built-in tool's look)."""

    def __init__(self) -> None:
        self._tools: dict[str, ToolRendererSpec] = {}
        self._messages: dict[str, MessageRendererSpec] = {}

    def register_tool(self, spec: ToolRendererSpec) -> None:
        """Set the renderer of ``spec.tool_name``."""
        self._tools[spec.tool_name] = spec

    def register_message(self, spec: MessageRendererSpec) -> None:
        """Set the renderer of custom messages of ``spec.custom_type``."""
        self._messages[spec.custom_type] = spec

    def tool(self, tool_name: str) -> ToolRendererSpec | None:
        """The renderer of ``tool_name``, or None."""
        return self._tools.get(tool_name)

    def message(self, custom_type: str) -> MessageRendererSpec | None:
        """The renderer of ``custom_type`` messages, or None."""
        return self._messages.get(custom_type)

    def is_empty(self) -> bool:
        """True when no tool or message renderer is registered (rows draw as without a registry)."""
        return not self._tools and not self._messages

    def remove_owner(self, owner: str | None = None) -> None:
        """Remove the renderers of ``owner`` (all extension renderers when None)."""
        for name, tool in list(self._tools.items()):
            if owner is None or tool.owner == owner:
                del self._tools[name]
        for name, message in list(self._messages.items()):
            if owner is None or message.owner == owner:
                del self._messages[name]
