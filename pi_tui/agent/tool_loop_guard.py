"""Stop a run whose model repeats the same failing tool call (issue 10 class 5;
tests/regressions/test_tool_call_loops.py).

Real reports: openclaw#62971/#63023 (a model retried a missing tool after every ``Tool x not found`` until
the user reset the session), openclaw#68578 (Gemma 4 on LM Studio calling a ``weather`` tool that did not
exist, forever), HKUDS/nanobot#2298 (the same failing ``exec`` call 172 times until a global limit of 200),
spring-ai-examples#71 (error correction until the context overflowed). pi 0.73.1 has no limit at all.

A *failure signature* is the tool name, the call's arguments (canonical JSON) and the error text it got;
for a call to a tool that does not exist it is the name alone (no arguments can make it work). When one
signature has failed ``limit`` times in a run, :meth:`RepeatedFailureGuard.record` returns the stop text
and the loop ends the run with it as an error assistant message (:mod:`pi_tui.agent.loop`). A success of
the same call (name and arguments) resets its count; a failure with a different error text is a different
signature, so a test command that keeps failing while the model edits files in between (and the output
changes) is not stopped. What changes on every run of the same failure (durations such as pytest's
``in 0.12s``, clock times, dates, addresses, long numbers) is masked in the error text first.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from pi_tui.ai.types import AssistantMessage, TextContent, ToolCall, ToolResultMessage

DEFAULT_MAX_REPEATED_TOOL_FAILURES = 5
"""Default of the ``maxRepeatedToolFailures`` setting (pi-tui; 0 turns the limit off)."""

UNKNOWN_TOOL_PREFIX = "Tool "
UNKNOWN_TOOL_SUFFIX = " not found"


def stop_text(name: str, count: int, unknown: bool) -> str:
    """The message the run ends with (no words the retry or overflow classifiers react to)."""
    if unknown:
        what = f'The model called the tool "{name}", which does not exist, {count} times'
    else:
        what = f'The model made the same "{name}" call {count} times and it failed the same way each time'
    return (
        f"{what}, so the run was stopped (setting maxRepeatedToolFailures = {count}). "
        "Send a message to tell it what to do differently."
    )


def _canonical(arguments: Any) -> str:
    try:
        return json.dumps(arguments, sort_keys=True, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return repr(arguments)


_VOLATILE = re.compile(
    r"\b\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+Z?)?"  # dates and ISO timestamps
    r"|\b\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?\b"  # clock times
    r"|\b\d+(?:[.,]\d+)?\s?(?:ms|µs|us|ns|s|sec|secs|seconds|m|min|mins|minutes)\b"  # durations
    r"|\b0x[0-9a-fA-F]{4,}\b"  # addresses
    r"|\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b"  # UUIDs
    r"|\d{6,}(?:\.\d+)?"  # epoch times, PIDs, request ids
)


def _result_text(result: ToolResultMessage) -> str:
    """The error text with what changes from run to run masked (timings, clock times, dates, addresses, long
    numbers): ``1 failed in 0.12s`` and ``1 failed in 0.31s`` are the same failure (found by a new-user run:
    the same failing ``pytest`` call was never stopped, its summary line has the duration)."""
    text = "\n".join(b.text for b in result.content if isinstance(b, TextContent))
    return _VOLATILE.sub("#", text)


class RepeatedFailureGuard:
    """Counts failure signatures over one run; ``limit`` >= 1."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._failures: Counter[tuple[str, ...]] = Counter()

    def record(self, assistant: AssistantMessage, results: list[ToolResultMessage], tool_names: set[str]) -> str | None:
        """Account for one batch; the stop text when a signature reached the limit, else None."""
        calls = {c.id: c for c in assistant.content if isinstance(c, ToolCall)}
        tripped: str | None = None
        for result in results:
            call = calls.get(result.tool_call_id)
            if call is None:
                continue
            args = _canonical(call.arguments)
            if not result.is_error:
                for key in [k for k in self._failures if k[:2] == (call.name, args)]:
                    del self._failures[key]
                continue
            unknown = call.name not in tool_names
            key = (call.name,) if unknown else (call.name, args, _result_text(result))
            self._failures[key] += 1
            if tripped is None and self._failures[key] >= self.limit:
                tripped = stop_text(call.name, self._failures[key], unknown)
        return tripped
