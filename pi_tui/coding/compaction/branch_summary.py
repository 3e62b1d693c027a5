"""Branch summaries for tree navigation (pi 0.73.1 ``core/compaction/branch-summarization.js``; pi
docs/compaction.md "Branch Summarization").

When ``/tree`` (or RPC ``navigate_tree``) leaves a branch, the entries from the old leaf back to the deepest
entry shared with the target (:func:`collect_entries_for_branch_summary`) can be summarised by the model
(:func:`generate_branch_summary`) and saved as a ``branch_summary`` entry at the new position. The prompt is
pi's: the serialised conversation in ``<conversation>`` tags, then pi's structured-summary instructions
(``Additional focus: …`` appended for custom instructions, or the custom text alone when
``replace_instructions``); the reply gets pi's preamble and the ``<read-files>``/``<modified-files>`` lists.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pi_tui.ai.abort import AbortSignal
from pi_tui.ai.options import SimpleStreamOptions
from pi_tui.ai.stream import complete_simple
from pi_tui.ai.types import Context, Model, TextContent, UserMessage
from pi_tui.coding.messages import (
    BranchSummaryMessage,
    CompactionSummaryMessage,
    CustomMessage,
    convert_to_llm,
)
from pi_tui.coding.session.entries import (
    BranchSummaryEntry,
    CompactionEntry,
    CustomMessageEntry,
    MessageEntry,
    SessionEntryBase,
)

from .prepare import _collect_file_ops
from .serialize import serialize_conversation
from .summarize import SUMMARIZATION_SYSTEM_PROMPT, format_file_operations, summary_max_tokens
from .summary_retry import SummaryRetry, request_with_retry
from .tokens import estimate_tokens

if TYPE_CHECKING:
    from pi_tui.coding.session.session_manager import SessionManager

BRANCH_SUMMARY_PREAMBLE = (
    "The user explored a different conversation branch before returning here.\nSummary of that exploration:\n\n"
)
BRANCH_SUMMARY_PROMPT = """Create a structured summary of this conversation branch for context when returning later.

Use this EXACT format:

## Goal
[What was the user trying to accomplish in this branch?]

## Constraints & Preferences
- [Any constraints, preferences, or requirements mentioned]
- [Or "(none)" if none were mentioned]

## Progress
### Done
- [x] [Completed tasks/changes]

### In Progress
- [ ] [Work that was started but not finished]

### Blocked
- [Issues preventing progress, if any]

## Key Decisions
- **[Decision]**: [Brief rationale]

## Next Steps
1. [What should happen next to continue this work]

Keep each section concise. Preserve exact file paths, function names, and error messages."""
SUMMARY_MAX_TOKENS = 2048
"""pi 0.73's output limit of a branch summary; used only for a model that declares no ``max_tokens``."""
NO_CONTENT = "No content to summarize"


@dataclass
class BranchCollection:
    """``entries`` to summarise (chronological, old leaf's side only) and the ``common_ancestor_id``."""

    entries: list[SessionEntryBase]
    common_ancestor_id: str | None


@dataclass
class BranchSummaryResult:
    """A summary (``summary`` with preamble and file lists) or ``aborted`` / ``error``."""

    summary: str = ""
    read_files: list[str] = field(default_factory=list)
    modified_files: list[str] = field(default_factory=list)
    aborted: bool = False
    error: str | None = None


def collect_entries_for_branch_summary(
    manager: SessionManager, old_leaf_id: str | None, target_id: str
) -> BranchCollection:
    """The entries from ``old_leaf_id`` back to (not including) the deepest entry on both its path and
    ``target_id``'s; compaction entries are included (their summaries are context). Empty without a leaf."""
    if not old_leaf_id:
        return BranchCollection([], None)
    old_path = {entry.id for entry in manager.get_branch(old_leaf_id)}
    common: str | None = None
    for entry in reversed(manager.get_branch(target_id)):
        if entry.id in old_path:
            common = entry.id
            break
    entries: list[SessionEntryBase] = []
    seen: set[str] = set()
    current: str | None = old_leaf_id
    while current and current != common and current not in seen:
        seen.add(current)
        found = manager.get_entry(current)
        if found is None:
            break
        entries.append(found)
        current = found.parent_id
    entries.reverse()
    return BranchCollection(entries, common)


def _message_of(entry: SessionEntryBase) -> Any | None:
    if isinstance(entry, MessageEntry):
        role = getattr(entry.message, "role", None) if not isinstance(entry.message, dict) else entry.message.get(
            "role")
        return None if role in ("toolResult", "notification", "artifact") else entry.message
    if isinstance(entry, CustomMessageEntry):
        return CustomMessage(custom_type=entry.custom_type, content=entry.content, display=entry.display,
                             details=entry.details)
    if isinstance(entry, BranchSummaryEntry):
        return BranchSummaryMessage(summary=entry.summary, from_id=entry.from_id)
    if isinstance(entry, CompactionEntry):
        return CompactionSummaryMessage(summary=entry.summary, tokens_before=entry.tokens_before)
    return None


