"""AgentSession: one Agent + one SessionManager, shared by every mode (pi-reference §3.1, §3.5–§3.11).

The session is composed of parts, each given what it needs at construction (see the package docstring);
this module wires them and keeps pi's AgentSession API, delegating to the parts.

Event processing (§3.5) is ``event_processing.AgentEventProcessor``, the Agent's listener: the Agent awaits it
for every event, in order, so processing is strictly ordered and persistence precedes tool hooks without an
extra queue. For each event:

1. user ``message_start``: the first queued steering (else follow-up) text equal to the message text is
   removed and ``queue_update`` is emitted *before* subscribers see the ``message_start``;
2. toolResult ``message_end``: ``details["artifacts"]`` are taken out of the result (pi-tui);
3. the ``agent_event`` hook (extensions), then every subscriber (sync callables, in subscription order);
4. ``message_end``: persisted (``custom`` → custom_message entry, others → message entry; a toolResult was
   already written at its ``tool_execution_end``, before step 3, so a crash mid-batch keeps it); artifacts from
   step 2 become ``artifact`` messages right after the toolResult (state + file + message_start/end);
   a successful assistant ends a retry cycle with ``auto_retry_end{success:true}``;
5. ``agent_end``: retry (§3.10) or compaction check (§3.9) run as a follow-on task that :meth:`prompt` awaits.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pi_tui.agent import Agent
from pi_tui.agent.types import AgentTool
from pi_tui.ai.types import AssistantMessage, ImageContent, Model, TextContent
from pi_tui.coding.agent_session.attachments import PromptAttachers
from pi_tui.coding.agent_session.compaction import Compactor
from pi_tui.coding.agent_session.event_processing import AgentEventProcessor
from pi_tui.coding.agent_session.events import SessionInfoChangedEvent
from pi_tui.coding.agent_session.fanout import EventFanOut, SessionListener
from pi_tui.coding.agent_session.follow_on import FollowOn, continue_agent
from pi_tui.coding.agent_session.hooks import (
    AgentSeams,
    SessionHooks,
    await_hook,
)
from pi_tui.coding.agent_session.models import ModelCycleResult, ModelSwitcher
from pi_tui.coding.agent_session.prompting import Prompter
from pi_tui.coding.agent_session.queues import PromptQueues
from pi_tui.coding.agent_session.recorder import TranscriptRecorder
from pi_tui.coding.agent_session.retry import RetryController
from pi_tui.coding.agent_session.settings import ModelAccess, SessionSettings
from pi_tui.coding.agent_session.stats import SessionStats
from pi_tui.coding.agent_session.stop_fence import StopFence, StopMark
from pi_tui.coding.agent_session.switching import SessionSwitcher
from pi_tui.coding.agent_session.tools import ToolRegistry
from pi_tui.coding.agent_session.tree_navigation import TreeNavigator
from pi_tui.coding.agent_session.ui_messages import UiMessages
from pi_tui.coding.agent_session.unstarted import UnstartedPrompts
from pi_tui.coding.agent_session.user_bash import UserBashRunner
from pi_tui.coding.agent_session.wiring import (
    SessionAgent,
    api_key_lookup,
    credential_stream,
)
from pi_tui.coding.extensions.registries import CommandRegistry
from pi_tui.coding.messages import (
    ArtifactMessage,
    NotificationMessage,
    convert_to_llm,
    message_role,
    register_coding_roles,
)
from pi_tui.coding.session.lock import SessionOwnership
from pi_tui.coding.session.session_manager import SessionManager
from pi_tui.coding.user_bash import BashResult

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from pi_tui.coding.config.model_resolver import ScopedModel
    from pi_tui.coding.config.settings import SettingsManager
    from pi_tui.coding.resources.loader import ResourceLoader


class AgentSession:
    """A coding-agent session (pi's ``AgentSession``). Build it with ``create_agent_session``.

    ``agent``: the wired Agent (convert_to_llm, tools, system prompt, model); ``session_manager``: H6's
    SessionManager; ``models``: model/key access; ``settings``: behaviour settings. ``offline``: the built-in
    offline demo model is in use. ``tools``: every known tool (the agent's active ones are added);
    ``rebuild_system_prompt(active_tools)``: the prompt for a new active-tool list (None: never rebuilt);
    ``settings_manager``: where picked models/levels are saved (None: nowhere); ``last_assistant``: the last
    assistant message of a resumed transcript. ``sleep`` (tests) replaces
    ``asyncio.sleep`` for retry waits (``session._sleep`` may also be replaced later).
    ``commands``: the slash-command registry every front end reads (built-ins, extensions, templates,
    skills, MCP prompts; ``pi_tui.coding.extensions.registries``); a new empty one when None.
    ``resources``: the skills/templates/context-file loader (``pi_tui.coding.resources.loader``; None in tests).
    """

    def __init__(
        self,
        *,
        agent: Agent,
        session_manager: SessionManager,
        models: ModelAccess,
        settings: SessionSettings | None = None,
        cwd: str,
        offline: bool = False,
        tools: Sequence[AgentTool] = (),
        rebuild_system_prompt: Callable[[list[AgentTool]], str] | None = None,
        settings_manager: SettingsManager | None = None,
        last_assistant: AssistantMessage | None = None,
        sleep: Callable[[float], Any] | None = None,
        commands: CommandRegistry | None = None,
        resources: ResourceLoader | None = None,
    ) -> None:
        register_coding_roles()
        self.agent = agent
        self.session_manager = session_manager
        self.models = models
        self.settings = settings or SessionSettings()
        self.cwd = cwd
        self.commands = commands if commands is not None else CommandRegistry()
        self.settings_manager = settings_manager
        self.resources = resources
        self._offline = offline
        self._sleep = sleep or asyncio.sleep
        self.startup_warnings: list[str] = []
        self.pending_model: Any = None  # a --model waiting for extension providers (pending_model.py)
        self.model_error: str | None = None  # that --model still matched nothing once extensions loaded
        self.ownership: SessionOwnership | None = None  # the write guard (None: --no-session); set by the factory
        self.hooks = SessionHooks()
        """The extension seams (:class:`~pi_tui.coding.agent_session.hooks.SessionHooks`)."""
        manager: Callable[[], SessionManager] = lambda: self.session_manager  # noqa: E731 (replaced on switch)
        resume = partial(continue_agent, agent)
        self._fanout = EventFanOut()
        self._fence = StopFence()  # every stop (abort, dispose, a switch) ends the run's post-run work
        self.tools = ToolRegistry(agent, tools, rebuild_system_prompt)
        self._ui = UiMessages(agent=agent, session_manager=manager, emit=self._emit)
        self._queues = PromptQueues(agent=agent, emit=self._emit)
        self._follow_on = FollowOn()
        self._recorder = TranscriptRecorder(
            session_manager=manager, write_failed=self._ui.write_failed, append_ui_message=self._ui.append
        )
        self._compactor = Compactor(
            agent=agent, session_manager=manager, models=models, settings=self.settings, emit=self._emit,
            notify=self._ui.notify, sleep=self._wait, abort_retry=self.abort_retry,
            continue_run=resume, hooks=self.hooks, fence=self._fence,
        )
        self._retry = RetryController(
            agent=agent, settings=self.settings, emit=self._emit, notify=self._ui.notify, sleep=self._wait,
            continue_run=resume, check_compaction=self._compactor.check,
        )
        self._models = ModelSwitcher(
            agent=agent, session_manager=manager, models=models,
            default_thinking_level=lambda: self.settings.default_thinking_level,
            settings_manager=lambda: self.settings_manager, emit=self._emit, notify=self._ui.notify, hooks=self.hooks,
        )
        self._stats = SessionStats(agent=agent, session_manager=manager, model=lambda: self.model)
        self._bash = UserBashRunner(
            agent=agent, session_manager=manager, settings=self.settings, cwd=cwd,
            is_streaming=lambda: self.is_streaming, write_failed=self._ui.write_failed, hooks=self.hooks,
        )
        self._prompter = Prompter(
            agent=agent, models=models, hooks=self.hooks, model=lambda: self.model,
            is_retrying=lambda: self.is_retrying, abort_retry=self.abort_retry, follow_on=self._follow_on,
            queues=self._queues, flush_pending_bash=self._bash.flush_pending, check_compaction=self._compactor.check,
            stop_mark=self._fence.mark,
        )
        self._switcher = SessionSwitcher(
            agent=agent, session_manager=manager, set_session_manager=self._set_manager, abort=self.abort,
            clear_queue=self.clear_queue, record_initial_settings=self._models.record_initial_settings,
            restore_from_context=self._models.restore_from_context, loaded=self._file_loaded,
            emit=self._emit, hooks=self.hooks,
        )
        self._tree = TreeNavigator(
            agent=agent, session_manager=manager, models=models, reserve_tokens=self._branch_reserve_tokens,
            emit=self._emit, hooks=self.hooks, summary_retry=lambda: self._compactor.summary_retry("branchSummary"),
            is_compacting=lambda: self.is_compacting,
        )
        self._events = AgentEventProcessor(
            fence=self._fence, recorder=self._recorder, compactor=self._compactor, retry=self._retry,
            queues=self._queues, follow_on=self._follow_on, hooks=self.hooks, emit=self._emit,
            notify=lambda level, text: self.notify(level, text), last_assistant=last_assistant,
        )
        agent.convert_to_llm = self._convert_to_llm
        AgentSeams(self.hooks).install(agent)  # seams: context, tool_call, tool_result
        agent.get_api_key = api_key_lookup(agent, models)
        agent.stream_fn = credential_stream(models, self.settings)
        agent.session_id = session_manager.get_session_id()
        if isinstance(agent, SessionAgent):
            agent.stop_after_turn = self._compactor.should_stop_after_turn
        agent.max_repeated_tool_failures = self.settings.max_repeated_tool_failures or None
        agent.list_tools_when_unknown = True  # issue 10 class 5
        self._unsubscribe_agent = agent.subscribe(self._events.handle)

    # ------------------------------------------------------------------ wiring helpers

    def _set_manager(self, manager: SessionManager) -> None:
        self.session_manager = manager

    def _wait(self, seconds: float) -> Any:
        return self._sleep(seconds)  # looked up per call: tests replace ``session._sleep``

    def _branch_reserve_tokens(self) -> int:
        settings = self.settings_manager
        return int(settings.get_branch_summary_settings()["reserveTokens"]) if settings is not None else 16384

    def _file_loaded(self, last_assistant: AssistantMessage | None) -> None:
        self._ui.new_file()
        self._events.last_assistant = last_assistant

    # ------------------------------------------------------------------ subscribers (the event fan-out)

    def subscribe(self, listener: SessionListener) -> Callable[[], None]:
        """Add ``listener(event)`` (sync; called in order for every AgentSessionEvent); returns unsubscribe."""
        return self._fanout.subscribe(listener)

    def _emit(self, event: Any) -> None:
        self._fanout.emit(event)

    # ------------------------------------------------------------------ simple properties

    @property
    def messages(self) -> list[Any]:
        """The live transcript (agent messages, UI-only ones included)."""
        return self.agent.state.messages

    @property
    def is_streaming(self) -> bool:
        """True while the agent runs."""
        return self.agent.state.is_streaming

    @property
    def is_offline_model(self) -> bool:
        """True when the built-in offline demo model is in use."""
        from pi_tui.coding.offline_model import is_offline_model

        return is_offline_model(self.model)

    @property
    def all_tools(self) -> dict[str, AgentTool]:
        """Every known tool by name (``tools.all``)."""
        return self.tools.all

    @property
    def steering_messages(self) -> list[str]:
        """Texts of queued steering messages (UI list)."""
        return self._queues.steering

    @property
    def follow_up_messages(self) -> list[str]:
        """Texts of queued follow-up messages (UI list)."""
        return self._queues.follow_up_texts

    @property
    def pending_message_count(self) -> int:
        """Number of queued steering + follow-up messages."""
        return len(self._queues)

    @property
    def session_file(self) -> str | None:
        """Path of the session file (None for in-memory sessions)."""
        path = self.session_manager.get_session_file()
        return str(path) if path is not None else None

    @property
    def session_id(self) -> str:
        """The session's UUIDv7."""
        return self.session_manager.get_session_id()

    @property
    def session_name(self) -> str | None:
        """The session's display name."""
        return self.session_manager.get_session_name()

    def set_session_name(self, name: str) -> None:
        """Rename the session (a ``session_info`` entry) and emit ``session_info_changed``."""
        self.session_manager.append_session_info(name)
        self._emit(SessionInfoChangedEvent(name=self.session_manager.get_session_name()))

    # ------------------------------------------------------------------ agent wiring

    def _convert_to_llm(self, messages: list[Any]) -> list[Any]:
        return convert_to_llm(messages, block_images=self.settings.block_images)

    # ------------------------------------------------------------------ prompting (§3.6)

    async def prompt(self, text: str, images: Sequence[ImageContent] | None = None,
                     streaming_behavior: str | None = None) -> None:
        """Send a user message and wait for the run (and any retry/compaction continuation) to finish
        (:meth:`Prompter.prompt`: queues while streaming with ``streaming_behavior``; raises ``RuntimeError``
        with pi's messages when streaming without it, without a model or without a key)."""
        await self._prompter.prompt(text, images, streaming_behavior)

    async def steer(self, text: str, images: Sequence[ImageContent] | None = None) -> None:
        """Queue a steering message (delivered after the current tool batch); emits ``queue_update``."""
        text = self._prompter.expand(text)
        self._queues.steer(text, [*(images or []), *await self._prompter.attachers.blocks(text)])

    async def follow_up(self, text: str, images: Sequence[ImageContent] | None = None) -> None:
        """Queue a follow-up message (delivered when the agent would stop); emits ``queue_update``."""
        text = self._prompter.expand(text)
        self._queues.follow_up(text, [*(images or []), *await self._prompter.attachers.blocks(text)])

    @property
    def prompt_attachers(self) -> PromptAttachers:
        """What adds content blocks to a user message for what its text mentions (MCP ``@server:uri``)."""
        return self._prompter.attachers

    @property
    def unstarted_prompts(self) -> UnstartedPrompts:
        """The prompts asked for whose run has not started (the MCP first-prompt wait): ``take()`` them on quit
        or Escape (they end without a run; :mod:`.unstarted`)."""
        return self._prompter.unstarted

    def clear_queue(self) -> tuple[list[str], list[str]]:
        """Empty both queues; returns the ``(steering, follow_up)`` texts (for the editor); emits ``queue_update``."""
        return self._queues.clear()

    def stop_mark(self) -> StopMark:
        """A mark that reports ``stopped`` once :meth:`abort` (or another stop) was called after now
        (:mod:`.stop_fence`; the MCP first-prompt wait ends on it)."""
        return self._fence.mark()

    async def abort(self) -> None:
        """Cancel a retry wait or compaction, abort the run and wait until the agent is idle; the stopped run
        starts no retry, compaction or continuation afterwards (pi 0.86.0, :mod:`.stop_fence`)."""
        self._fence.stop()
        self.abort_retry()
        self.abort_compaction()
        self._tree.abort()
        self.agent.abort()
        await self.agent.wait_for_idle()

    async def wait_for_idle(self) -> None:
        """Wait for the agent and any retry/compaction continuation."""
        await self.agent.wait_for_idle()
        await self._follow_on.wait()

    # ------------------------------------------------------------------ lifecycle (seams: session_start/shutdown)

    async def start(self, reason: str = "startup") -> None:
        """Seam ``session_start``: the mode calls this once its UI (if any) is ready."""
        await await_hook(self.hooks.session_start, reason)

    async def shutdown(self) -> None:
        """Seam ``session_shutdown``: the process is about to exit (after the session settled)."""
        await await_hook(self.hooks.session_shutdown)

    def dispose(self) -> None:
        """Stop everything the session runs (the agent run, a retry wait, a compaction, a branch summary, a user
        ``!cmd``; pi 0.77.0, #5029), then unsubscribe from the agent (the session stops processing events)."""
        self._fence.stop()
        for stop in (self.abort_retry, self.abort_compaction, self._tree.abort, self._bash.abort, self.agent.abort):
            try:
                stop()
            except Exception:  # dispose must succeed whatever one abort does
                log.exception("stopping session work on dispose failed")
        self._unsubscribe_agent()

    # ------------------------------------------------------------------ UI-only messages

    def notify(self, level: str, text: str, *, persist: bool = True) -> NotificationMessage:
        """Add a UI-only notification (``info``/``warning``/``error``) to the transcript and the file
        (``persist=False``: shown only, for what is about this run: :meth:`UiMessages.notify`)."""
        return self._ui.notify(level, text, persist=persist)

    def add_artifact(
        self, title: str, kind: str, content: str, language: str | None = None, path: str | None = None
    ) -> ArtifactMessage:
        """Add a UI-only artifact (markdown|code|diff|text|image) to the transcript and the file."""
        return self._ui.add_artifact(title, kind, content, language, path)

    def get_last_assistant_text(self) -> str | None:
        """Text of the last assistant message that has text (None when there is none): ``/copy`` and RPC
        ``get_last_assistant_text``. Replies without text (a tool call interrupted by Esc, a provider error, an
        empty answer) are skipped, so the previous answer is copied (pi 1.6.0, #12119)."""
        for message in reversed(self.messages):
            if message_role(message) == "assistant":
                text = "".join(b.text for b in message.content if isinstance(b, TextContent))
                if text.strip():
                    return text
        return None

    # ------------------------------------------------------------------ retry (RetryController)

    @property
    def is_retrying(self) -> bool:
        """True from ``auto_retry_start`` until the retry cycle ends."""
        return self._retry.is_retrying

    @property
    def retry_attempt(self) -> int:
        """Current retry attempt (0 when not retrying)."""
        return self._retry.attempt

    def set_auto_retry_enabled(self, enabled: bool) -> None:
        """Turn auto-retry on or off (``retry.enabled``; saved to settings.json as pi's ``setAutoRetryEnabled``)."""
        self.settings.retry.enabled = enabled
        self._models.save_preference("set_retry_enabled", enabled)

    def abort_retry(self) -> None:
        """Cancel a pending retry wait (the cycle ends with ``Retry cancelled``)."""
        self._retry.abort()

    # ------------------------------------------------------------------ compaction (Compactor)

    @property
    def is_compacting(self) -> bool:
        """True while a compaction runs."""
        return self._compactor.is_compacting

    def set_auto_compaction_enabled(self, enabled: bool) -> None:
        """Turn automatic compaction on or off (``compaction.enabled``; saved to settings.json as pi's
        ``setAutoCompactionEnabled``)."""
        self.settings.compaction.enabled = enabled
        self._models.save_preference("set_compaction_enabled", enabled)

    def set_queue_mode(self, which: str, mode: str) -> None:
        """``which`` ``steering``/``follow_up``: ``one-at-a-time`` or ``all`` for this session, saved to
        settings.json (pi's ``setSteeringMode``/``setFollowUpMode``)."""
        setattr(self.agent, f"{which}_mode", mode)
        setattr(self.settings, f"{which}_mode", mode)
        self._models.save_preference(f"set_{which}_mode", mode)

    def abort_compaction(self) -> None:
        """Cancel a running compaction (its summariser call is aborted)."""
        self._compactor.abort()

    async def compact(self, custom_instructions: str | None = None) -> dict[str, Any]:
        """Compact now (``/compact``); see :meth:`Compactor.compact` (raises ``CompactionError``)."""
        return await self._compactor.compact(custom_instructions)

    def compaction_refusal(self) -> str | None:
        """Why ``compact()`` now would have nothing to do, or None (:meth:`Compactor.refusal`)."""
        return self._compactor.refusal()

    # ------------------------------------------------------------------ model and thinking (ModelSwitcher)

    @property
    def model(self) -> Model | None:
        """The active model (None when none is selected)."""
        return self._models.model

    @property
    def thinking_level(self) -> str:
        """The active thinking level (off|minimal|low|medium|high|xhigh)."""
        return self._models.thinking_level

    def available_models(self) -> list[Model]:
        """Models with configured auth (the offline demo model included when it is active)."""
        return self._models.available_models()

    def set_model(self, model: Model, *, reason: str = "set", announce: bool = True) -> None:
        """Switch to ``model``; raises ``ValueError`` without auth (see :meth:`ModelSwitcher.set_model`)."""
        self._models.set_model(model, reason=reason, announce=announce)

    def cycle_model(self, direction: str = "forward", *, announce: bool = True) -> ModelCycleResult | None:
        """Next (or previous) model of the scope (else of the available ones), wrapping; None when only one."""
        return self._models.cycle_model(direction, announce=announce)

    @property
    def scoped_models(self) -> list[ScopedModel]:
        """The models Ctrl+P cycles through (pi: ``--models`` / ``enabledModels``); empty means all."""
        return list(self._models.scoped_models)

    def set_scoped_models(self, scoped: Sequence[ScopedModel]) -> None:
        """Replace the cycling scope for this session (pi's ``setScopedModels``; nothing is saved)."""
        self._models.scoped_models = list(scoped)

    def set_thinking_level(self, level: str) -> None:
        """Set the thinking level (clamped to the model); records and emits only when it changed."""
        self._models.set_thinking_level(level)

    def cycle_thinking_level(self) -> str | None:
        """Next supported level (wrapping, ``off`` included); None when the model has no reasoning."""
        return self._models.cycle_thinking_level()

    def record_initial_settings(self) -> None:
        """A new session's first entries: ``model_change`` and ``thinking_level_change``."""
        self._models.record_initial_settings()

    _record_initial_settings = record_initial_settings  # the name tests and older callers use

    # ------------------------------------------------------------------ usage (SessionStats)

    def get_context_usage(self) -> dict[str, Any] | None:
        """Context tokens in use and the share of the model's window (pi's ``getContextUsage``)."""
        return self._stats.get_context_usage()

    def get_session_totals(self) -> dict[str, Any]:
        """The footer's totals over every assistant entry of the session file."""
        return self._stats.get_session_totals()

    def get_session_stats(self) -> dict[str, Any]:
        """pi's SessionStats for the current state (counts, tokens, cost, context usage)."""
        return self._stats.get_session_stats()

    # ------------------------------------------------------------------ user bash (UserBashRunner)

    async def execute_bash(
        self, command: str, on_chunk: Callable[[str], None] | None = None, exclude_from_context: bool = False
    ) -> BashResult:
        """Run a user ``!cmd`` (see :meth:`UserBashRunner.execute`)."""
        return await self._bash.execute(command, on_chunk, exclude_from_context)

    @property
    def is_bash_running(self) -> bool:
        """True while a user bash command runs."""
        return self._bash.is_running

    def abort_bash(self) -> None:
        """Kill the running user bash command (no-op when none)."""
        self._bash.abort()

    def flush_pending_bash(self) -> None:
        """Record user bash runs that ended while the agent streamed."""
        self._bash.flush_pending()

    # ------------------------------------------------------------------ sessions (SessionSwitcher) and export

    async def new_session(self) -> None:
        """Abort, clear queues and start an empty session (same model and thinking level)."""
        await self._switcher.new_session()

    async def switch_session(self, path: str | Path, manager: SessionManager | None = None) -> None:
        """Abort and load another session file (``manager``: the file already opened)."""
        await self._switcher.switch_session(path, manager)

    def get_fork_messages(self, branch_only: bool = False) -> list[dict[str, str]]:
        """User messages that can be forked from: ``[{entryId, text}]``, in file order (``branch_only``: the
        current branch's only)."""
        return self._switcher.get_fork_messages(branch_only)

    async def fork(self, entry_id: str, position: str = "before") -> dict[str, Any]:
        """New session = this branch up to the parent of user message ``entry_id`` (``before``; returns
        ``{text, cancelled}``) or through ``entry_id`` (``at``; ``{cancelled}``): ``SessionSwitcher.fork``."""
        return await self._switcher.fork(entry_id, position)

    async def clone(self) -> dict[str, Any]:
        """New session holding a copy of the current branch; returns ``{cancelled}`` (``SessionSwitcher.clone``)."""
        return await self._switcher.clone()

    # ------------------------------------------------------------------ the session tree (TreeNavigator)

    async def navigate_tree(self, target_id: str, *, summarize: bool = False,
                            custom_instructions: str | None = None, replace_instructions: bool = False,
                            label: str | None = None) -> dict[str, Any]:
        """Move the leaf to ``target_id`` (pi's ``navigateTree``; :meth:`TreeNavigator.navigate`): returns
        ``{cancelled, aborted?, editorText?, summaryEntry?}``."""
        return await self._tree.navigate(target_id, summarize=summarize, custom_instructions=custom_instructions,
                                         replace_instructions=replace_instructions, label=label)

    def branch_entries_to_summarize(self, target_id: str) -> int:
        """How many entries leaving the leaf for ``target_id`` would summarise (0: nothing to offer)."""
        return len(self._tree.entries_to_summarize(target_id).entries)

    @property
    def is_summarizing_branch(self) -> bool:
        """True while a branch summary request runs."""
        return self._tree.is_summarizing

    def abort_branch_summary(self) -> None:
        """Cancel a running branch summary (navigation is then cancelled)."""
        self._tree.abort()

    def set_entry_label(self, entry_id: str, label: str | None) -> None:
        """Set (or clear with None/empty) the label of ``entry_id`` (a ``label`` entry; pi's ``setLabel``);
        raises ``KeyError`` (``EntryNotFoundError``) for an unknown id."""
        self.session_manager.append_label_change(entry_id, label)

    def export_markdown(self, path: str | None = None) -> str:
        """Write the transcript as Markdown; returns the path (default: next to the session, or cwd)."""
        from pi_tui.coding.export import export_markdown

        return export_markdown(self, path)

    def export_html(self, path: str | None = None, theme: str | None = None) -> str:
        """Write the session as a standalone HTML page (``theme``: a theme name or ``.json`` path, default the
        settings' theme); returns the path."""
        from pi_tui.coding.export import export_html

        return export_html(self, path, theme)

