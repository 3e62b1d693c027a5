"""``KeyActions``: what the app's keys do (pi-reference §3.14 keybindings and Escape semantics).

Escape while working moves the queued texts (a prompt still waiting for its run to start, steering, then
follow-ups, then the editor's text, joined by blank lines) into the editor, clears the queues and aborts. Ctrl+C
clears the editor; twice within 500 ms quits. Before the session exists the keys whose actions need it are held
and run once it is there (``hold``), and Alt+Up takes back what was typed meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pi_tui.coding.agent_session.shutdown import take_unstarted
from pi_tui.tui.controllers.host import AppHost
from pi_tui.tui.log_setup import log
from pi_tui.tui.session_adapter import maybe_await, queued_texts
from pi_tui.tui.widgets.failed_attempt import FailedAttemptItem
from pi_tui.tui.widgets.transcript_items import (
    ArtifactItem,
    AssistantItem,
    BashItem,
    SummaryItem,
    ToolItem,
    UserItem,
)

DOUBLE_PRESS = 0.5  # seconds (pi-reference Appendix B)


class KeyActions:
    """The app's key actions, run by pi action id (:meth:`dispatch`) from the editor or the palette.

    Given: the ``host``; ``submit(text, behaviour)`` (the submit flow); ``take_local_queue()`` (the texts
    queued during compaction, emptied); ``quit()``; ``run_slash(text)``; ``open_palette()``; ``hold(mode,
    action)`` holds an action until the session exists (True when held: the submit flow's
    ``hold_until_session``).
    """

    def __init__(self, host: AppHost, *, submit: Callable[[str, str], None],
                 take_local_queue: Callable[[], list[str]], quit: Callable[[], None],
                 run_slash: Callable[[str], bool], open_palette: Callable[[], Any],
                 hold: Callable[[str, str], bool] | None = None) -> None:
        self.host = host
        self._hold = hold
        self._submit = submit
        self._take_local_queue = take_local_queue
        self._quit = quit
        self._run_slash = run_slash
        self._open_palette = open_palette
        self.last_clear = 0.0  # when Ctrl+C last cleared the editor (double-press detection)
        self.last_escape = 0.0  # when Escape last hit an empty, idle editor (doubleEscapeAction)

    def dispatch(self, action: str) -> None:
        """Run a pi action id (from the editor or the palette); an unknown id does nothing."""
        host = self.host
        handler = {
            "tui.input.submit": lambda: self.submit_from_editor("steer"),
            "app.message.followUp": lambda: self.submit_from_editor("follow_up"),
            "app.message.dequeue": self.dequeue,
            "app.interrupt": lambda: host.run_worker(self.interrupt()),
            "app.clear": self.clear,
            "app.exit": self._quit,
            "app.thinking.cycle": self.cycle_thinking,
            "app.model.cycleForward": lambda: self.cycle_model("forward"),
            "app.model.cycleBackward": lambda: self.cycle_model("backward"),
            "app.model.select": lambda: self._run_slash("/model"),
            "app.session.tree": lambda: self._run_slash("/tree"),
            "app.tools.expand": self.toggle_expand,
            "app.thinking.toggle": self.toggle_thinking,
            "app.tools.panel": self.toggle_tools,
            "app.commandPalette": self._open_palette,
            "app.scroll.pageUp": lambda: host.transcript.scroll_page(-1),
            "app.scroll.pageDown": lambda: host.transcript.scroll_page(1),
            "app.scroll.top": host.transcript.scroll_home_now,
            "app.scroll.bottom": host.transcript.scroll_end_now,
            "app.editor.external": self.external_editor,
            "app.session.fork": lambda: self._run_slash("/fork"),
            "app.session.resume": lambda: self._run_slash("/resume"),
        }.get(action)
        if handler is not None:
            handler()

    def external_editor(self) -> None:
        """Ctrl+G: the prompt in ``$VISUAL`` / ``$EDITOR`` (``pi_tui.tui.external_editor``)."""
        from pi_tui.tui.external_editor import open_external_editor

        host = self.host
        open_external_editor(host.prompt_input, host.suspend, host.add_notice)

    def submit_from_editor(self, behaviour: str) -> None:
        """Submit the editor's text (command palette; the editor's own keys send the text with the message)."""
        self._submit(self.host.prompt_input.take_text(), behaviour)

    # ------------------------------------------------------------------ queue / abort / clear
    def dequeue(self) -> None:
        """Alt+Up: all queued messages back into the editor (pi's ``app.message.dequeue``)."""
        host = self.host
        steering, follow = queued_texts(host.session.clear_queue()) if host.session is not None else ([], [])
        local = self._take_local_queue()  # before the session exists: what was typed meanwhile
        if not steering and not follow and not local:
            return
        parts = steering + follow + local
        current = host.prompt_input.text
        if current.strip():
            parts.append(current)
        host.prompt_input.set_text("\n\n".join(parts))

    async def interrupt(self) -> None:
        """Escape semantics (pi-reference §3.14), checked in order."""
        host = self.host
        session = host.session
        if session is None:
            return
        if host.compacting or session.is_compacting:
            session.abort_compaction()  # temporary override: Escape cancels the compaction
            return
        if session.is_summarizing_branch:
            session.abort_branch_summary()  # temporary override: Escape cancels the branch summary (pi)
            return
        if host.working or session.is_streaming:
            unstarted = take_unstarted(session)  # still waiting to start (MCP servers): never sent, given back
            steering, follow = queued_texts(session.clear_queue())
            parts = unstarted + steering + follow
            current = host.prompt_input.text
            if current.strip():
                parts.append(current)
            if unstarted or steering or follow:
                host.prompt_input.set_text("\n\n".join(parts))
            await maybe_await(session.abort())
            return
        if session.is_bash_running:
            session.abort_bash()
            held = self._take_local_queue()  # typed while it ran: back into the editor, as an abort gives them
            if held:
                current = host.prompt_input.text
                host.prompt_input.set_text("\n\n".join([*held, current] if current.strip() else held))
            return
        if host.prompt_input.text.startswith("!"):
            host.prompt_input.set_text("")
            return
        if not host.prompt_input.text.strip():
            self._double_escape(session)

    def _double_escape(self, session: Any) -> None:
        """Escape on an empty editor while nothing runs: the second within 500 ms opens /tree or /fork, as
        settings ``doubleEscapeAction`` says (pi 0.73.1 docs/settings.md; ``none``: nothing)."""
        settings = getattr(session, "settings_manager", None)
        action = str(getattr(settings, "double_escape_action", "tree")) if settings is not None else "tree"
        if action not in ("tree", "fork"):
            return
        now = self.host.now()
        if now - self.last_escape < DOUBLE_PRESS:
            self.last_escape = 0.0
            self._run_slash("/tree" if action == "tree" else "/fork")
        else:
            self.last_escape = now

    def _held(self, action: str) -> None:
        """``action`` needs the session, which does not exist yet: held, run once it is there (start-up)."""
        if self._hold is not None:
            self._hold("action", action)

    def clear(self, clear_editor: bool = True) -> None:
        """Ctrl+C: clear the editor; twice within 500 ms quits. ``clear_editor=False`` when the editor has
        already cleared itself at key time (keys typed after Ctrl+C in the same burst stay)."""
        now = self.host.now()
        if now - self.last_clear < DOUBLE_PRESS:
            self._quit()
            return
        self.last_clear = now
        if clear_editor:
            self.host.prompt_input.set_text("")

    # ------------------------------------------------------------------ display toggles
    def toggle_expand(self) -> None:
        """Ctrl+O: expand/collapse tool output, artifacts, summaries, bash runs and long prompts (only those
        re-render)."""
        host = self.host
        host.ctx.expand_tools = not host.ctx.expand_tools
        for item in host.transcript.items:
            if isinstance(item, ToolItem | BashItem | ArtifactItem | SummaryItem | UserItem | FailedAttemptItem):
                item.changed()
                host.transcript.item_changed(item, new_output=False)

    def toggle_thinking(self) -> None:
        """Ctrl+T: hide/show thinking blocks (only assistant items with thinking re-render)."""
        host = self.host
        host.ctx.hide_thinking = not host.ctx.hide_thinking
        for item in host.transcript.items:
            if isinstance(item, AssistantItem) and item.has_thinking():
                item.thinking_collapsed = None  # the global toggle overrides per-message clicks
                item.changed()
                host.transcript.item_changed(item, new_output=False)
        host.add_notice("status", f"Thinking blocks: {'hidden' if host.ctx.hide_thinking else 'visible'}")
        host.save_setting("set_hide_thinking_block", host.ctx.hide_thinking)  # pi persists hideThinkingBlock

    def toggle_tools(self) -> None:
        """F2 / Ctrl+B / ``/tools``: show or hide the tool-call panel."""
        panel = self.host.tool_panel
        panel.display = not panel.display
        if panel.display:

            async def show() -> None:
                await panel.build()
                panel.option_list.focus()

            self.host.run_worker(show(), group="tool-panel")
        else:
            self.host.prompt_input.focus()

    def cycle_thinking(self) -> None:
        """Shift+Tab: next thinking level (status line in the transcript)."""
        host = self.host
        if host.session is None:
            self._held("app.thinking.cycle")
            return
        model = host.session.model
        if model is None or not model.reasoning:
            host.add_notice("status", "Current model does not support thinking")
            return
        level = host.session.cycle_thinking_level()
        if level:
            host.add_notice("status", f"Thinking level: {level}")
        host.refresh_footer()
        host.update_prompt_mode()

    def cycle_model(self, direction: str) -> None:
        """Ctrl+P / Shift+Ctrl+P: next/previous model."""
        host = self.host
        if host.session is None:
            self._held("app.model.cycleForward" if direction == "forward" else "app.model.cycleBackward")
            return
        try:
            result = host.session.cycle_model(direction, announce=False)  # announced once, below
        except Exception as exc:
            log.warning("cycling the model failed", exc_info=exc)
            host.add_notice("error", str(exc))
            return
        if not result:
            host.add_notice("status", "Only one model available")
            return
        model = result["model"]
        level = result["thinking_level"] if model.reasoning else None
        name = model.name or model.id
        host.add_notice("status", f"Switched to {name}" + (f" (thinking: {level})" if level else ""))
        host.refresh_footer()
        host.update_offline_notice()
