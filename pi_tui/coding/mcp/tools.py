"""MCP server tools as agent tools (pi 1.x docs/mcp.md "Control tool exposure": ``direct`` exposure).

Each :class:`McpAgentTool` carries the server's name for the tool, its JSON Schema (``inputSchema``) as
``parameters`` and its description; :meth:`McpAgentTool.execute` calls it through the server's
:class:`~pi_tui.coding.mcp.connection.McpConnection`. Failures raise (the agent loop turns the message into
an error tool result, pi-reference §2.1): a result with ``isError`` raises its text, and every transport
problem raises the connection's one-sentence :class:`~pi_tui.coding.mcp.connection.McpError`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import Field

from pi_tui.agent.types import AgentTool, AgentToolResult, AgentToolUpdateCallback
from pi_tui.ai.abort import AbortSignal
from pi_tui.coding.mcp.content import convert_result, result_text
from pi_tui.coding.mcp.errors import McpError
from pi_tui.coding.mcp.names import agent_tool_names

if TYPE_CHECKING:
    import mcp_types as mt

    from pi_tui.coding.mcp.connection import McpConnection

MAX_DESCRIPTION_CHARS = 4000
EMPTY_SCHEMA: dict[str, Any] = {"type": "object", "properties": {}}


def _schema(tool: mt.Tool) -> dict[str, Any]:
    schema = tool.input_schema if isinstance(tool.input_schema, dict) else {}
    schema = dict(schema) or dict(EMPTY_SCHEMA)
    if schema.get("type") != "object":  # providers require an object schema for function parameters
        schema = {**EMPTY_SCHEMA, **{k: v for k, v in schema.items() if k != "type"}, "type": "object"}
    schema.setdefault("properties", {})
    return schema


class McpAgentTool(AgentTool):
    """One server tool. ``server_tool`` is the name the server knows; ``name`` is ``mcp__<server>__<tool>``."""

    server: str = ""
    server_tool: str = ""
    annotations: dict[str, Any] = Field(default_factory=dict, exclude=True)
    connection: Any = Field(default=None, exclude=True)

    async def execute(
        self,
        tool_call_id: str,
        params: Any,
        signal: AbortSignal | None = None,
        on_update: AgentToolUpdateCallback | None = None,
    ) -> AgentToolResult:
        """Call the server tool with ``params`` (a dict); raises with the server's or transport's message."""
        connection: McpConnection = self.connection
        arguments = params if isinstance(params, dict) else {}
        result = await connection.call_tool(self.server_tool, arguments, signal)
        blocks = convert_result(result)
        if result.is_error:
            raise McpError(result_text(blocks) or f"MCP tool {self.server}/{self.server_tool} reported an error")
        details: dict[str, Any] = {"server": self.server, "tool": self.server_tool}
        if result.structured_content is not None:
            details["structuredContent"] = result.structured_content
        return AgentToolResult(content=blocks, details=details)


def build_tools(connection: McpConnection) -> list[McpAgentTool]:
    """Agent tools for every tool the connected server lists, with unique provider-safe names."""
    names = agent_tool_names(connection.name, [t.name for t in connection.tools])
    tools: list[McpAgentTool] = []
    seen: set[str] = set()
    for tool in connection.tools:
        if tool.name in seen:
            continue
        seen.add(tool.name)
        description = (tool.description or tool.title or f"{tool.name} (MCP server {connection.name})").strip()
        annotations = tool.annotations.model_dump(exclude_none=True) if tool.annotations is not None else {}
        tools.append(
            McpAgentTool(
                name=names[tool.name],
                label=f"{connection.name}: {tool.title or tool.name}",
                description=description[:MAX_DESCRIPTION_CHARS],
                parameters=_schema(tool),
                server=connection.name,
                server_tool=tool.name,
                annotations=annotations,
                connection=connection,
            )
        )
    return tools
