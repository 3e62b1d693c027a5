"""The seven built-in coding tools of pi-coding-agent (pi-reference §3.13).

``create_coding_tools(cwd, settings)`` returns all seven tools by name; the agent starts with
:data:`DEFAULT_ACTIVE_TOOL_NAMES` (``read, bash, edit, write``, pi's ``codingTools``); the read-only set
is :data:`READ_ONLY_TOOL_NAMES` (``read, grep, find, ls``).

``settings`` is an optional mapping with pi's settings.json keys (camelCase; snake_case accepted):
``shellPath`` (bash shell, must exist), ``shellCommandPrefix`` (prepended to every bash command with a
newline), ``binDir`` (put first on the bash PATH), ``searchBackend`` (``"auto"|"external"|"python"``
for grep/find), ``autoResizeImages`` (pi's ``images.autoResize``: ``read`` resizes images, default on).
``supports_images`` and ``model_id`` (callables) let ``read`` name a model without image input in its
details (pi 1.6.0 ``imageUnsupportedByModel``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from pi_tui.lazy_exports import lazy_package

if TYPE_CHECKING:
    from pi_tui.agent.types import AgentTool
    from pi_tui.coding.tools.bash import BashTool
    from pi_tui.coding.tools.edit import EditTool
    from pi_tui.coding.tools.find import FindTool
    from pi_tui.coding.tools.grep import GrepTool
    from pi_tui.coding.tools.ls import LsTool
    from pi_tui.coding.tools.read import ReadTool
    from pi_tui.coding.tools.search_backend import SearchBackend
    from pi_tui.coding.tools.write import WriteTool

# Each tool class loads its module on first use (``pi_tui.lazy_exports``; issue 15: the app's first paint
# imports ``tools.read_lines`` and must not pay for the seven tools and the agent core under them).
_EXPORTS = {"BashTool": ".bash", "EditTool": ".edit", "FindTool": ".find", "GrepTool": ".grep", "LsTool": ".ls",
            "ReadTool": ".read", "WriteTool": ".write"}
__getattr__, __dir__ = lazy_package(__name__, _EXPORTS)

ALL_TOOL_NAMES: tuple[str, ...] = ("read", "bash", "edit", "write", "grep", "find", "ls")
DEFAULT_ACTIVE_TOOL_NAMES: tuple[str, ...] = ("read", "bash", "edit", "write")
READ_ONLY_TOOL_NAMES: tuple[str, ...] = ("read", "grep", "find", "ls")

__all__ = [
    "ALL_TOOL_NAMES",
    "DEFAULT_ACTIVE_TOOL_NAMES",
    "READ_ONLY_TOOL_NAMES",
    "BashTool",
    "EditTool",
    "FindTool",
    "GrepTool",
    "LsTool",
    "ReadTool",
    "WriteTool",
    "create_coding_tools",
]


def _setting(settings: Mapping[str, Any] | None, camel: str, snake: str) -> Any:
    if not settings:
        return None
    value = settings.get(camel)
    return value if value is not None else settings.get(snake)


def create_coding_tools(
    cwd: str,
    settings: Mapping[str, Any] | None = None,
    *,
    supports_images: Callable[[], bool] | None = None,
    model_id: Callable[[], str | None] | None = None,
) -> dict[str, AgentTool]:
    """All seven tools for ``cwd``, keyed by name in :data:`ALL_TOOL_NAMES` order (see module docstring
    for ``settings``)."""
    from pi_tui.coding.tools.bash import BashTool
    from pi_tui.coding.tools.edit import EditTool
    from pi_tui.coding.tools.find import FindTool
    from pi_tui.coding.tools.grep import GrepTool
    from pi_tui.coding.tools.ls import LsTool
    from pi_tui.coding.tools.read import ReadTool
    from pi_tui.coding.tools.write import WriteTool

    raw_backend = _setting(settings, "searchBackend", "search_backend")
    backend: SearchBackend = raw_backend if raw_backend in ("auto", "external", "python") else "auto"
    tools: list[AgentTool] = [
        ReadTool(cwd, supports_images=supports_images, model_id=model_id,
                 auto_resize_images=_setting(settings, "autoResizeImages", "auto_resize_images") is not False),
        BashTool(
            cwd,
            shell_path=_setting(settings, "shellPath", "shell_path"),
            command_prefix=_setting(settings, "shellCommandPrefix", "shell_command_prefix"),
            bin_dir=_setting(settings, "binDir", "bin_dir"),
        ),
        EditTool(cwd),
        WriteTool(cwd),
        GrepTool(cwd, backend=backend),
        FindTool(cwd, backend=backend),
        LsTool(cwd),
    ]
    return {tool.name: tool for tool in tools}
