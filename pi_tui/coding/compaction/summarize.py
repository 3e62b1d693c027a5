"""Summarisation LLM calls for compaction (pi-reference §3.9 "Summarisation").

One ``complete_simple`` call per summary with a summariser system prompt and a single user message
``<conversation>…</conversation>`` + optional ``<previous-summary>`` + instructions (+ ``Additional focus``).
Split turns run a history summary and then a turn-prefix summary and join them.

Fixes from pi after 0.73 (tests/conformance/PI_FIXES.md): a transient failure of a summary request is retried with
the session's retry policy (0.81.1, :mod:`.summary_retry`); the two requests of a split turn run one after the
other, so a single-slot local server does not answer the second with a 429 (0.80.4); each request may use the
model's whole output limit, so long reasoning no longer hits a cap derived from ``reserve_tokens`` (1.4.0); and
``/compact <instructions>`` also focus the turn-prefix summary (1.4.0).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pi_tui.ai.abort import AbortSignal
from pi_tui.ai.options import SimpleStreamOptions
from pi_tui.ai.stream import complete_simple
from pi_tui.ai.types import Context, Model, TextContent, UserMessage
from pi_tui.coding.messages import convert_to_llm

from .prepare import CompactionPreparation
from .serialize import serialize_conversation
from .summary_retry import SummaryRetry, request_with_retry

SUMMARIZATION_SYSTEM_PROMPT = (
    "You are a context summarization assistant. You read a conversation between a user and an AI coding "
    "assistant and write a structured summary that another assistant will use to continue the work. "
    "Do NOT continue the conversation. Do NOT answer questions from the conversation. "
    "ONLY output the structured summary."
)

_SECTIONS = """Use exactly this format:

## Goal
[What the user is trying to accomplish]

## Constraints & Preferences
- [Requirements, preferences and constraints the user stated]

## Progress
### Done
- [x] [Completed work]

### In Progress
- [ ] [Current work]

### Blocked
- [Open problems, if any]

## Key Decisions
- **[Decision]**: [Why]

## Next Steps
1. [What should happen next]

## Critical Context
- [File paths, function names, error messages and data needed to continue]

Keep each section concise. Keep exact file paths, names and error messages."""

INITIAL_INSTRUCTIONS = "Summarize the conversation above as a checkpoint for continuing the work.\n\n" + _SECTIONS
UPDATE_INSTRUCTIONS = (
    "The conversation above continues the work described in <previous-summary>. Update that summary: keep "
    "what is still true, move finished items to Done, add new decisions and next steps.\n\n" + _SECTIONS
)
TURN_PREFIX_INSTRUCTIONS = """The conversation above is the first part of a turn whose later part is kept verbatim.
Summarize it so the kept part makes sense. Use exactly this format:

## Original Request
[What the user asked for in this turn]

## Early Progress
- [What was done so far in this turn]

## Context for Suffix
- [What is needed to understand the kept part]"""

SPLIT_TURN_JOIN = "\n\n---\n\n**Turn Context (split turn):**\n\n"


class CompactionError(RuntimeError):
    """A summarisation call failed (message ``Summarization failed: …``)."""


@dataclass
class CompactionResult:
    """``{summary, firstKeptEntryId, tokensBefore, details: {readFiles, modifiedFiles}}``."""

    summary: str
    first_kept_entry_id: str
    tokens_before: int
    details: dict[str, Any]

    def to_json_dict(self) -> dict[str, Any]:
        """pi's JSON form."""
        return {
            "summary": self.summary,
            "firstKeptEntryId": self.first_kept_entry_id,
            "tokensBefore": self.tokens_before,
            "details": self.details,
        }


def summary_max_tokens(model: Model, reserve_tokens: int) -> int:
    """Output limit of a summary request, in tokens: the model's ``max_tokens`` (pi 1.4.0, which stopped deriving
    it from ``compaction.reserveTokens``: reasoning used most of 0.8 x reserve and the summary hit the cap).
    ``reserve_tokens`` is the fallback for a model that declares no output limit."""
    return model.max_tokens if model.max_tokens > 0 else max(1, int(0.8 * reserve_tokens))


