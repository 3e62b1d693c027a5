"""What the session writes for the agent's events (pi-reference §3.5 steps 2 and 4).

Tool results are written the moment their call finishes; ``details["artifacts"]`` of a tool result are taken
out and become ``artifact`` messages right after the toolResult; ``message_end`` writes the message (``custom``
→ custom_message entry); provider errors are redacted before anyone sees them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pi_tui.ai.secret_redaction import redact_text
from pi_tui.ai.types import AssistantMessage, ToolResultMessage, now_ms
from pi_tui.coding.messages import ArtifactMessage, message_role
from pi_tui.coding.session.session_manager import SessionManager

_STORED_ROLES = ("user", "assistant", "toolResult", "bashExecution", "notification", "artifact")


class TranscriptRecorder:
    """``session_manager()``: the current file; ``write_failed(exc)``: reports a failed write;
    ``append_ui_message(message)``: adds an artifact message to the transcript (state, file, events)."""

    def __init__(
        self,
        *,
        session_manager: Callable[[], SessionManager],
        write_failed: Callable[[OSError], None],
        append_ui_message: Callable[[ArtifactMessage], None],
    ) -> None:
        self._manager = session_manager
        self._write_failed = write_failed
        self._append_ui_message = append_ui_message
        self._ended_in_run: set[int] = set()  # id() of messages that had message_end in the current run
        self._call_artifacts: dict[str, list[ArtifactMessage]] = {}
        self._stored_results: dict[str, list[ToolResultMessage]] = {}  # written at tool_execution_end

    def ended_in_run(self, message: Any) -> bool:
        """True when ``message`` had its ``message_end`` in the current run."""
        return id(message) in self._ended_in_run

    def unstreamed_failures(self, messages: Sequence[Any]) -> list[AssistantMessage]:
        """Assistant messages of an ``agent_end`` that never had a ``message_end``: a run that failed before
        streaming (an unknown ``api``, a failing stream function) ends with only ``agent_end([failure])``.
        They are replayed as message_start/message_end so the error is shown, saved and retried like any
        other (pi shows nothing and saves nothing; deviation)."""
        return [
            m
            for m in messages
            if isinstance(m, AssistantMessage)
            and m.stop_reason in ("error", "aborted")
            and id(m) not in self._ended_in_run
        ]

    def before_listeners(self, event: Any) -> None:
        """Bookkeeping before the listeners see ``event``: run tracking, early tool-result writes, artifacts
        taken out of tool results, redaction of provider errors."""
        kind = event.type
        if kind == "agent_start":
            self._ended_in_run = set()
            self._stored_results = {}
        elif kind == "message_end":
            self._ended_in_run.add(id(event.message))
        if kind == "tool_execution_end":
            artifacts = take_artifacts(event.result)
            if artifacts:
                self._call_artifacts[event.tool_call_id] = artifacts
            self._persist_finished_result(event)
        elif kind in ("message_start", "message_end") and message_role(event.message) == "toolResult":
            self._strip_artifacts(event.message)
            stored = self._stored_results.get(event.message.tool_call_id)
            if stored:
                event.message.timestamp = stored[0].timestamp  # the live message and the stored one agree
        message = getattr(event, "message", None)
        if isinstance(message, AssistantMessage) and message.error_message:
            # a provider error may echo the key ("Incorrect API key provided: sk-…"): never shown or stored
            message.error_message = redact_text(message.error_message)

    def message_ended(self, message: Any) -> None:
        """Write a finished message (a toolResult already written at its tool_execution_end is not written
        again)."""
        role = message_role(message)
        try:
            if role == "custom":
                self._manager().append_custom_message_entry(
                    message.custom_type, message.content, message.display, message.details
                )
            elif role == "toolResult" and self._stored_results.get(message.tool_call_id):
                self._stored_results[message.tool_call_id].pop(0)  # written at its tool_execution_end
            elif role in _STORED_ROLES:
                self._manager().append_message(message)
        except OSError as exc:
            self._write_failed(exc)

    def add_artifacts_of(self, message: Any) -> None:
        """After a toolResult's ``message_end``: its artifacts become messages right after it."""
        if message_role(message) == "toolResult":
            for artifact in self._call_artifacts.pop(message.tool_call_id, []):
                self._append_ui_message(artifact)

    def run_ended(self) -> None:
        """``agent_end``: artifacts of calls that never got a toolResult are dropped."""
        self._call_artifacts.clear()

    def _strip_artifacts(self, message: Any) -> None:
        call_id = getattr(message, "tool_call_id", None)
        details = getattr(message, "details", None)
        if isinstance(details, dict) and "artifacts" in details:
            found = take_artifacts(message)
            if found and isinstance(call_id, str) and call_id not in self._call_artifacts:
                self._call_artifacts[call_id] = found
        elif call_id in self._call_artifacts and details == {}:
            message.details = None

    def _persist_finished_result(self, event: Any) -> None:
        """Write a tool result to the session file the moment its call finishes (before anyone sees the
        ``tool_execution_end``), not when the whole batch is done: a crash while a sibling still runs must not
        lose a result the user saw finish (issue 10 class 1; pi 0.73.1 writes the batch at the end). The
        batch's later toolResult ``message_end`` then writes nothing. Parallel batches are stored in completion
        order; resuming puts them back in call order (:mod:`pi_tui.coding.session.tool_results`)."""
        result = event.result
        message = ToolResultMessage(
            tool_call_id=event.tool_call_id,
            tool_name=event.tool_name,
            content=list(result.content),
            details=result.details,
            is_error=event.is_error,
            timestamp=now_ms(),
        )
        try:
            self._manager().append_message(message)
        except OSError as exc:
            self._write_failed(exc)
            return  # not stored: the message_end tries again
        self._stored_results.setdefault(event.tool_call_id, []).append(message)


def take_artifacts(holder: Any) -> list[ArtifactMessage]:
    """Remove ``details["artifacts"]`` from a tool result (details left empty become None)."""
    details = getattr(holder, "details", None)
    if not isinstance(details, dict) or "artifacts" not in details:
        return []
    raw = details.pop("artifacts")
    if not details:
        holder.details = None
    items = raw if isinstance(raw, list) else [raw]
    return [a for a in (_artifact_from(item) for item in items) if a is not None]


def _artifact_from(data: Any) -> ArtifactMessage | None:
    if isinstance(data, ArtifactMessage):
        return data
    if not isinstance(data, dict):
        return None
    try:
        fields = {k: v for k, v in data.items() if k != "role"}
        fields.setdefault("title", str(fields.get("path") or "artifact"))
        fields.setdefault("content", "")
        if not isinstance(fields.get("content"), str):
            fields["content"] = str(fields["content"])
        return ArtifactMessage.model_validate(fields)
    except ValueError:
        return None
