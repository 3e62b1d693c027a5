"""What the ``pi`` API and the extension context need from the session: :class:`ExtensionHost`.

:class:`~pi_tui.coding.extensions.binding.SessionHost` implements it over an ``AgentSession``; tests may
implement it directly. Every method is called on the event loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from pi_tui.agent.types import AgentTool


class ExtensionHost(Protocol):
    """The session seen by extensions (pi's ``ExtensionAPI`` actions and ``ExtensionContext`` state)."""

    @property
    def cwd(self) -> str:
        """The session's working directory."""
        ...

    @property
    def session_manager(self) -> Any:
        """The SessionManager (extensions get a read-only view of it)."""
        ...

    @property
    def model(self) -> Any:
        """The current model (None when none)."""
        ...

    @property
    def signal(self) -> Any:
        """The running agent's abort signal, None when idle."""
        ...

    def is_idle(self) -> bool:
        """True when the agent is not streaming."""
        ...

    def has_pending_messages(self) -> bool:
        """True when steering/follow-up messages are queued."""
        ...

    def abort(self) -> None:
        """Abort the running turn (returns at once)."""
        ...

    async def wait_for_idle(self) -> None:
        """Wait until the agent is idle."""
        ...

    async def compact(self, custom_instructions: str | None = None) -> Any:
        """Compact the session now."""
        ...

    def get_context_usage(self) -> dict[str, Any] | None:
        """``{tokens, context_window, percent}`` or None (pi's ``getContextUsage``)."""
        ...

    def get_system_prompt(self) -> str:
        """The current system prompt."""
        ...

    def send_custom_message(self, message: Any, deliver_as: str, trigger_turn: bool) -> None:
        """Add a ``custom`` message (steer / follow_up / next_turn delivery; see ``pi.send_message``)."""
        ...

    def send_user_message(self, content: str | list[Any], deliver_as: str | None) -> None:
        """Send a user message (starts a run when idle; queued with ``deliver_as`` while streaming)."""
        ...

    def append_custom_entry(self, custom_type: str, data: Any) -> str:
        """Persist a ``custom`` entry (never sent to the LLM); returns its id."""
        ...

    def notify(self, level: str, text: str) -> Any:
        """Add a UI-only notification to the transcript."""
        ...

    def add_artifact(self, title: str, kind: str, content: str, language: str | None, path: str | None) -> Any:
        """Add a UI-only artifact to the transcript."""
        ...

    def all_tools(self) -> list[AgentTool]:
        """Every tool (built-in and registered), in registration order."""
        ...

    def active_tool_names(self) -> list[str]:
        """Names of the tools the model sees."""
        ...

    def set_active_tools(self, names: Sequence[str]) -> None:
        """Make exactly ``names`` (known tools only) active; rebuilds the system prompt."""
        ...

    def add_tool(self, tool: AgentTool) -> None:
        """Register (or replace by name) ``tool``. A new name becomes active unless a ``--tools`` allow-list
        leaves it out (pi's ``_refreshToolRegistry``); a replaced built-in keeps its active state."""
        ...

    def remove_tools(self, names: Sequence[str]) -> None:
        """Forget the tools ``names`` (reload), restoring a built-in that an extension had overridden."""
        ...

    def set_model(self, model: Any) -> bool:
        """Switch to ``model`` (a Model or ``"provider/id"``); False when it is unknown or has no key."""
        ...

    def get_thinking_level(self) -> str:
        """The thinking level."""
        ...

    def set_thinking_level(self, level: str) -> None:
        """Set the thinking level (clamped to the model)."""
        ...

    async def new_session(self) -> bool:
        """Start a new session (``/new``); False when an extension cancelled it."""
        ...

    async def fork(self, entry_id: str, position: str = "before") -> bool:
        """Fork before the user message ``entry_id`` (``/fork``), or through it (``position="at"``, ``/clone``);
        False when cancelled."""
        ...

    async def switch_session(self, path: str) -> bool:
        """Open the session file ``path`` (``/resume``); False when cancelled."""
        ...

    def get_session_name(self) -> str | None:
        """The session's display name."""
        ...

    def set_session_name(self, name: str) -> None:
        """Set the session's display name."""
        ...
