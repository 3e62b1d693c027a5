"""One ACP session: an :class:`~pi_tui.coding.agent_session.AgentSession` with its update stream, permission
gate, mode and config options (ACP "Session Setup", "Prompt Turn", "Session Modes", "Session Config Options").

Updates leave in event order through one queue and one sender task per session; :meth:`AcpSession.flush`
waits until everything queued so far has been written (a prompt answers only after its last update; a
permission request goes out after its ``tool_call``).

Extensions: :attr:`AcpSession.ui` is the ACP :class:`~pi_tui.coding.extensions.ui.ExtensionUI` (dialogs as
permission requests); :meth:`start` loads the session's extensions with it (``start_mode_extensions``), and
:meth:`close` sends them ``session_shutdown``.

Prompting: :meth:`AcpSession.prompt` runs one turn and returns the ACP stop reason: ``end_turn``,
``max_tokens`` (the model stopped at its output limit) or ``cancelled`` (``session/cancel``; the run is
aborted, a running tool is stopped, queued prompts are dropped). A run that fails shows the error as a
message chunk and ends with ``end_turn``. A prompt sent while a turn runs is queued as pi-tui's editor does,
as a steering message (default) or a follow-up (setting ``acp.queuedPrompt``: ``"steer"`` or ``"followUp"``),
and answers when the run that takes it ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from acp import update_agent_message_text
from acp.helpers import update_available_commands, update_current_mode
from acp.schema import (
    ConfigOptionUpdate,
    PermissionOption,
    RequestPermissionResponse,
    SessionConfigOptionSelect,
    SessionConfigSelectOption,
    SessionInfoUpdate,
    SessionModeState,
    ToolCallUpdate,
)

from pi_tui.ai.models import get_supported_thinking_levels
from pi_tui.ai.types import THINKING_LEVELS, AssistantMessage
from pi_tui.coding.modes.acp.permissions import SESSION_MODES, AcpExtensionUI, PermissionGate
from pi_tui.coding.modes.acp.prompt_content import available_commands, expand_command
from pi_tui.coding.modes.acp.updates import Update, UpdateMapper

log = logging.getLogger(__name__)

MODEL_OPTION, THINKING_OPTION = "model", "thinking_level"


class AcpSession:
    """One ACP session over ``session`` (module docstring). ``client``: the SDK's connection to the client
    (``session_update``, ``request_permission``); ``default_mode``: a :data:`SESSION_MODES` id;
    ``queued_prompt``: ``"steer"`` or ``"followUp"``."""

    def __init__(self, session: Any, client: Any, *, default_mode: str = "ask", queued_prompt: str = "steer") -> None:
        self.session = session
        self.client = client
        self.session_id: str = session.session_id
        self.queued_prompt = queued_prompt
        self.mapper = UpdateMapper(session.cwd)
        self._queue: asyncio.Queue[Update] = asyncio.Queue()
        self._sender = asyncio.get_running_loop().create_task(self._send_loop())
        self._run: asyncio.Task[None] | None = None
        self._cancelled = False
        agent = session.agent
        self.gate = PermissionGate(ask=self.ask, flush=self.flush, started=self._started, cwd=session.cwd,
                                   previous=agent.before_tool_call, mode=default_mode)
        agent.before_tool_call = self.gate
        self.ui = AcpExtensionUI(self.ask, self._show, self._set_title)
        self._unsubscribe: Callable[[], None] = session.subscribe(self._on_event)

    # ------------------------------------------------------------------ update stream

    def enqueue(self, update: Update) -> None:
        """Queue one update for the client."""
        self._queue.put_nowait(update)

    def _on_event(self, event: Any) -> None:
        for update in self.mapper.map(event):
            self.enqueue(update)

    def terminal_created(self, terminal_id: str) -> None:
        """A client terminal runs a bash command of this session: show it in the tool call (``UpdateMapper``)."""
        for update in self.mapper.terminal_created(terminal_id):
            self.enqueue(update)

    def _started(self, call_id: str) -> None:
        self.enqueue(self.mapper.started(call_id))

    def _show(self, text: str) -> None:
        self.enqueue(update_agent_message_text(text))

    def _set_title(self, title: str) -> None:
        self.enqueue(SessionInfoUpdate(session_update="session_info_update", title=title))

    async def _send_loop(self) -> None:
        while True:
            update = await self._queue.get()
            try:
                await self.client.session_update(session_id=self.session_id, update=update)
            except ConnectionError:
                pass  # the client went away; keep draining so flush() returns
            except Exception:
                log.exception("could not send a session update")
            finally:
                self._queue.task_done()

    async def flush(self) -> None:
        """Wait until every update queued so far was written."""
        await self._queue.join()

    async def ask(self, tool_call: ToolCallUpdate, options: list[PermissionOption]) -> RequestPermissionResponse:
        """``session/request_permission`` for this session."""
        response: RequestPermissionResponse = await self.client.request_permission(
            session_id=self.session_id, tool_call=tool_call, options=options)
        return response

    def send_commands_soon(self) -> None:
        """Queue ``available_commands_update`` on the next loop turn (after the current response is written)."""
        asyncio.get_running_loop().call_soon(
            lambda: self.enqueue(update_available_commands(available_commands(self.session))))

    # ------------------------------------------------------------------ prompt / cancel

    @property
    def running(self) -> bool:
        """True while a turn runs."""
        return (self._run is not None and not self._run.done()) or bool(self.session.is_streaming)

    async def prompt(self, text: str, images: list[Any]) -> str:
        """Run (or queue) one prompt; returns the ACP stop reason (module docstring). Raises ``RuntimeError``
        when the session cannot start a run (no model, no key)."""
        text = expand_command(text, self.session)
        if self.running and self._run is not None:
            run = self._run
            if self.queued_prompt == "followUp":
                await self.session.follow_up(text, images or None)
            else:
                await self.session.steer(text, images or None)
            with contextlib.suppress(Exception):
                await asyncio.shield(run)
            await self.flush()
            return "cancelled" if self._cancelled else "end_turn"
        self._cancelled = False
        before = len(self.session.messages)
        self._run = asyncio.get_running_loop().create_task(self.session.prompt(text, images or None))
        try:
            await asyncio.shield(self._run)
        except asyncio.CancelledError:  # the request itself was cancelled (connection closed)
            await self.session.abort()
            raise
        finally:
            await self.flush()
        if self._cancelled:
            return "cancelled"
        last = next((m for m in reversed(self.session.messages[before:]) if isinstance(m, AssistantMessage)), None)
        if last is None:
            return "end_turn"
        if last.stop_reason == "aborted":
            return "cancelled"
        if last.stop_reason == "error":
            self._show(f"\n\nError: {last.error_message or 'the request failed'}\n")
            await self.flush()
        return "max_tokens" if last.stop_reason == "length" else "end_turn"

    async def cancel(self) -> None:
        """Abort the running turn (``session/cancel``): queued prompts are dropped, a tool is stopped."""
        if not self.running:
            return
        self._cancelled = True
        self.session.clear_queue()
        await self.session.abort()

    # ------------------------------------------------------------------ modes and config options

    def modes(self) -> SessionModeState:
        """The permission modes (:data:`SESSION_MODES`) and the current one."""
        return SessionModeState(current_mode_id=self.gate.mode, available_modes=list(SESSION_MODES))

    def set_mode(self, mode_id: str) -> None:
        """Switch the permission mode; raises ``ValueError`` for an unknown id."""
        if mode_id not in {m.id for m in SESSION_MODES}:
            raise ValueError(f"Unknown mode {mode_id!r} (expected one of: {', '.join(m.id for m in SESSION_MODES)})")
        self.gate.mode = mode_id
        self.enqueue(update_current_mode(mode_id))

    def config_options(self) -> list[SessionConfigOptionSelect]:
        """Model and thinking level as select options (values ``provider/id``; the levels the model supports)."""
        session = self.session
        model = session.model
        current = f"{model.provider}/{model.id}" if model is not None else ""
        models = [SessionConfigSelectOption(value=f"{m.provider}/{m.id}", name=m.name or m.id,
                                            description=m.provider) for m in session.available_models()]
        if current and current not in {o.value for o in models}:
            models.insert(0, SessionConfigSelectOption(value=current, name=model.name or model.id))
        supported = get_supported_thinking_levels(model) if model is not None else ["off"]
        levels = [SessionConfigSelectOption(value=level, name=level) for level in supported]
        return [
            SessionConfigOptionSelect(id=MODEL_OPTION, name="Model", category="model", type="select",
                                      current_value=current, options=models),
            SessionConfigOptionSelect(id=THINKING_OPTION, name="Thinking", category="thought_level",
                                      type="select", current_value=session.thinking_level, options=levels),
        ]

    def set_config_option(self, config_id: str, value: Any) -> list[SessionConfigOptionSelect]:
        """Set the model (``provider/id``) or thinking level; raises ``ValueError`` for an unknown option or
        value. Returns all options (the thinking level may change with the model; a level the model does not
        support is clamped, as everywhere in pi)."""
        session = self.session
        if config_id == MODEL_OPTION:
            provider, _, model_id = str(value).partition("/")
            model = session.models.find(provider, model_id)
            if model is None:
                raise ValueError(f"Model not found: {value}")
            session.set_model(model)
        elif config_id == THINKING_OPTION:
            if value not in THINKING_LEVELS:
                raise ValueError(f"Invalid thinking level {value!r} (expected one of: {', '.join(THINKING_LEVELS)})")
            session.set_thinking_level(str(value))
        else:
            raise ValueError(f"Unknown config option {config_id!r} (expected {MODEL_OPTION!r} or {THINKING_OPTION!r})")
        options = self.config_options()
        self.enqueue(ConfigOptionUpdate(session_update="config_option_update", config_options=options))
        return options

    async def start(self) -> None:
        """Load and start the session's extensions with the ACP UI (pi docs/extensions.md "Mode Behavior"); a
        failing extension is named on stderr and the session goes on without it."""
        from pi_tui.coding.extensions.modes import start_mode_extensions

        await start_mode_extensions(self.session, ui=self.ui,
                                    on_error=lambda error: log.warning("Extension error: %s", error.text))

    async def close(self) -> None:
        """Abort a run, stop sending, end the extensions (``session_shutdown``) and release the session."""
        with contextlib.suppress(Exception):
            await self.session.abort()
        self._unsubscribe()
        self._sender.cancel()
        from pi_tui.coding.extensions.modes import stop_mode_extensions

        with contextlib.suppress(Exception):
            await stop_mode_extensions(self.session)
        mcp = getattr(self.session, "mcp", None)
        if mcp is not None:  # stop the session's MCP servers (its own and the client's)
            with contextlib.suppress(Exception):
                await mcp.close()
        with contextlib.suppress(Exception):
            self.session.dispose()
