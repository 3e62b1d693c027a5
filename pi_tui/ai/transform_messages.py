"""Cross-provider message transformation run by every provider before building its request (pi-reference §1.15).

:func:`transform_messages` returns new message objects and never mutates its input. Steps:

1. Image downgrade for models without ``"image"`` input: images become a text placeholder (consecutive images
   collapse into one).
2. Assistant messages from another model (``provider``, ``api`` or ``model`` differs): thinking becomes plain
   text (empty thinking dropped, redacted thinking dropped), text signatures and tool-call ``thought_signature``
   dropped, tool-call ids normalised by the provider's ``normalize_tool_call_id`` and the matching tool results
   renamed. Same-model messages keep thinking blocks (signed ones even when empty).
3. Assistant messages with ``stop_reason`` ``error``/``aborted`` are dropped; then
   :func:`pi_tui.ai.tool_pairing.repair_tool_pairing` makes every call/result pair valid for any provider:
   results straight after their calls in call order, a synthetic ``No result provided`` error result for a
   missing one, results without a call left out, repeated ids renamed (beyond pi, which only added synthetic
   results before the next assistant/user message; tests/conformance/DIFFERENCES.md).

Beyond pi (cases/README.md case 18): a tool call with an empty id gets a made-up, deterministic, non-empty id
(``call_<hash>``), and the tool result(s) with an empty ``tool_call_id`` that follow it take the same id, so no
outgoing message carries an empty tool-call id.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import TypeAdapter

from .hash import short_hash
from .tool_pairing import repair_tool_pairing
from .types import (
    AssistantMessage,
    ImageContent,
    Message,
    Model,
    TextContent,
    ThinkingContent,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)

NormalizeToolCallId = Callable[[str, Model, AssistantMessage], str]

USER_IMAGE_PLACEHOLDER = "(image omitted: model does not support images)"
TOOL_IMAGE_PLACEHOLDER = "(tool image omitted: model does not support images)"

_INVALID_ID_CHARS = re.compile(r"[^a-zA-Z0-9_-]")
_MESSAGE_ADAPTER: TypeAdapter[Any] = TypeAdapter(Message)


# ---------------------------------------------------------------- per-provider id normalisers


def _sanitize_id(tool_call_id: str, limit: int) -> str:
    return _INVALID_ID_CHARS.sub("_", tool_call_id)[:limit]


def normalize_id_anthropic(tool_call_id: str, model: Model, message: AssistantMessage) -> str:
    """Anthropic: chars outside ``[a-zA-Z0-9_-]`` → ``_``, truncated to 64 (pi-reference §1.15)."""
    return _sanitize_id(tool_call_id, 64)


def normalize_id_openai_completions(tool_call_id: str, model: Model, message: AssistantMessage) -> str:
    """Chat Completions: Responses-style ``call_id|item_id`` → sanitised ``call_id`` (≤40 chars);
    provider ``openai`` truncates any id to 40; other ids unchanged (pi-reference §1.15)."""
    if "|" in tool_call_id:
        return _sanitize_id(tool_call_id.split("|", 1)[0], 40)
    if model.provider == "openai":
        return tool_call_id[:40]
    return tool_call_id


def normalize_id_google(tool_call_id: str, model: Model, message: AssistantMessage) -> str:
    """Google: only models whose id starts with ``claude-`` or ``gpt-oss-`` need ids; those are sanitised to 64."""
    if model.id.startswith(("claude-", "gpt-oss-")):
        return _sanitize_id(tool_call_id, 64)
    return tool_call_id


# ---------------------------------------------------------------- helpers


def _as_message(message: Any) -> Any:
    """Accept pi-JSON dicts too; pydantic messages are used as they are."""
    if isinstance(message, dict):
        return _MESSAGE_ADAPTER.validate_python(message)
    return message


def _replace_images(content: Sequence[Any], placeholder: str) -> list[Any]:
    result: list[Any] = []
    previous_was_placeholder = False
    for block in content:
        if isinstance(block, ImageContent):
            if not previous_was_placeholder:
                result.append(TextContent(text=placeholder))
            previous_was_placeholder = True
            continue
        result.append(block.model_copy())
        previous_was_placeholder = isinstance(block, TextContent) and block.text == placeholder
    return result


def _made_up_id(message: AssistantMessage, index: int, call: ToolCall) -> str:
    """A deterministic id for a call that has none (stable across repeated transforms, for prompt caching)."""
    return "call_" + short_hash(f"{message.timestamp}:{message.model}:{index}:{call.name}")


class _IdRepair:
    """Tracks calls that had an empty id so the following results with an empty id can take the made-up id."""

    def __init__(self) -> None:
        self.pending: list[tuple[str, str]] = []  # (made-up id, tool name) in call order

    def start(self, made_up: list[tuple[str, str]]) -> None:
        self.pending = list(made_up)

    def claim(self, result: ToolResultMessage) -> str:
        for i, (made_up, name) in enumerate(self.pending):
            if name == result.tool_name:
                del self.pending[i]
                return made_up
        if self.pending:
            return self.pending.pop(0)[0]
        return "call_" + short_hash(f"orphan-result:{result.timestamp}:{result.tool_name}")


def _transform_assistant(
    message: AssistantMessage,
    model: Model,
    normalize: NormalizeToolCallId | None,
    id_map: dict[str, str],
    made_up: list[tuple[str, str]],
) -> AssistantMessage:
    same_model = message.provider == model.provider and message.api == model.api and message.model == model.id
    content: list[Any] = []
    for index, block in enumerate(message.content):
        if isinstance(block, ThinkingContent):
            if block.redacted:
                if same_model:
                    content.append(block.model_copy())
                continue
            if same_model and block.thinking_signature:
                content.append(block.model_copy())
                continue
            if not block.thinking or not block.thinking.strip():
                continue
            content.append(block.model_copy() if same_model else TextContent(text=block.thinking))
        elif isinstance(block, TextContent):
            content.append(block.model_copy() if same_model else TextContent(text=block.text))
        elif isinstance(block, ToolCall):
            call = block.model_copy(deep=True)
            if not same_model:
                call.thought_signature = None
            if not call.id:
                call.id = _made_up_id(message, index, call)
                made_up.append((call.id, call.name))
            if not same_model and normalize is not None:
                normalized = normalize(call.id, model, message)
                if normalized and normalized != call.id:
                    if block.id:
                        id_map[block.id] = normalized
                    else:
                        made_up[-1] = (normalized, call.name)
                    call.id = normalized
            content.append(call)
        else:
            content.append(block.model_copy() if hasattr(block, "model_copy") else block)
    return message.model_copy(update={"content": content, "usage": message.usage.model_copy(deep=True)})


# ---------------------------------------------------------------- main entry point


def transform_messages(
    messages: Sequence[Message],
    model: Model,
    normalize_tool_call_id: NormalizeToolCallId | None = None,
) -> list[Message]:
    """Prepare ``messages`` (pi ``Message`` objects or their JSON dicts) for ``model`` (pi-reference §1.15).

    ``normalize_tool_call_id(id, model, assistant_message) -> new_id`` is applied to tool calls of assistant
    messages from another model. Returns new message objects (input never mutated); dicts come back as
    pydantic messages. Messages with an unknown role pass through unchanged.
    """
    supports_images = "image" in model.input
    id_map: dict[str, str] = {}
    repair = _IdRepair()
    transformed: list[Any] = []

    for raw in messages:
        message = _as_message(raw)
        if isinstance(message, UserMessage):
            if not supports_images and isinstance(message.content, list):
                message = message.model_copy(
                    update={"content": _replace_images(message.content, USER_IMAGE_PLACEHOLDER)}
                )
            elif isinstance(message.content, list):
                message = message.model_copy(
                    update={"content": [block.model_copy() for block in message.content]}
                )
            else:
                message = message.model_copy()
            transformed.append(message)
        elif isinstance(message, ToolResultMessage):
            if supports_images:
                content = [block.model_copy() for block in message.content]
            else:
                content = _replace_images(message.content, TOOL_IMAGE_PLACEHOLDER)
            update: dict[str, Any] = {"content": content}
            if not message.tool_call_id:
                update["tool_call_id"] = repair.claim(message)
            elif message.tool_call_id in id_map:
                update["tool_call_id"] = id_map[message.tool_call_id]
            transformed.append(message.model_copy(update=update))
        elif isinstance(message, AssistantMessage):
            made_up: list[tuple[str, str]] = []
            transformed.append(_transform_assistant(message, model, normalize_tool_call_id, id_map, made_up))
            repair.start(made_up)
        else:
            transformed.append(message)

    # Second pass: drop failed turns, then make every tool call / result pair valid (tool_pairing.py).
    kept = [m for m in transformed if not (isinstance(m, AssistantMessage) and m.stop_reason in ("error", "aborted"))]
    return repair_tool_pairing(kept)
