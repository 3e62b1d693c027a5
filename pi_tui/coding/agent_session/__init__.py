"""The coding-agent session (pi's ``AgentSession``), composed of parts with explicit dependencies.

``from pi_tui.coding.agent_session import AgentSession`` is the entry point; ``create_agent_session``
(``factory.py``) builds a wired one. Not to be confused with :mod:`pi_tui.coding.session`, the persistence
package (SessionManager, entries, files) this one writes through.

Parts (each gets what it needs at construction: the Agent, a ``session_manager()`` getter because switching
replaces the manager, settings, and callables such as ``emit``/``notify``; no part reads another's state):

* ``session.py`` — :class:`AgentSession`: wires the parts, processes agent events, prompts, keeps pi's API;
* ``fanout.py`` — :class:`EventFanOut`: listeners of session events (``subscribe``/``emit``);
* ``recorder.py`` — :class:`TranscriptRecorder`: what agent events write to the session file, artifacts;
* ``prompting.py`` — :class:`Prompter`: ``prompt()`` from text to a finished run (§3.6);
* ``queues.py`` — :class:`PromptQueues`: steering/follow-up texts and ``queue_update``;
* ``ui_messages.py`` — :class:`UiMessages`: notifications, artifacts, the save-failure notice;
* ``retry.py`` — :class:`RetryController` (§3.10); ``compaction.py`` — :class:`Compactor` (§3.9);
* ``models.py`` — :class:`ModelSwitcher` (§3.7); ``stats.py`` — :class:`SessionStats` (§3.8);
* ``user_bash.py`` — :class:`UserBashRunner` (§3.11); ``switching.py`` — :class:`SessionSwitcher` (§3.4);
* ``tools.py`` — :class:`ToolRegistry`: known and active tools, system-prompt rebuild
  (``register``/``unregister``/``set_active``/``get_active``; built-in tools are registered by the factory);
* ``follow_on.py`` (retry/compaction continuations), ``wiring.py`` (the Agent subclass, credentials),
  ``events.py`` (session event models), ``settings.py`` (SessionSettings, ModelAccess),
  ``open_file.py`` (opening and locking the file), ``shutdown.py`` (settling before exit).

Extension seams (``hooks.py``: :class:`SessionHooks`, ``session.hooks``; every field None by default, and
each is called from one place):

* ``agent_event`` — ``AgentEventProcessor.handle``, before the app's listeners (``_emit`` → EventFanOut);
* ``input`` — first thing in ``Prompter.prompt``; ``before_agent_start`` — ``Prompter._start_run``;
* X
* ``tool_call`` / ``tool_result`` — ``AgentSession._before_tool_call`` / ``_after_tool_call`` (the Agent's
  ``before_tool_call``/``after_tool_call``);
* ``session_before_compact`` / ``session_compact`` — ``Compactor._summarise``;
* ``session_before_switch`` / ``session_before_fork`` — ``SessionSwitcher`` (``_before_switch``, ``fork``);
* ``model_select`` / ``thinking_level_select`` — ``ModelSwitcher._selected`` / ``_level_changed``;
* ``user_bash`` — ``UserBashRunner.execute``;
* ``session_start`` — ``AgentSession.start`` (the modes call it) and ``SessionSwitcher`` after a switch;
  ``session_shutdown`` — ``AgentSession.shutdown`` (from ``settle_session``).

Tools added at run time (extensions, MCP) go through ``session.tools`` (:class:`ToolRegistry`).

Importing the package imports none of its modules: each name below loads its module on first use
(``pi_tui.lazy_exports``; issue 15, the first paint must not pay for modules it does not use).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_tui.lazy_exports import lazy_package

if TYPE_CHECKING:
    from pi_tui.coding.agent_session.compaction import OVERFLOW_FAILED, CompactionError
    from pi_tui.coding.agent_session.hooks import SessionHooks
    from pi_tui.coding.agent_session.session import AgentSession
    from pi_tui.coding.agent_session.tools import ToolRegistry
    from pi_tui.coding.agent_session.wiring import ALREADY_STREAMING, EMPTY_RESPONSE, SessionAgent

_EXPORTS = {
    "OVERFLOW_FAILED": ".compaction", "CompactionError": ".compaction", "SessionHooks": ".hooks",
    "AgentSession": ".session", "ToolRegistry": ".tools", "ALREADY_STREAMING": ".wiring", "EMPTY_RESPONSE": ".wiring",
    "SessionAgent": ".wiring",
}
_lazy_getattr, __dir__ = lazy_package(__name__, _EXPORTS)


def __getattr__(name: str) -> object:
    """A re-exported name, loaded on first use; ``_SessionAgent`` is the name older callers and tests use."""
    return _lazy_getattr("SessionAgent" if name == "_SessionAgent" else name)

__all__ = [
    "ALREADY_STREAMING",
    "EMPTY_RESPONSE",
    "OVERFLOW_FAILED",
    "AgentSession",
    "CompactionError",
    "SessionAgent",
    "SessionHooks",
    "ToolRegistry",
    "_SessionAgent",
]
