"""Apply AgentSessionEvents to the widgets (pi-reference §3.14 "Rendering of events").

``SessionView.handle(event)`` is the session listener: synchronous, fast, in event order. It mutates
transcript items and marks them changed; the transcript coalesces rendering. Events arrive as pydantic models
or dicts (``field`` reads both).
"""

from __future__ import annotations

import time
from typing import Any

from pi_tui.coding.error_summary import summarize_error
from pi_tui.tui.transcript_builder import (
    apply_tool_result,
    duplicates_tool_diff,
    item_for_message,
    repeats_assistant_error,
    role_of,
    tool_calls_of,
)
from pi_tui.tui.widgets import tool_format
from pi_tui.tui.widgets.failed_attempt import FailedAttemptItem, attempts_text, failed_attempt
from pi_tui.tui.widgets.transcript_items import (
    AssistantItem,
    NoticeItem,
    SummaryItem,
    ToolItem,
    abort_text,
    field,
)


class SessionView:
    """Listener state: the streaming assistant item and the tool items by call id."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.current: AssistantItem | None = None
        self.tools: dict[str, ToolItem] = {}
        self.pending_tools: set[str] = set()

    def reset(self) -> None:
        """Forget per-session state (new/resumed session)."""
        self.current = None
        self.tools.clear()
        self.pending_tools.clear()

    # ------------------------------------------------------------------ dispatch
    def handle(self, event: Any) -> None:
        """Session listener entry point; unknown event types are ignored."""
        etype = field(event, "type")
        method = getattr(self, f"on_{etype}", None)
        if method is not None:
            method(event)

    # ------------------------------------------------------------------ agent events
    def on_agent_start(self, event: Any) -> None:
        self.pending_tools.clear()
        self.app.set_working(True)

    def on_agent_end(self, event: Any) -> None:
        if self.current is not None and self.current.streaming:
            if self.current.plain_text().strip():
                self.current.update(self.current.message, streaming=False)
                self.app.transcript.item_changed(self.current, immediate=True)
            else:
                self.app.transcript.remove_item(self.current)
            self.current = None
        self.pending_tools.clear()
        self.app.set_working(False)
        self.app.refresh_footer()

    def on_message_start(self, event: Any) -> None:
        message = field(event, "message")
        role = role_of(message)
        if role == "assistant":
            self.current = AssistantItem(message, streaming=True)
            self.app.transcript.add(self.current)
            self._sync_tool_calls(message)
        elif role in ("toolResult",):
            return
        elif role == "bashExecution":
            return  # shown live by the app's own bash item
        elif not (repeats_assistant_error(message, self.app.transcript.items)
                  or duplicates_tool_diff(message, self.app.transcript.items)):
            item = item_for_message(message)
            if item is not None:
                # saved now, before the live reply (saved at its end): shown there too, so the screen reads the
                # same after a resume (pi 1.x 0.80.4)
                live = self.current if self.current is not None and self.current.streaming else None
                self.app.transcript.add(item, before=live)

    def on_message_update(self, event: Any) -> None:
        message = field(event, "message")
        if role_of(message) != "assistant":
            return
        if self.current is None:
            self.on_message_start(event)
            return
        self.current.update(message)
        self.app.transcript.item_changed(self.current)
        self._sync_tool_calls(message)

    def on_message_end(self, event: Any) -> None:
        message = field(event, "message")
        if role_of(message) != "assistant":
            return
        if self.current is None:
            self.current = AssistantItem(message)
            self.app.transcript.add(self.current)
        self.current.update(message, streaming=False)
        self.app.transcript.item_changed(self.current, immediate=True)
        self._sync_tool_calls(message)
        stop = field(message, "stop_reason")
        for call in tool_calls_of(message):
            tool = self.tools.get(str(field(call, "id")))
            if tool is None:
                continue
            if stop in ("error", "aborted"):
                tool.status = "error"
                tool.result_text = (abort_text(field(message, "error_message")) if stop == "aborted"
                                        else field(message, "error_message") or "Unknown error")
                tool.ended_at = time.monotonic()
            elif tool.status == "pending":
                tool.status = "queued"
            tool.changed()
            self.app.transcript.item_changed(tool)
            self.app.tool_panel.call_changed(tool)
        self.current = None
        self.app.refresh_footer()

    def _sync_tool_calls(self, message: Any) -> None:
        for call in tool_calls_of(message):
            cid = str(field(call, "id", ""))
            args = field(call, "arguments") or {}
            tool = self.tools.get(cid)
            if tool is None:
                tool = ToolItem(cid, str(field(call, "name", "")), args)
                self.tools[cid] = tool
                self.pending_tools.add(cid)
                self.app.transcript.add(tool)
                self.app.tool_panel.add_call(tool)
            elif tool.args != args:
                tool.args = dict(args)
                tool.changed()
                self.app.transcript.item_changed(tool)
                self.app.tool_panel.call_changed(tool)

    def _tool(self, event: Any) -> ToolItem:
        cid = str(field(event, "tool_call_id", ""))
        tool = self.tools.get(cid)
        if tool is None:
            tool = ToolItem(cid, str(field(event, "tool_name", "")), field(event, "args") or {})
            self.tools[cid] = tool
            self.app.transcript.add(tool)
            self.app.tool_panel.add_call(tool)
        return tool

    def on_tool_execution_start(self, event: Any) -> None:
        tool = self._tool(event)
        tool.status = "running"
        tool.started_at = time.monotonic()
        if field(event, "args"):
            tool.args = dict(field(event, "args"))
        tool.changed()
        self.app.transcript.item_changed(tool)
        self.app.tool_panel.call_changed(tool)

    def on_tool_execution_update(self, event: Any) -> None:
        tool = self._tool(event)
        partial = field(event, "partial_result")
        tool.partial_text = tool_format.result_text(field(partial, "content", partial))
        tool.details = field(partial, "details", tool.details)
        tool.changed()
        self.app.transcript.item_changed(tool)
        self.app.tool_panel.call_changed(tool)

    def on_tool_execution_end(self, event: Any) -> None:
        tool = self._tool(event)
        result = field(event, "result")
        tool.ended_at = time.monotonic()
        if tool.started_at is None:
            tool.started_at = tool.ended_at
        apply_tool_result(tool, field(result, "content", result), field(result, "details"),
                          bool(field(event, "is_error", False)))
        self.pending_tools.discard(tool.tool_call_id)
        self.app.transcript.item_changed(tool)
        self.app.tool_panel.call_changed(tool)

    # ------------------------------------------------------------------ session events
    def on_queue_update(self, event: Any) -> None:
        steering = field(event, "steering", []) or []
        follow = field(event, "follow_up", None)
        if follow is None:
            follow = field(event, "followUp", []) or []
        self.app.queue_view.set_queues(list(steering), list(follow))
        self.app.status_line.set_queue_note(self.app.queue_view.summary())  # tiny screens show it there

    def on_compaction_start(self, event: Any) -> None:
        self.app.compacting = True
        self.app.update_prompt_mode()
        self._show_compaction_status(str(field(event, "reason", "manual")))

    def _show_compaction_status(self, reason: str) -> None:
        cancel = f"({self.app.ctx.interrupt_key.lower()} to cancel)"
        if reason == "manual":
            self.app.status_line.show(f"Compacting context... {cancel}")
        elif reason == "branchSummary":
            self.app.status_line.show(f"Summarizing branch... {cancel}")
        else:
            prefix = "Context overflow detected, " if reason == "overflow" else ""
            self.app.status_line.show(f"{prefix}Auto-compacting... {cancel}")

    def on_summarization_retry_scheduled(self, event: Any) -> None:
        """A summary request failed transiently (pi 0.81.1): the countdown to its retry, attempt n of m and the
        provider's message, in the status line (as the agent's auto-retry shows it)."""
        attempt = field(event, "attempt", 1)
        total = field(event, "max_attempts", field(event, "maxAttempts", 3))
        delay = (field(event, "delay_ms", field(event, "delayMs", 0)) or 0) / 1000
        reason = summarize_error(field(event, "error_message", field(event, "errorMessage", ""))).one_line()

        def text(left: int) -> str:
            return f"Summary failed, retrying in {left}s ({attempts_text(attempt, total)}) · {reason}"

        self.app.status_line.countdown(text, delay)

    def on_summarization_retry_attempt_start(self, event: Any) -> None:
        source = field(event, "source", "compaction")
        self._show_compaction_status("branchSummary" if source == "branchSummary" else field(event, "reason", "manual"))

    def on_compaction_end(self, event: Any) -> None:
        """Status off; rebuild after a success. Errors are not repeated here: a manual ``/compact`` raises
        (the command shows it) and automatic compaction errors arrive as the session's notifications.
        Texts queued during the compaction are sent afterwards (pi's ``flushCompactionQueue``)."""
        self.app.compacting = False
        self.app.update_prompt_mode()
        if self.app.compaction_queue:
            will_retry = bool(field(event, "will_retry", False))
            self.app.run_worker(self.app.flush_compaction_queue(will_retry), group="compaction-queue")
        if self.app.working:
            self.app.status_line.show("Working...")
        else:
            self.app.status_line.clear()
        reason = field(event, "reason", "manual")
        if field(event, "aborted", False):
            if reason != "manual":
                self.app.add_notice("status", "Auto-compaction cancelled")
            return
        result = field(event, "result")
        if result and not field(event, "error_message"):
            self.app.rebuild_transcript()
            summary = field(result, "summary", "")
            if summary and not any(isinstance(i, SummaryItem) for i in self.app.transcript.items):
                self.app.transcript.add(SummaryItem("compaction", str(summary)))
            self.app.refresh_footer()

    def on_auto_retry_start(self, event: Any) -> None:
        """One status line for the whole retry cycle (issue 9): the countdown, attempt n of m and the provider's
        message in one line. The failed attempt leaves the transcript when it showed nothing but its error (the
        session file keeps it, full error included); the run is still on, so the editor keeps steering."""
        attempt = field(event, "attempt", 1)
        total = field(event, "max_attempts", field(event, "maxAttempts", 3))
        delay = (field(event, "delay_ms", field(event, "delayMs", 0)) or 0) / 1000
        error = summarize_error(field(event, "error_message", field(event, "errorMessage", "")))
        self._supersede_failed_attempt(attempt, total)
        if error.rate_limited:
            reason = f"Rate limited ({error.status}): {error.message}" if error.status else f"Rate limited: {error.message}"
        else:
            reason = error.one_line()

        def text(left: int) -> str:
            return f"Retrying in {left}s ({attempts_text(attempt, total)}) · {reason}"  # the title names Esc

        self.app.working = True
        self.app.update_prompt_mode()
        self.app.status_line.countdown(text, delay)

    def _supersede_failed_attempt(self, retry: int, max_retries: int) -> None:
        """The failed attempt a retry replaces leaves the transcript; one that showed a partial reply becomes one
        expandable ``Attempt n of m failed: …`` line (new-user run #31; ``widgets/failed_attempt.py``)."""
        items = self.app.transcript.items
        last = items[-1] if items else None
        if last is None or not failed_attempt(last):
            return
        self.app.transcript.remove_item(last)
        if last.plain_text().strip():
            self.app.transcript.add(FailedAttemptItem(last.message, retry, max_retries + 1))

    def on_auto_retry_end(self, event: Any) -> None:
        """Status back to "Working..." while the retried run goes on, else off (a final failure arrives as the
        session's error notification)."""
        if getattr(self.app.session, "is_streaming", False) or field(event, "success", False):
            self.app.status_line.show("Working...")
            self.app.update_prompt_mode()
        else:
            self.app.set_working(False)

    def on_session_info_changed(self, event: Any) -> None:
        self.app.refresh_footer()
        self.app.update_title()

    def on_thinking_level_changed(self, event: Any) -> None:
        self.app.refresh_footer()
        self.app.update_prompt_mode()

    def on_model_changed(self, event: Any) -> None:
        self.app.refresh_footer()
        self.app.update_offline_notice()

    def notice(self, level: str, text: str) -> NoticeItem:
        """Add a notice line (helper for the app)."""
        item = NoticeItem(level, text)
        self.app.transcript.add(item)
        return item
