"""MCP server prompts as slash commands ``/mcp:<server>:<prompt>`` (issue 13; pi 1.x has MCP prompts as commands).

:func:`sync_prompt_commands` keeps a :class:`~pi_tui.coding.extensions.registries.CommandRegistry` in step with
the servers of an :class:`~pi_tui.coding.mcp.manager.McpManager`: when a server connects its prompts are
registered (``source="mcp"``, ``owner=<server>``); when it fails or is disabled they are removed. Running a
command fetches the prompt (``prompts/get``) with the arguments typed after it and hands the prompt's text to
``send`` (the session's ``prompt``). Arguments: ``key=value`` pairs (quoted values allowed); a prompt with a
single argument also takes the whole text as that argument. A missing required argument, an unknown key or a
server error is reported through ``notify`` and nothing is sent.
"""

from __future__ import annotations

import shlex
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from pi_tui.coding.extensions.registries import CommandRegistry, CommandSpec
from pi_tui.coding.mcp.errors import McpError
from pi_tui.coding.mcp.manager import McpChange, McpManager
from pi_tui.coding.mcp.names import command_name

if TYPE_CHECKING:
    import mcp_types as mt

    from pi_tui.coding.mcp.connection import McpConnection

SendPrompt = Callable[[str], Awaitable[Any]]
Notify = Callable[[str, str], Any]


def parse_prompt_arguments(text: str, prompt: mt.Prompt) -> dict[str, str]:
    """``key=value`` pairs of ``text`` for ``prompt``; raises ValueError naming a missing required argument,
    an unknown key or unbalanced quotes."""
    declared = list(prompt.arguments or [])
    names = [a.name for a in declared]
    text = text.strip()
    values: dict[str, str] = {}
    if text:
        try:
            words = shlex.split(text)
        except ValueError as exc:
            raise ValueError(f"cannot parse arguments: {exc}") from None
        if len(declared) == 1 and not all("=" in w and w.split("=", 1)[0] in names for w in words):
            values[names[0]] = text
        else:
            for word in words:
                key, sep, value = word.partition("=")
                if not sep:
                    raise ValueError(f"arguments are key=value ({', '.join(names) or 'none declared'})")
                if key not in names:
                    raise ValueError(f"unknown argument {key!r} ({', '.join(names) or 'none declared'})")
                values[key] = value
    missing = [a.name for a in declared if a.required and a.name not in values]
    if missing:
        raise ValueError(f"missing required argument{'s' if len(missing) > 1 else ''}: {', '.join(missing)}")
    return values


def prompt_text(result: mt.GetPromptResult) -> str:
    """The text of a prompt's messages (text blocks and embedded text resources), joined by blank lines."""
    parts: list[str] = []
    for message in result.messages:
        content: Any = message.content
        kind = getattr(content, "type", "")
        if kind == "text":
            parts.append(content.text)
        elif kind == "resource" and isinstance(getattr(content.resource, "text", None), str):
            parts.append(f"Resource {content.resource.uri}:\n{content.resource.text}")
        elif kind == "resource_link":
            parts.append(f"Resource link: {content.name} {content.uri}")
    return "\n\n".join(p for p in parts if p.strip())


def _usage(prompt: mt.Prompt) -> str:
    return " ".join(f"{a.name}=…" if a.required else f"[{a.name}=…]" for a in prompt.arguments or [])


def _handler(connection: McpConnection, prompt: mt.Prompt, send: SendPrompt, notify: Notify) -> Any:
    async def run(argument_text: str, _context: Any) -> None:
        try:
            arguments = parse_prompt_arguments(argument_text, prompt)
            result = await connection.get_prompt(prompt.name, arguments)
        except (ValueError, McpError) as exc:
            notify("error", f"/{command_name(connection.name, prompt.name)}: {exc}")
            return
        text = prompt_text(result)
        if not text:
            notify("warning", f"/{command_name(connection.name, prompt.name)}: the prompt has no text")
            return
        await send(text)

    return run


def register_server_prompts(
    registry: CommandRegistry, connection: McpConnection, send: SendPrompt, notify: Notify
) -> list[str]:
    """Replace the commands of ``connection``'s server with one per prompt it offers; returns their names."""
    registry.remove_owner("mcp", connection.name)
    names: list[str] = []
    for prompt in connection.prompts:
        name = command_name(connection.name, prompt.name)
        if name in registry:
            continue  # a command of another source keeps its name
        description = (prompt.description or prompt.title or f"MCP prompt of {connection.name}").strip().splitlines()[0]
        registry.register(
            CommandSpec(
                name=name,
                description=description,
                handler=_handler(connection, prompt, send, notify),
                usage=_usage(prompt),
                source="mcp",
                owner=connection.name,
            )
        )
        names.append(name)
    return names


def sync_prompt_commands(
    registry: CommandRegistry, manager: McpManager, send: SendPrompt, notify: Notify
) -> Callable[[], None]:
    """Keep ``registry`` in step with ``manager`` (module docstring); returns the unsubscribe function."""

    def on_change(change: McpChange) -> None:
        connection = manager.connections.get(change.server)
        if connection is None:  # no longer configured (/reload): its prompts go too
            registry.remove_owner("mcp", change.server)
            return
        if change.state == "connected":
            register_server_prompts(registry, connection, send, notify)
        elif change.state in ("failed", "disabled"):
            registry.remove_owner("mcp", change.server)

    for connection in manager.connections.values():
        if connection.state == "connected":
            register_server_prompts(registry, connection, send, notify)
    return manager.subscribe(on_change)
