"""pi-agent-core types (pi-reference §2.1). Tool protocol first; events and loop config follow.

``AgentTool.execute`` raises on failure (the loop turns the exception message into an error
result); it never encodes errors in its content.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Literal

from pydantic import BaseModel, Field

from pi_tui.ai.abort import AbortSignal
from pi_tui.ai.types import PiModel, Tool, ToolResultContent

ToolExecutionMode = Literal["sequential", "parallel"]


class AgentToolResult(PiModel):
    """``{content: (text|image)[], details, terminate?}``; ``details`` never reaches the LLM."""

    content: list[ToolResultContent] = Field(default_factory=list)
    details: Any = None
    terminate: bool | None = None


AgentToolUpdateCallback = Callable[[AgentToolResult], "Awaitable[None] | None"]


class AgentTool(Tool):
    """A tool the agent can run: pi-ai ``Tool`` + ``label``, ``execute`` and optional hooks (§2.1).

    ``parameters`` is a JSON Schema dict; alternatively set ``params_model`` to a pydantic model
    class (its JSON schema is then used as ``parameters`` and ``execute`` receives a validated
    instance of it). Subclasses override :meth:`execute`; :meth:`prepare_arguments` is a
    compatibility shim run on the raw arguments before validation (default: unchanged).
    ``execution_mode="sequential"`` forces the whole batch containing this tool to run sequentially.
    """

    label: str = ""
    execution_mode: ToolExecutionMode | None = None
    params_model: type[BaseModel] | None = Field(default=None, exclude=True)

    def model_post_init(self, __context: Any) -> None:
        if not self.label:
            self.label = self.name
        if self.params_model is not None and self.parameters == {"type": "object", "properties": {}}:
            self.parameters = self.params_model.model_json_schema()

    def prepare_arguments(self, args: dict[str, Any]) -> dict[str, Any]:
        """Rewrite legacy argument shapes before validation (pi's ``prepareArguments``)."""
        return args

    async def execute(
        self,
        tool_call_id: str,
        params: Any,
        signal: AbortSignal | None = None,
        on_update: AgentToolUpdateCallback | None = None,
    ) -> AgentToolResult:
        """Run the tool; raise an exception (its message becomes the error result) on failure."""
        raise NotImplementedError(f"tool {self.name!r} does not implement execute()")
