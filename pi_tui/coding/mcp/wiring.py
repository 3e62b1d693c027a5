"""Building a session's :class:`~pi_tui.coding.mcp.session_link.McpSessionLink` from the config files.

:func:`build_session_link` reads ``mcp.json`` (the project file only when
:func:`pi_tui.coding.resources.trust.is_trusted` says so) and returns a link that is not started yet (start needs
a running event loop; the front end or the first prompt starts it). ``--no-mcp`` and ``--no-tools`` give a
disabled link: no server starts, no tool is offered, ``/mcp`` lists the configured servers as they are.
:func:`split_tool_names` separates the ``--tools`` entries that name MCP tools (``mcp__…``, ``*`` allowed) from
the built-in names (pi 1.x docs/mcp.md: "--tools does not remove MCP tools unless one of its entries starts with
``mcp__``").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from pi_tui.agent.types import AgentTool
from pi_tui.coding.extensions.registries import CommandRegistry
from pi_tui.coding.mcp.config import McpConfigLoad, load_mcp_config
from pi_tui.coding.mcp.manager import McpManager, mcp_log_dir
from pi_tui.coding.mcp.names import PREFIX
from pi_tui.coding.mcp.session_link import McpSessionLink
from pi_tui.coding.mcp.tools import McpAgentTool


def split_tool_names(names: Sequence[str] | None) -> tuple[list[str] | None, list[str]]:
    """``(built-in names or None, mcp patterns)`` of a ``--tools`` list (None: no list given)."""
    if names is None:
        return None, []
    builtin = [n for n in names if not n.startswith(PREFIX)]
    patterns = [n for n in names if n.startswith(PREFIX)]
    return builtin, patterns


def build_session_link(
    cwd: str,
    *,
    set_tools: Callable[[list[AgentTool]], None],
    notify: Callable[[str, str], Any],
    notify_run: Callable[[str, str], Any] | None = None,
    commands: CommandRegistry | None = None,
    send_prompt: Callable[[str], Awaitable[Any]] | None = None,
    tools: Sequence[str] | None = None,
    no_mcp: bool = False,
    agent_dir: Path | None = None,
    stop_mark: Callable[[], Any] | None = None,
) -> McpSessionLink:
    """The session's MCP link (module docstring); never raises for bad config (errors are reported at start)."""
    from pi_tui.coding.resources.trust import is_trusted

    _builtin, patterns = split_tool_names(tools)
    disabled = no_mcp or (tools is not None and len(tools) == 0)

    def load() -> McpConfigLoad:  # at start and on /reload (trust may have changed meanwhile)
        config = load_mcp_config(cwd, project_trusted=is_trusted(cwd, agent_dir), agent_dir=agent_dir)
        if disabled:  # listed in /mcp as disabled, never started
            config.servers = {name: dataclasses.replace(c, enabled=False) for name, c in config.servers.items()}
        return config

    manager = McpManager(load(), log_dir=mcp_log_dir(agent_dir))
    return McpSessionLink(
        manager,
        set_tools=set_tools,
        notify=notify,
        notify_run=notify_run,
        commands=commands,
        send_prompt=send_prompt,
        tool_patterns=patterns,
        enabled=not disabled,
        loader=load,
        stop_mark=stop_mark,
    )


def replace_mcp_tools(registry: Any, tools: list[AgentTool]) -> None:
    """Put ``tools`` in place of the MCP tools of the session's tool registry
    (:class:`pi_tui.coding.agent_session.tools.ToolRegistry`): stale MCP tools are unregistered, the new ones
    registered and made active after the other active tools (built-in and extension tools keep their order).
    The agent reads its tools when a run starts, so a change mid-run applies from the next prompt."""
    known = registry.all
    stale = [name for name, tool in known.items() if isinstance(tool, McpAgentTool)]
    offered = {t.name for t in tools}
    others = [name for name in registry.get_active() if not isinstance(known.get(name), McpAgentTool)]
    for name in stale:
        if name not in offered:
            registry.unregister(name)
    for tool in tools:
        registry.register(tool)
    registry.set_active([*others, *(t.name for t in tools)])


def attach_mcp(session: Any, *, tools: Sequence[str] | None = None, no_mcp: bool = False) -> McpSessionLink:
    """Build ``session.mcp`` for an AgentSession made by the factory (not started: the front end starts it, or
    the first prompt does). ``tools``: the ``--tools`` list as given (its ``mcp__`` patterns filter MCP tools).

    MCP prompts are sent like template commands: a prompt, or a steering message while the agent works.
    The link is added to the session's prompt attachers (``@server:uri`` resources read on send)."""

    async def send(text: str) -> None:
        behaviour = "steer" if getattr(session, "is_streaming", False) else None
        await session.prompt(text, streaming_behavior=behaviour)

    link = build_session_link(
        session.cwd,
        set_tools=lambda offered: replace_mcp_tools(session.tools, offered),
        notify=session.notify,
        notify_run=lambda level, text: session.notify(level, text, persist=False),  # server states: this run only
        commands=getattr(session, "commands", None),
        send_prompt=send,
        tools=tools,
        no_mcp=no_mcp,
        stop_mark=getattr(session, "stop_mark", None),
    )
    session.mcp = link
    attachers = getattr(session, "prompt_attachers", None)
    if attachers is not None:  # the first prompt's wait for servers; @server:uri mentions become content blocks
        attachers.add(link.prompt_attachments)
    return link
