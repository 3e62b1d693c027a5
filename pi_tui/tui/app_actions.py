"""What the editor's keys do (pi-reference §3.14 keybindings, Escape semantics, submit flow). Mixin of ``PiApp``.

Submit flow: slash commands run locally; ``!cmd``/``!!cmd`` run user bash; while the agent works Enter queues a
steering message and the follow-up key a follow-up; idle text is sent with ``session.prompt`` in a worker
(errors shown as ``Error: …``). Escape while working moves the queued texts (steering, then follow-ups, then
the editor's text, joined by blank lines) into the editor, clears the queues and aborts.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.app import App
from textual.worker import Worker

if TYPE_CHECKING:
    from pi_tui.tui.session_protocol import TuiSession

from pi_tui.tui.commands import classify_submit
from pi_tui.tui.log_setup import log
from pi_tui.tui.session_adapter import maybe_await, queued_texts
from pi_tui.tui.widgets.prompt_input import PromptInput
from pi_tui.tui.widgets.transcript_items import (
    ArtifactItem,
    AssistantItem,
    BashItem,
    SummaryItem,
    ToolItem,
    UserItem,
)

_Base = App

DOUBLE_PRESS = 0.5  # seconds (pi-reference Appendix B)


class AppActions(_Base):
    """Key actions and the submit flow."""

    if TYPE_CHECKING:
        session: TuiSession | None
        transcript: Any
        tool_panel: Any
        queue_view: Any
        status_line: Any
        prompt_input: Any
        keymap: Any
        ctx: Any
        pi_theme: Any
        cwd: str
        working: bool
        local_models: list[Any]
        _last_clear: float
        session_error: str | None
        compacting: bool
        bash_running: bool
        compaction_queue: list[tuple[str, str]]
        session_changed: asyncio.Event

        def add_notice(self, level: str, text: str) -> Any: ...
        def refresh_footer(self) -> None: ...
        def update_offline_notice(self) -> None: ...
        def update_prompt_mode(self) -> None: ...
        def update_title(self) -> None: ...
        def rebuild_transcript(self) -> None: ...
        def set_working(self, working: bool) -> None: ...
        def set_pi_theme(self, name: str) -> None: ...
        def now(self) -> float: ...
        def run_slash(self, text: str) -> bool: ...
        def action_quit_app(self) -> None: ...
        def save_setting(self, setter: str, *args: Any) -> None: ...

    def on_prompt_input_action_requested(self, message: PromptInput.ActionRequested) -> None:
        message.stop()
        if message.text is not None:  # submit / follow-up: the text the editor held at that key
            self._submit(message.text, "follow_up" if message.action == "app.message.followUp" else "steer")
            return
        if message.action == "app.clear" and message.cleared:
            self.action_clear(clear_editor=False)
            return
        self.dispatch_action(message.action)

    def on_prompt_input_slash_choices(self, message: PromptInput.SlashChoices) -> None:
        message.stop()
        self.add_notice("status", "Commands: " + "  ".join(message.choices))

    def on_text_area_changed(self, event: Any) -> None:
        if event.text_area is self.prompt_input:
            text = self.prompt_input.text
            was_bash = getattr(self, "_bash_mode", False)
            now_bash = text.startswith("!")
            if was_bash != now_bash:
                self._bash_mode = now_bash
                self.update_prompt_mode()

    def dispatch_action(self, action: str) -> None:
        """Run a pi action id (from the editor or the palette)."""
        handler = {
            "tui.input.submit": lambda: self._submit_from_editor("steer"),
            "app.message.followUp": lambda: self._submit_from_editor("follow_up"),
            "app.message.dequeue": self.action_dequeue,
            "app.interrupt": lambda: self.run_worker(self.action_interrupt()),
            "app.clear": self.action_clear,
            "app.exit": self.action_quit_app,
            "app.thinking.cycle": self.action_cycle_thinking,
            "app.model.cycleForward": lambda: self.action_cycle_model("forward"),
            "app.model.cycleBackward": lambda: self.action_cycle_model("backward"),
            "app.model.select": lambda: self.run_slash("/model"),
            "app.tools.expand": self.action_toggle_expand,
            "app.thinking.toggle": self.action_toggle_thinking,
            "app.tools.panel": self.action_toggle_tools,
            "app.commandPalette": self.action_command_palette,
            "app.scroll.pageUp": lambda: self.transcript.scroll_page(-1),
            "app.scroll.pageDown": lambda: self.transcript.scroll_page(1),
            "app.scroll.top": self.transcript.scroll_home_now,
            "app.scroll.bottom": self.transcript.scroll_end_now,
        }.get(action)
        if handler is not None:
            handler()

    # ------------------------------------------------------------------ submit
    def _submit_from_editor(self, behaviour: str) -> None:
        """Submit the editor's text (command palette; the editor's own keys send the text with the message)."""
        self._submit(self.prompt_input.take_text(), behaviour)

    def _submit(self, text: str, behaviour: str) -> None:
        """Submit ``text`` taken at key time in a worker. Reading the editor later lost keys: in a fast burst
        (``q1`` Enter ``q2`` Ctrl+F) it already held ``q1q2`` and the follow-up key found it empty."""
        if text.strip():
            self.run_worker(self.submit_text(text, behaviour))

    async def submit_text(self, text: str, behaviour: str = "steer", as_message: bool = False) -> None:
        """pi's onSubmit: slash command, bash, queue (while working) or prompt (idle). ``as_message``: ``text``
        was classified already (typed during compaction) and is sent as it is."""
        slash = classify_submit(text) if not as_message else None
        text = slash.text if slash is not None else text.strip()
        if not text:
            return
        if slash is not None and slash.kind == "command":
            self.run_slash(text)
            return
        if slash is not None and slash.kind == "unknown":
            self._refuse_unknown_command(slash.name, slash.suggestion, text)
            return
        if slash is not None and text.startswith("!") and len(text.lstrip("!").strip()) > 0:
            exclude = text.startswith("!!")
            await self.run_bash(text[2:].strip() if exclude else text[1:].strip(), exclude)
            return
        if self.session is None:
            self.add_notice("error", f"No session: {self.session_error}" if self.session_error
                            else "The session is still starting; try again in a moment.")
            self.prompt_input.set_text(text)
            return
        if self.compacting or self.session.is_compacting:
            self.compaction_queue.append((behaviour, text))
            self.show_local_queue()
            self.add_notice("status", "Queued message for after compaction")
            return
        try:
            if self.working or self.session.is_streaming:
                if behaviour == "follow_up":
                    await maybe_await(self.session.follow_up(text))
                else:
                    await maybe_await(self.session.steer(text))
                return
            self.transcript.scroll_end_now()
            self.set_working(True)
            try:
                await maybe_await(self.session.prompt(text))
            finally:
                if not self.session.is_streaming:
                    self.set_working(False)
        except Exception as exc:
            log.warning("submitting a prompt failed", exc_info=exc)
            self.add_notice("error", str(exc))

    def _refuse_unknown_command(self, name: str, suggestion: str | None, text: str) -> None:
        """``/exprot``: say so, suggest the nearest command, and give the text back to the editor to fix."""
        hint = f" Did you mean /{suggestion}?" if suggestion else " /hotkeys lists the commands."
        self.add_notice("warning", f"Unknown command: /{name}.{hint} Start with // (or a space) to send a "
                                   "message that begins with a slash.")
        if not self.prompt_input.text.strip():
            self.prompt_input.set_text(text)

    def show_local_queue(self) -> None:
        """Show the texts queued during compaction in the queue area (with the session's own queues)."""
        steering = [t for mode, t in self.compaction_queue if mode != "follow_up"]
        follow = [t for mode, t in self.compaction_queue if mode == "follow_up"]
        self.queue_view.set_local(steering, follow)

    async def flush_compaction_queue(self, will_retry: bool = False) -> None:
        """Send what was typed during compaction (pi's ``flushCompactionQueue``, pi-reference §3.14 submit
        flow 3): the first text as a prompt, the rest as steering/follow-up of that run; when the run
        continues by itself after compaction (``will_retry``) or the agent works, everything is queued."""
        queued = list(self.compaction_queue)
        self.compaction_queue.clear()
        self.show_local_queue()
        if not queued or self.session is None:
            return
        session = self.session
        # The session clears its compacting flag right after emitting compaction_end.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(5.0):  # a safety bound only: events end the wait
                await self.wait_for_session(lambda: not session.is_compacting)
        if will_retry or self.working or session.is_streaming:
            for mode, text in queued:
                await self._queue_to_session(text, mode)
            return
        (_, first), rest = queued[0], queued[1:]
        worker = self.run_worker(self.submit_text(first, as_message=True), group="prompt")
        if rest:  # the rest joins that run once it streams (or is sent on its own if the run never starts)
            await self.wait_for_session(lambda: session.is_streaming or worker.is_finished)
        for mode, text in rest:
            if session.is_streaming:
                await self._queue_to_session(text, mode)
            else:
                await self.submit_text(text, mode, as_message=True)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A worker started or ended: wake ``wait_for_session`` waiters (no polling)."""
        self.session_changed.set()

    async def wait_for_session(self, predicate: Callable[[], bool]) -> None:
        """Wait until ``predicate()`` holds, checking it again after every session event and worker state
        change (``session_changed``; the app sets it). Callers bound the wait with ``asyncio.timeout``."""
        while not predicate():
            self.session_changed.clear()
            await self.session_changed.wait()

    async def _queue_to_session(self, text: str, mode: str) -> None:
        if self.session is None:
            return
        try:
            if mode == "follow_up":
                await maybe_await(self.session.follow_up(text))
            else:
                await maybe_await(self.session.steer(text))
        except Exception as exc:
            log.warning("queueing a message failed", exc_info=exc)
            self.add_notice("error", str(exc))

    async def run_bash(self, command: str, exclude: bool) -> None:
        """User bash with live output (``!cmd``; ``!!cmd`` keeps it out of the model's context)."""
        session = self.session
        if session is None:
            return
        item = BashItem(command, exclude)
        self.transcript.add(item)

        def on_chunk(chunk: str) -> None:
            item.output += chunk
            item.changed()
            self.transcript.item_changed(item)

        self.bash_running = True
        self.update_prompt_mode()  # the editor title says Escape cancels it
        try:
            result = await session.execute_bash(command, on_chunk=on_chunk, exclude_from_context=exclude)
        except Exception as exc:
            log.warning("user bash failed", exc_info=exc)
            item.running = False
            item.output += f"\n{exc}" if item.output else str(exc)
            item.exit_code = 1
        else:
            item.running = False
            item.output = result.output
            item.exit_code = result.exit_code
            item.cancelled = result.cancelled
            item.truncated_path = result.full_output_path
        finally:
            self.bash_running = session.is_bash_running
            self.update_prompt_mode()
        item.changed()
        self.transcript.item_changed(item, immediate=True)

    # ------------------------------------------------------------------ queue / abort / clear
    def action_dequeue(self) -> None:
        """Alt+Up: all queued messages back into the editor (pi's ``app.message.dequeue``)."""
        if self.session is None:
            return
        steering, follow = queued_texts(self.session.clear_queue())
        local = [text for _, text in self.compaction_queue]
        self.compaction_queue.clear()
        self.show_local_queue()
        if not steering and not follow and not local:
            return
        parts = steering + follow + local
        current = self.prompt_input.text
        if current.strip():
            parts.append(current)
        self.prompt_input.set_text("\n\n".join(parts))

    async def action_interrupt(self) -> None:
        """Escape semantics (pi-reference §3.14), checked in order."""
        session = self.session
        if session is None:
            return
        if self.compacting or session.is_compacting:
            session.abort_compaction()  # temporary override: Escape cancels the compaction
            return
        if self.working or session.is_streaming:
            steering, follow = queued_texts(session.clear_queue())
            parts = steering + follow
            current = self.prompt_input.text
            if current.strip():
                parts.append(current)
            if steering or follow:
                self.prompt_input.set_text("\n\n".join(parts))
            await maybe_await(session.abort())
            return
        if session.is_bash_running:
            session.abort_bash()
            return
        if self.prompt_input.text.startswith("!"):
            self.prompt_input.set_text("")

    def action_clear(self, clear_editor: bool = True) -> None:
        """Ctrl+C: clear the editor; twice within 500 ms quits. ``clear_editor=False`` when the editor has
        already cleared itself at key time (keys typed after Ctrl+C in the same burst stay)."""
        now = self.now()
        if now - self._last_clear < DOUBLE_PRESS:
            self.action_quit_app()
            return
        self._last_clear = now
        if clear_editor:
            self.prompt_input.set_text("")

    def action_focus_input(self) -> None:
        """Escape outside the editor (tool panel): back to the editor."""
        self.prompt_input.focus()

    # ------------------------------------------------------------------ display toggles
    def action_toggle_expand(self) -> None:
        """Ctrl+O: expand/collapse tool output, artifacts, summaries, bash runs and long prompts (only those
        re-render)."""
        self.ctx.expand_tools = not self.ctx.expand_tools
        for item in self.transcript.items:
            if isinstance(item, ToolItem | BashItem | ArtifactItem | SummaryItem | UserItem):
                item.changed()
                self.transcript.item_changed(item, new_output=False)

    def action_toggle_thinking(self) -> None:
        """Ctrl+T: hide/show thinking blocks (only assistant items with thinking re-render)."""
        self.ctx.hide_thinking = not self.ctx.hide_thinking
        for item in self.transcript.items:
            if isinstance(item, AssistantItem) and item.has_thinking():
                item.thinking_collapsed = None  # the global toggle overrides per-message clicks
                item.changed()
                self.transcript.item_changed(item, new_output=False)
        self.add_notice("status", f"Thinking blocks: {'hidden' if self.ctx.hide_thinking else 'visible'}")
        self.save_setting("set_hide_thinking_block", self.ctx.hide_thinking)  # pi persists hideThinkingBlock

    def action_toggle_tools(self) -> None:
        """F2 / Ctrl+B / ``/tools``: show or hide the tool-call panel."""
        panel = self.tool_panel
        panel.display = not panel.display
        if panel.display:

            async def show() -> None:
                await panel.build()
                panel.option_list.focus()

            self.run_worker(show(), group="tool-panel")
        else:
            self.prompt_input.focus()

    def action_cycle_thinking(self) -> None:
        """Shift+Tab: next thinking level (status line in the transcript)."""
        if self.session is None:
            return
        model = self.session.model
        if model is None or not model.reasoning:
            self.add_notice("status", "Current model does not support thinking")
            return
        level = self.session.cycle_thinking_level()
        if level:
            self.add_notice("status", f"Thinking level: {level}")
        self.refresh_footer()
        self.update_prompt_mode()

    def action_cycle_model(self, direction: str) -> None:
        """Ctrl+P / Shift+Ctrl+P: next/previous model."""
        if self.session is None:
            return
        try:
            result = self.session.cycle_model(direction, announce=False)  # announced once, below
        except Exception as exc:
            log.warning("cycling the model failed", exc_info=exc)
            self.add_notice("error", str(exc))
            return
        if not result:
            self.add_notice("status", "Only one model available")
            return
        model = result["model"]
        level = result["thinking_level"] if model.reasoning else None
        name = model.name or model.id
        self.add_notice("status", f"Switched to {name}" + (f" (thinking: {level})" if level else ""))
        self.refresh_footer()
        self.update_offline_notice()
