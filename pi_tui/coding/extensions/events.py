"""Payloads of the events extensions receive (pi-reference §3.20; pi docs/extensions.md "Events"), with
Python names, and the results handlers may return.

The agent's own events (``agent_start``, ``agent_end``, ``message_start/update/end``,
``tool_execution_start/update/end``, ``turn_end``) reach extensions as the agent's event objects
(``pi_tui.agent.events``); the events below exist only for extensions.

Results. A handler returns None (no change) or, for the events that take one, a result: an instance of
the result class below, or a ``dict`` with the same keys (pi's camelCase keys such as ``isError`` or
``systemPrompt`` are accepted too). Anything else is "garbage": the runner reports it as an error naming
the extension and the event and ignores it.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

EXTENSION_EVENTS = (
    "session_start",
    "session_shutdown",
    "session_before_switch",
    "session_before_fork",
    "session_before_compact",
    "session_compact",
    "session_before_tree",
    "session_tree",
    "resources_discover",
    "input",
    "before_agent_start",
    "agent_start",
    "agent_end",
    "turn_start",
    "turn_end",
    "context",
    "message_start",
    "message_update",
    "message_end",
    "tool_execution_start",
    "tool_execution_update",
    "tool_execution_end",
    "tool_call",
    "tool_result",
    "user_bash",
    "model_select",
    "thinking_level_select",
    "before_provider_request",
    "after_provider_response",
)
"""Every event name ``pi.on`` accepts (an unknown name raises ``ValueError`` at registration)."""


@dataclass
class SessionStartEvent:
    """A session was started, loaded or reloaded. ``reason``: startup|reload|new|resume|fork;
    ``previous_session_file`` for new/resume/fork."""

    reason: str = "startup"
    previous_session_file: str | None = None
    type: str = "session_start"


@dataclass
class SessionShutdownEvent:
    """The extension runtime is torn down. ``reason``: quit|reload|new|resume|fork."""

    reason: str = "quit"
    target_session_file: str | None = None
    type: str = "session_shutdown"


@dataclass
class SessionBeforeSwitchEvent:
    """Before ``/new`` (``reason="new"``) or ``/resume`` (``"resume"``, with ``target_session_file``);
    a handler may return ``{"cancel": True}``."""

    reason: str = "new"
    target_session_file: str | None = None
    type: str = "session_before_switch"


@dataclass
class SessionBeforeForkEvent:
    """Before ``/fork`` (``position="before"``) or ``/clone`` (``"at"``) of ``entry_id``; may cancel."""

    entry_id: str | None = None
    position: str = "before"
    type: str = "session_before_fork"


@dataclass
class SessionBeforeCompactEvent:
    """Before a compaction: ``preparation`` (what would be summarised), ``branch_entries``,
    ``custom_instructions``, ``signal``. A handler may return ``{"cancel": True}`` or
    ``{"compaction": {"summary", "first_kept_entry_id", "tokens_before", "details"?}}`` (its own summary)."""

    preparation: Any = None
    branch_entries: list[Any] = field(default_factory=list)
    custom_instructions: str | None = None
    signal: Any = None
    type: str = "session_before_compact"


@dataclass
class SessionCompactEvent:
    """A compaction was saved: ``compaction_entry``; ``from_extension`` when an extension wrote it."""

    compaction_entry: Any = None
    from_extension: bool = False
    type: str = "session_compact"


@dataclass
class SessionBeforeTreeEvent:
    """Before ``/tree`` (or RPC ``navigate_tree``) moves the leaf: ``preparation`` (pi's ``TreePreparation``)
    and the summary's abort ``signal``; see ``pi_tui/coding/extensions/tree_hooks.py`` for the results."""

    preparation: Any = None
    signal: Any = None
    type: str = "session_before_tree"


@dataclass
class ResourcesDiscoverEvent:
    """After ``session_start``: handlers may return ``{"skill_paths", "prompt_paths", "theme_paths"}``."""

    cwd: str = ""
    reason: str = "startup"
    type: str = "resources_discover"


@dataclass
class InputEvent:
    """The user's input before skill/template expansion. ``source``: interactive|rpc|extension.
    Results: ``{"action": "continue"}`` (default), ``{"action": "transform", "text", "images"?}``
    (chained), ``{"action": "handled"}`` (the agent is not run; the first one wins)."""

    text: str
    images: list[Any] = field(default_factory=list)
    source: str = "interactive"
    type: str = "input"


@dataclass
class BeforeAgentStartEvent:
    """After a prompt is accepted, before the agent runs. ``system_prompt`` is the chained prompt so far.
    Result: ``{"message": {"custom_type", "content", "display"?, "details"?}, "system_prompt": str}``;
    messages of all handlers are added (sent to the LLM), the system prompt chains, for this run only."""

    prompt: str
    images: list[Any] = field(default_factory=list)
    system_prompt: str = ""
    type: str = "before_agent_start"


@dataclass
class TurnStartEvent:
    """A turn starts (one LLM call plus its tools): ``turn_index`` counts from 0 per run, ``timestamp`` ms."""

    turn_index: int = 0
    timestamp: int = 0
    type: str = "turn_start"


class ContextEvent:
    """Before each LLM call: ``messages`` is a deep copy of what will be sent (before conversion), made
    the first time a handler reads it (a handler that does not look costs nothing); a handler may return
    ``{"messages": [...]}`` to replace it (chained). Changing the copy without returning it changes nothing."""

    type = "context"

    def __init__(self, messages: list[Any]) -> None:
        self._source = messages
        self._messages: list[Any] | None = None

    @property
    def messages(self) -> list[Any]:
        """The messages (a deep copy of the session's)."""
        if self._messages is None:
            self._messages = copy.deepcopy(self._source)
        return self._messages

    @messages.setter
    def messages(self, value: list[Any]) -> None:
        self._messages = value


@dataclass
class ToolCallEvent:
    """After ``tool_execution_start``, before the tool runs. ``input`` is mutable: changes made in place
    are what the tool receives (not validated again; later handlers see them). Result:
    ``{"block": True, "reason": str}`` blocks the call (the model gets ``reason`` as an error result).
    A handler that raises blocks the call too (fail-safe, pi docs/extensions.md "Error Handling")."""

    tool_name: str
    tool_call_id: str
    input: dict[str, Any]
    type: str = "tool_call"


@dataclass
class ToolResultEvent:
    """After the tool ran, before ``tool_execution_end``: ``content``, ``details``, ``is_error`` are the
    current result (after earlier handlers). Result: a partial patch ``{"content"?, "details"?,
    "is_error"?}``; omitted keys keep their values."""

    tool_name: str
    tool_call_id: str
    input: dict[str, Any]
    content: list[Any]
    details: Any = None
    is_error: bool = False
    type: str = "tool_result"


@dataclass
class UserBashEvent:
    """The user ran ``!cmd`` (``exclude_from_context`` for ``!!``). Result: ``{"result": {"output",
    "exit_code", "cancelled"?, "truncated"?}}`` replaces running it."""

    command: str
    exclude_from_context: bool = False
    cwd: str = ""
    type: str = "user_bash"


@dataclass
class ModelSelectEvent:
    """The model changed: ``model``, ``previous_model`` (None on the first), ``source``: set|cycle|restore."""

    model: Any
    previous_model: Any = None
    source: str = "set"
    type: str = "model_select"


@dataclass
class ThinkingLevelSelectEvent:
    """The thinking level changed (notification only)."""

    level: str
    previous_level: str | None = None
    type: str = "thinking_level_select"


@dataclass
class BeforeProviderRequestEvent:
    """The provider's request body is built and about to be sent (pi docs/extensions.md
    "before_provider_request"): ``payload`` is the body as the handlers before changed it. A handler returns
    None (unchanged) or the replacement body, which later handlers and the request get. Changes here are
    not reflected by ``ctx.get_system_prompt()``."""

    payload: Any
    type: str = "before_provider_request"


@dataclass
class AfterProviderResponseEvent:
    """The provider's HTTP response arrived, before its body is read: ``status`` and ``headers`` (lower-case
    names; empty for providers that do not expose them). Notification only."""

    status: int
    headers: dict[str, str] = field(default_factory=dict)
    type: str = "after_provider_response"


# ---------------------------------------------------------------------------------------------- results


@dataclass
class ToolCallResult:
    """``tool_call`` result: ``block`` the call with ``reason``."""

    block: bool = False
    reason: str | None = None


@dataclass
class ToolResultPatch:
    """``tool_result`` result: the fields given (not None) replace the current ones."""

    content: list[Any] | None = None
    details: Any = None
    is_error: bool | None = None


@dataclass
class InputResult:
    """``input`` result: ``action`` continue|transform|handled; ``text``/``images`` for transform."""

    action: str = "continue"
    text: str | None = None
    images: list[Any] | None = None


@dataclass
class BeforeAgentStartResult:
    """``before_agent_start`` result: a ``message`` to add and/or a replacement ``system_prompt``."""

    message: Any = None
    system_prompt: str | None = None


@dataclass
class CancelResult:
    """``session_before_*`` result: ``cancel`` the action; ``compaction`` (before_compact only): a summary."""

    cancel: bool = False
    compaction: Any = None