def prepare_branch_entries(
    entries: Sequence[SessionEntryBase], token_budget: int = 0
) -> tuple[list[Any], set[str], set[str]]:
    """``(messages, read_files, modified_files)``: the newest messages that fit ``token_budget`` (0: no
    limit; a summary entry past the budget still goes in while under 90 % of it), and the file operations of
    every entry (tool calls, and pi-made earlier branch summaries' ``details``)."""
    read: set[str] = set()
    modified: set[str] = set()
    for entry in entries:
        if isinstance(entry, BranchSummaryEntry) and not entry.from_hook and isinstance(entry.details, dict):
            read.update(p for p in entry.details.get("readFiles", []) or [] if isinstance(p, str))
            modified.update(p for p in entry.details.get("modifiedFiles", []) or [] if isinstance(p, str))
    messages: list[Any] = []
    total = 0
    for entry in reversed(entries):
        message = _message_of(entry)
        if message is None:
            continue
        _collect_file_ops([message], read, modified)
        tokens = estimate_tokens(message)
        if token_budget > 0 and total + tokens > token_budget:
            if isinstance(entry, CompactionEntry | BranchSummaryEntry) and total < token_budget * 0.9:
                messages.insert(0, message)
                total += tokens
            break
        messages.insert(0, message)
        total += tokens
    return messages, read, modified


def branch_summary_prompt(
    conversation: str, custom_instructions: str | None = None, replace_instructions: bool = False
) -> str:
    """The user text sent to the summariser (pi's prompt; see the module docstring)."""
    if replace_instructions and custom_instructions:
        instructions = custom_instructions
    elif custom_instructions:
        instructions = f"{BRANCH_SUMMARY_PROMPT}\n\nAdditional focus: {custom_instructions}"
    else:
        instructions = BRANCH_SUMMARY_PROMPT
    return f"<conversation>\n{conversation}\n</conversation>\n\n{instructions}"


async def generate_branch_summary(
    entries: Sequence[SessionEntryBase],
    model: Model,
    api_key: str | None,
    *,
    headers: dict[str, str] | None = None,
    signal: AbortSignal | None = None,
    custom_instructions: str | None = None,
    replace_instructions: bool = False,
    reserve_tokens: int = 16384,
    retry: SummaryRetry | None = None,
) -> BranchSummaryResult:
    """Summarise ``entries`` with one ``complete_simple`` call (budget = the model's context window (128,000 when
    unknown) minus ``reserve_tokens``). Never raises for a failed call: the result says ``aborted`` or carries
    ``error``. After pi 0.73: the request may use the model's output limit (pi 1.4.0: a fixed 2,048 failed when
    reasoning used it up; :func:`~.summarize.summary_max_tokens`) and a transient failure is retried with
    ``retry`` (pi 0.81.1)."""
    budget = (model.context_window or 128000) - reserve_tokens
    messages, read, modified = prepare_branch_entries(entries, budget)
    if not messages:
        return BranchSummaryResult(summary=NO_CONTENT)
    conversation = serialize_conversation(convert_to_llm(messages))
    prompt = branch_summary_prompt(conversation, custom_instructions, replace_instructions)
    max_tokens = summary_max_tokens(model, reserve_tokens) if model.max_tokens > 0 else SUMMARY_MAX_TOKENS
    options = SimpleStreamOptions(max_tokens=max_tokens, api_key=api_key, headers=headers, signal=signal)
    context = Context(system_prompt=SUMMARIZATION_SYSTEM_PROMPT, messages=[UserMessage(content=[TextContent(text=prompt)])])
    reply = await request_with_retry(
        lambda: complete_simple(model, context, options), retry, signal, model.context_window
    )
    if reply.stop_reason == "aborted" or (signal is not None and signal.aborted):
        return BranchSummaryResult(aborted=True)
    if reply.stop_reason == "error":
        return BranchSummaryResult(error=reply.error_message or "Summarization failed")
    text = "\n".join(b.text for b in reply.content if isinstance(b, TextContent))
    modified_files = sorted(modified)
    read_files = sorted(read - modified)
    summary = BRANCH_SUMMARY_PREAMBLE + text + format_file_operations(read_files, modified_files)
    return BranchSummaryResult(summary=summary or "No summary generated", read_files=read_files,
                               modified_files=modified_files)