def format_file_operations(read_files: Sequence[str], modified_files: Sequence[str]) -> str:
    """``\\n\\n<read-files>…</read-files>\\n\\n<modified-files>…</modified-files>`` (sections only when non-empty)."""
    sections = []
    if read_files:
        sections.append("<read-files>\n" + "\n".join(read_files) + "\n</read-files>")
    if modified_files:
        sections.append("<modified-files>\n" + "\n".join(modified_files) + "\n</modified-files>")
    return "\n\n" + "\n\n".join(sections) if sections else ""


async def _summarize(
    text: str,
    model: Model,
    max_tokens: int,
    api_key: str | None,
    headers: dict[str, str] | None,
    signal: AbortSignal | None,
    thinking_level: str | None,
    failure_prefix: str,
    retry: SummaryRetry | None = None,
) -> str:
    options = SimpleStreamOptions(max_tokens=max_tokens, api_key=api_key, headers=headers, signal=signal)
    if model.reasoning and thinking_level and thinking_level != "off":
        options.reasoning = thinking_level  # type: ignore[assignment]
    context = Context(
        system_prompt=SUMMARIZATION_SYSTEM_PROMPT,
        messages=[UserMessage(content=[TextContent(text=text)])],
    )
    reply = await request_with_retry(
        lambda: complete_simple(model, context, options), retry, signal, model.context_window
    )
    if reply.stop_reason in ("error", "aborted"):
        raise CompactionError(f"{failure_prefix}: {reply.error_message or reply.stop_reason}")
    return "\n".join(b.text for b in reply.content if isinstance(b, TextContent))


async def compact(
    preparation: CompactionPreparation,
    model: Model,
    api_key: str | None,
    *,
    headers: dict[str, str] | None = None,
    custom_instructions: str | None = None,
    signal: AbortSignal | None = None,
    thinking_level: str | None = None,
    retry: SummaryRetry | None = None,
) -> CompactionResult:
    """Summarise ``preparation`` with ``model``; ``retry`` (optional) retries transient failures.

    Raises :class:`CompactionError` (``Summarization failed: …`` or ``Turn prefix summarization failed: …``) when
    a request fails for good. Each request's output limit is :func:`summary_max_tokens`.
    """
    max_tokens = summary_max_tokens(model, preparation.settings.reserve_tokens)
    conversation = serialize_conversation(convert_to_llm(preparation.messages_to_summarize))
    prompt = f"<conversation>\n{conversation}\n</conversation>\n\n"
    if preparation.previous_summary:
        prompt += f"<previous-summary>\n{preparation.previous_summary}\n</previous-summary>\n\n"
        prompt += UPDATE_INSTRUCTIONS
    else:
        prompt += INITIAL_INSTRUCTIONS
    focus = f"\n\nAdditional focus: {custom_instructions}" if custom_instructions else ""
    prompt += focus

    async def history() -> str:
        if not preparation.messages_to_summarize and preparation.is_split_turn:
            return "No prior history."
        return await _summarize(
            prompt, model, max_tokens, api_key, headers, signal, thinking_level, "Summarization failed", retry
        )

    if preparation.is_split_turn and preparation.turn_prefix_messages:
        prefix_text = serialize_conversation(convert_to_llm(preparation.turn_prefix_messages))
        prefix_prompt = f"<conversation>\n{prefix_text}\n</conversation>\n\n{TURN_PREFIX_INSTRUCTIONS}{focus}"
        history_summary = await history()  # one request at a time (pi 0.80.4)
        prefix_summary = await _summarize(
            prefix_prompt,
            model,
            max_tokens,
            api_key,
            headers,
            signal,
            thinking_level,
            "Turn prefix summarization failed",
            retry,
        )
        summary = history_summary + SPLIT_TURN_JOIN + prefix_summary
    else:
        summary = await history()
    modified = sorted(preparation.modified_files)
    read_only = sorted(preparation.read_files - preparation.modified_files)
    summary += format_file_operations(read_only, modified)
    return CompactionResult(
        summary=summary,
        first_kept_entry_id=preparation.first_kept_entry_id,
        tokens_before=preparation.tokens_before,
        details={"readFiles": read_only, "modifiedFiles": modified},
    )
