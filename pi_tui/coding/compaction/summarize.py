"""Summarisation LLM calls for compaction (pi-reference §3.9 "Summarisation").

One ``complete_simple`` call per summary with a summariser system prompt and a single user message
``<conversation>…</conversation>`` + optional ``<previous-summary>`` + instructions (+ ``Additional focus``).
Split turns run a history summary and a turn-prefix summary concurrently and join them.
"""

from __future__ import annotations

import asyncio
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
) -> str:
    options = SimpleStreamOptions(max_tokens=max_tokens, api_key=api_key, headers=headers, signal=signal)
    if model.reasoning and thinking_level and thinking_level != "off":
        options.reasoning = thinking_level  # type: ignore[assignment]
    context = Context(
        system_prompt=SUMMARIZATION_SYSTEM_PROMPT,
        messages=[UserMessage(content=[TextContent(text=text)])],
    )
    reply = await complete_simple(model, context, options)
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
) -> CompactionResult:
    """Summarise ``preparation`` with ``model``. Raises :class:`CompactionError` when a call fails."""
    reserve = preparation.settings.reserve_tokens
    conversation = serialize_conversation(convert_to_llm(preparation.messages_to_summarize))
    prompt = f"<conversation>\n{conversation}\n</conversation>\n\n"
    if preparation.previous_summary:
        prompt += f"<previous-summary>\n{preparation.previous_summary}\n</previous-summary>\n\n"
        prompt += UPDATE_INSTRUCTIONS
    else:
        prompt += INITIAL_INSTRUCTIONS
    if custom_instructions:
        prompt += f"\n\nAdditional focus: {custom_instructions}"

    async def history() -> str:
        if not preparation.messages_to_summarize and preparation.is_split_turn:
            return "No prior history."
        return await _summarize(
            prompt, model, int(0.8 * reserve), api_key, headers, signal, thinking_level, "Summarization failed"
        )

    if preparation.is_split_turn and preparation.turn_prefix_messages:
        prefix_text = serialize_conversation(convert_to_llm(preparation.turn_prefix_messages))
        prefix_prompt = f"<conversation>\n{prefix_text}\n</conversation>\n\n{TURN_PREFIX_INSTRUCTIONS}"
        history_summary, prefix_summary = await asyncio.gather(
            history(),
            _summarize(
                prefix_prompt,
                model,
                int(0.5 * reserve),
                api_key,
                headers,
                signal,
                thinking_level,
                "Turn prefix summarization failed",
            ),
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
