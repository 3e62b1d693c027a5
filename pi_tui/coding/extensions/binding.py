""":class:`SessionHost`: the :class:`~pi_tui.coding.extensions.host.ExtensionHost` over an ``AgentSession``
(what ``pi.*`` and ``ctx.*`` do to the session), with pi's delivery rules for messages sent by extensions
(pi's ``sendCustomMessage``/``sendUserMessage``).

Tools go through the session's ``ToolRegistry`` (``session.tools``), which rebuilds the system prompt. The
host remembers the built-in tools it was created with: an extension tool of the same name replaces the
built-in while loaded and unloading restores it. A new tool becomes active unless the ``--tools``
allow-list (``allowed_tools``) leaves it out (pi's ``_refreshToolRegistry``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from pi_tui.agent.events import MessageEndEvent, MessageStartEvent
from pi_tui.agent.types import AgentTool
from pi_tui.ai.types import ImageContent, TextContent

log = logging.getLogger(__name__)


class SessionHost:
    """ExtensionHost over ``session`` (module docstring). ``allowed_tools``: the ``--tools`` allow-list or
    None."""

    def __init__(self, session: Any, *, allowed_tools: Sequence[str] | None = None) -> None:
        self.session = session
        self.allowed_tools = set(allowed_tools) if allowed_tools is not None else None
        self.builtin_tools: dict[str, AgentTool] = dict(session.tools.all)
        self.pending_next_turn: list[Any] = []
        self.previous_session_file: str | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.run_ending = False
        """True from ``agent_end`` until the next ``agent_start`` (set by ``SessionExtensions``): the run is
        over but the agent is still streaming while ``agent_end`` handlers run. pi's session handles agent
        events after the agent settles, so there a message sent from ``agent_end`` finds the agent idle: here
        it is delivered once the session is idle, with the idle rules (a ``trigger_turn`` message starts a
        run, a user message is prompted), instead of being queued on a run that has ended and lost."""

    # ------------------------------------------------------------------ state

    @property
    def cwd(self) -> str:
        """The session's cwd."""
        return str(self.session.cwd)

    @property
    def session_manager(self) -> Any:
        """The session's SessionManager."""
        return self.session.session_manager

    @property
    def model(self) -> Any:
        """The current model."""
        return self.session.model

    @property
    def signal(self) -> Any:
        """The running agent's abort signal, None when idle."""
        return self.session.agent.signal if self.session.is_streaming else None

    def is_idle(self) -> bool:
        """True when the agent is not streaming."""
        return not self.session.is_streaming

    def has_pending_messages(self) -> bool:
        """True when messages are queued."""
        return bool(self.session.pending_message_count)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            self.session.notify("error", f"{type(exc).__name__}: {exc}")

    def abort(self) -> None:
        """Abort the run in the background."""
        self._spawn(self.session.abort())

    async def wait_for_idle(self) -> None:
        """Wait for the agent and its follow-on work."""
        await self.session.wait_for_idle()

    async def compact(self, custom_instructions: str | None = None) -> Any:
        """Compact now."""
        return await self.session.compact(custom_instructions)

    def get_context_usage(self) -> dict[str, Any] | None:
        """The session's context usage."""
        return self.session.get_context_usage()  # type: ignore[no-any-return]

    def get_system_prompt(self) -> str:
        """The agent's current system prompt."""
        return str(self.session.agent.state.system_prompt)

    # ------------------------------------------------------------------ messages

    def send_custom_message(self, message: Any, deliver_as: str, trigger_turn: bool) -> None:
        """pi's ``sendCustomMessage``: ``next_turn`` waits for the next prompt; while streaming ``follow_up``
        / ``steer`` queue it on the agent; idle with ``trigger_turn`` starts a run with it; idle without
        it is appended, saved and shown now."""
        session = self.session
        if deliver_as == "next_turn":
            self.pending_next_turn.append(message)
        elif session.is_streaming and self.run_ending:
            self._spawn(self._when_idle(lambda: self.send_custom_message(message, deliver_as, trigger_turn)))
        elif session.is_streaming:
            (session.agent.follow_up if deliver_as == "follow_up" else session.agent.steer)(message)
        elif trigger_turn:
            self._spawn(self._run_with(message))
        else:
            session.agent.state.messages.append(message)
            try:
                session.session_manager.append_custom_message_entry(
                    message.custom_type, message.content, message.display, message.details
                )
            except OSError as exc:
                session.notify("error", f"Cannot save the session: {exc.strerror or exc}")
            session._emit(MessageStartEvent(message=message))
            session._emit(MessageEndEvent(message=message))

    async def _when_idle(self, deliver: Any) -> None:
        await self.session.wait_for_idle()
        deliver()

    async def wait_for_deliveries(self) -> None:
        """Wait until the messages extensions sent are delivered and the runs they started are over."""
        while self._tasks or self.session.is_streaming:
            await asyncio.gather(*self._tasks, return_exceptions=True)
            await self.session.wait_for_idle()
            await asyncio.sleep(0)

    async def _run_with(self, message: Any) -> None:
        await self.session.agent.prompt([message])  # pi: ``agent.prompt(appMessage)``
        await self.session.wait_for_idle()

    def take_next_turn_messages(self) -> list[Any]:
        """The ``next_turn`` messages, removed (the session adds them to the next prompt)."""
        taken, self.pending_next_turn = self.pending_next_turn, []
        return taken

    def send_user_message(self, content: str | list[Any], deliver_as: str | None) -> None:
        """pi's ``sendUserMessage``: a user prompt with ``source="extension"`` (no command or template
        handling); while streaming ``deliver_as`` queues it and without one ``RuntimeError`` is raised."""
        if isinstance(content, str):
            text, images = content, []
        else:
            texts = [p.get("text", "") if isinstance(p, dict) else getattr(p, "text", "") for p in content
                     if (p.get("type") if isinstance(p, dict) else getattr(p, "type", None)) == "text"]
            text = "\n".join(texts)
            images = [ImageContent.model_validate(p) if isinstance(p, dict) else p for p in content
                      if (p.get("type") if isinstance(p, dict) else getattr(p, "type", None)) == "image"]
        session = self.session
        if session.is_streaming and self.run_ending:
            self._spawn(self._when_idle(lambda: self.send_user_message(content, deliver_as)))
            return
        if session.is_streaming:
            if deliver_as is None:
                from pi_tui.coding.agent_session import ALREADY_STREAMING

                raise RuntimeError(ALREADY_STREAMING)
            self._spawn(session.follow_up(text, images) if deliver_as == "follow_up" else session.steer(text, images))
            return
        self._spawn(self._prompt_from_extension(text, images))

    async def _prompt_from_extension(self, text: str, images: list[Any]) -> None:
        from pi_tui.coding.extensions.session_hooks import prompt_source

        with prompt_source("extension", expand=False):
            await self.session.prompt(text, images or None)

    def append_custom_entry(self, custom_type: str, data: Any) -> str:
        """A ``custom`` entry in the session file."""
        return str(self.session.session_manager.append_custom_entry(custom_type, data))

    def notify(self, level: str, text: str) -> Any:
        """A UI-only notification."""
        return self.session.notify(level, text)

    def add_artifact(self, title: str, kind: str, content: str, language: str | None, path: str | None) -> Any:
        """A UI-only artifact."""
        return self.session.add_artifact(title, kind, content, language, path)

    # ------------------------------------------------------------------ tools

    def all_tools(self) -> list[AgentTool]:
        """Every tool, built-in first."""
        return list(self.session.tools.all.values())

    def active_tool_names(self) -> list[str]:
        """Active tool names."""
        return list(self.session.tools.get_active())

    def set_active_tools(self, names: Sequence[str]) -> None:
        """Exactly ``names`` (known ones; others are ignored) active."""
        known = self.session.tools.all
        self.session.tools.set_active([n for n in names if n in known])

    def add_tool(self, tool: AgentTool) -> None:
        """Register or replace ``tool`` (module docstring)."""
        new = tool.name not in self.session.tools.all
        allowed = self.allowed_tools is None or tool.name in self.allowed_tools
        self.session.tools.register(tool, active=new and allowed)

    def remove_tools(self, names: Sequence[str]) -> None:
        """Forget ``names``; a built-in that was overridden comes back (keeping its active state)."""
        for name in names:
            builtin = self.builtin_tools.get(name)
            if builtin is not None:
                self.session.tools.register(builtin)
            else:
                self.session.tools.unregister(name)

    # ------------------------------------------------------------------ model, thinking, session

    def set_model(self, model: Any) -> bool:
        """Switch model; False when unknown or without a key (pi)."""
        session = self.session
        if isinstance(model, str):
            provider, _, model_id = model.partition("/")
            model = session.models.find(provider, model_id) if model_id else None
        if model is None or not session.models.has_auth(model):
            return False
        session.set_model(model)
        return True

    def get_thinking_level(self) -> str:
        """The thinking level."""
        return str(self.session.thinking_level)

    def set_thinking_level(self, level: str) -> None:
        """Set the thinking level."""
        self.session.set_thinking_level(level)

    def _cancelled(self) -> bool:
        hooks = getattr(self.session, "extensions", None)
        return bool(hooks is not None and hooks.last_switch_cancelled)

    async def new_session(self) -> bool:
        """``/new``; False when an extension cancelled it."""
        await self.session.new_session()
        return not self._cancelled()

    async def fork(self, entry_id: str, position: str = "before") -> bool:
        """``/fork`` (``before``) or a clone through ``entry_id`` (``at``); False when cancelled."""
        result = await self.session.fork(entry_id, position)
        return not (isinstance(result, dict) and result.get("cancelled"))

    async def switch_session(self, path: str) -> bool:
        """``/resume``; False when cancelled."""
        await self.session.switch_session(path)
        return not self._cancelled()

    def get_session_name(self) -> str | None:
        """The session name."""
        name = self.session.session_name
        return None if name is None else str(name)

    def set_session_name(self, name: str) -> None:
        """Set the session name."""
        self.session.set_session_name(name)


def text_of(content: Any) -> str:
    """Plain text of a content list (for notices)."""
    if isinstance(content, str):
        return content
    return "".join(getattr(b, "text", "") for b in content if isinstance(b, TextContent))
