"""The session's tool registry: every known tool, the active ones, and the system prompt that lists them.

Built-in tools (``create_agent_session``), extension tools and MCP tools all go through one
:class:`ToolRegistry` (issue 11: one list, not two). The Agent's ``state.tools`` is the active list; changing
it rebuilds the system prompt when the session was given a ``rebuild_system_prompt`` (pi's
``setActiveToolsByName``: the prompt names the active tools, pi-reference §3.12).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from pi_tui.agent import Agent
from pi_tui.agent.types import AgentTool


class ToolRegistry:
    """``agent``: receives the active tools (and the rebuilt prompt); ``tools``: the known tools (the agent's
    active ones are always known); ``rebuild_system_prompt(active)``: the system prompt for a tool list, or
    None to leave the prompt alone."""

    def __init__(
        self,
        agent: Agent,
        tools: Iterable[AgentTool] = (),
        rebuild_system_prompt: Callable[[list[AgentTool]], str] | None = None,
    ) -> None:
        self._agent = agent
        self._rebuild = rebuild_system_prompt
        self._tools: dict[str, AgentTool] = {t.name: t for t in tools}
        for tool in agent.state.tools:
            self._tools.setdefault(tool.name, tool)

    @property
    def all(self) -> dict[str, AgentTool]:
        """Every known tool by name (a copy, in registration order)."""
        return dict(self._tools)

    def get_active(self) -> list[str]:
        """Names of the tools the model can call, in the agent's order."""
        return [t.name for t in self._agent.state.tools]

    def register(self, tool: AgentTool, *, active: bool = False) -> None:
        """Add (or replace, by name) ``tool``; ``active`` also offers it to the model. A replaced tool that
        was active stays active with the new definition."""
        replaced = tool.name in self._tools
        self._tools[tool.name] = tool
        names = self.get_active()
        if active and tool.name not in names:
            self.set_active([*names, tool.name])
        elif replaced and tool.name in names:
            self.set_active(names)

    def unregister(self, name: str) -> None:
        """Forget the tool ``name`` (and deactivate it); unknown names are ignored."""
        if self._tools.pop(name, None) is None:
            return
        names = self.get_active()
        if name in names:
            self.set_active([n for n in names if n != name])

    def set_active(self, names: Iterable[str]) -> None:
        """Make exactly ``names`` active (in that order; duplicates dropped) and rebuild the system prompt.
        Raises ``ValueError`` naming any unknown tool (nothing changes then)."""
        wanted = list(dict.fromkeys(names))
        unknown = [n for n in wanted if n not in self._tools]
        if unknown:
            raise ValueError(f"Unknown tool(s): {', '.join(unknown)}. Available: {', '.join(self._tools)}")
        active = [self._tools[n] for n in wanted]
        self._agent.state.tools = active
        if self._rebuild is not None:
            self._agent.state.system_prompt = self._rebuild(active)
