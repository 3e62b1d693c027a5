"""OpenAI Responses: message/tool conversion, tool-call id normalisation (pi-reference §7.3, §1.15).

Tool-call ids: pi stores a Responses function call as ``"<call_id>|<item_id>"`` (e.g.
``call_abc|fc_123``) so that a replay can send both ``call_id`` and the item ``id``; this port keeps that
stored form. Only the ``call_id`` part is the provider's tool-call id (tool results reference it); compare
that part when checking against other clients.

:func:`normalize_responses_id` (used by :func:`transform_messages` for assistant messages of another model):
for providers whose ids are Responses-style (``openai``, ``openai-codex``, ``opencode``) an id
``call|item`` keeps both parts, each sanitised to ``[a-zA-Z0-9_-]`` (64 chars, trailing ``_`` removed); the
item id of a tool call from a foreign provider/api becomes ``fc_<short_hash(item)>``; an item id not
starting with ``fc_`` gets that prefix. Other ids (and every id for other providers) are sanitised whole.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection
from typing import Any

from ..hash import short_hash
from ..sanitize import sanitize_surrogates
from ..transform_messages import transform_messages
from ..types import (
    AssistantMessage,
    Context,
    ImageContent,
    Model,
    TextContent,
    ThinkingContent,
    Tool,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from ._content_rules import tool_result_text, user_content_parts
from ._stream_blocks import json_compact

OPENAI_TOOL_CALL_PROVIDERS = frozenset({"openai", "openai-codex", "opencode"})
_INVALID = re.compile(r"[^a-zA-Z0-9_-]")


def _normalize_part(part: str) -> str:
    return _INVALID.sub("_", part)[:64].rstrip("_")


def foreign_item_id(item_id: str) -> str:
    """``fc_<short_hash(item_id)>`` (≤ 64 chars) for an item id minted by another provider."""
    return f"fc_{short_hash(item_id)}"[:64]


def make_responses_id_normalizer(
    model: Model, allowed_providers: Collection[str] = OPENAI_TOOL_CALL_PROVIDERS
) -> Callable[[str, Model, AssistantMessage], str]:
    """The id normaliser for requests to ``model`` (see the module docstring)."""

    def normalize(tool_call_id: str, _target: Model, source: AssistantMessage) -> str:
        if model.provider not in allowed_providers or "|" not in tool_call_id:
            return _normalize_part(tool_call_id)
        call_id, item_id = tool_call_id.split("|")[:2]
        foreign = source.provider != model.provider or source.api != model.api
        new_item = foreign_item_id(item_id) if foreign else _normalize_part(item_id)
        if not new_item.startswith("fc_"):
            new_item = _normalize_part(f"fc_{new_item}")
        return f"{_normalize_part(call_id)}|{new_item}"

    return normalize


def encode_text_signature(item_id: str, phase: str | None = None) -> str:
    """``{"v":1,"id":<item id>[,"phase"]}`` stored as a text block's ``text_signature``."""
    payload: dict[str, Any] = {"v": 1, "id": item_id}
    if phase:
        payload["phase"] = phase
    return json_compact(payload)


def parse_text_signature(signature: str | None) -> tuple[str, str | None] | None:
    """``(item id, phase)`` from a v1 JSON signature or a legacy bare id; None when empty."""
    if not signature:
        return None
    if signature.startswith("{"):
        try:
            parsed = json.loads(signature)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict) and parsed.get("v") == 1 and isinstance(parsed.get("id"), str):
            phase = parsed.get("phase")
            return parsed["id"], phase if phase in ("commentary", "final_answer") else None
    return signature, None


def _input_image(block: ImageContent) -> dict[str, Any]:
    return {
        "type": "input_image",
        "detail": "auto",
        "image_url": f"data:{block.mime_type};base64,{block.data}",
    }


def convert_responses_messages(
    model: Model,
    context: Context,
    allowed_providers: Collection[str] = OPENAI_TOOL_CALL_PROVIDERS,
    include_system_prompt: bool = True,
) -> list[dict[str, Any]]:
    """pi messages → Responses ``input`` items (pi-reference §7.3)."""
    items: list[dict[str, Any]] = []
    transformed = transform_messages(
        context.messages, model, make_responses_id_normalizer(model, allowed_providers)
    )
    if include_system_prompt and context.system_prompt:
        items.append(
            {
                # compat.supportsDeveloperRole: false keeps "system" for servers without the role (pi 0.79.0)
                "role": "developer"
                if model.reasoning and (model.compat or {}).get("supportsDeveloperRole") is not False
                else "system",
                "content": sanitize_surrogates(context.system_prompt),
            }
        )
    for msg_index, msg in enumerate(transformed):
        if isinstance(msg, UserMessage):
            if isinstance(msg.content, str):
                items.append(
                    {
                        "role": "user",
                        "content": [{"type": "input_text", "text": sanitize_surrogates(msg.content)}],
                    }
                )
            else:
                content = [
                    {"type": "input_text", "text": sanitize_surrogates(c.text)}
                    if isinstance(c, TextContent)
                    else _input_image(c)
                    for c in user_content_parts(msg.content)
                ]
                if content:
                    items.append({"role": "user", "content": content})
        elif isinstance(msg, AssistantMessage):
            items.extend(_assistant_items(msg, model, msg_index))
        elif isinstance(msg, ToolResultMessage):
            items.append(_tool_result_item(msg, model))
    return items


def _assistant_items(msg: AssistantMessage, model: Model, msg_index: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    different_model = msg.model != model.id and msg.provider == model.provider and msg.api == model.api
    for block in msg.content:
        if isinstance(block, ThinkingContent):
            if block.thinking_signature:
                try:
                    item = json.loads(block.thinking_signature)
                except ValueError:
                    continue  # not a Responses reasoning item: nothing that can be replayed
                if isinstance(item, dict):
                    out.append(item)
        elif isinstance(block, TextContent):
            parsed = parse_text_signature(block.text_signature)
            msg_id = parsed[0] if parsed else None
            if not msg_id:
                msg_id = f"msg_{msg_index}"
            elif len(msg_id) > 64:
                msg_id = f"msg_{short_hash(msg_id)}"
            entry: dict[str, Any] = {
                "type": "message",
                "role": "assistant",
                "content": [
                    {"type": "output_text", "text": sanitize_surrogates(block.text), "annotations": []}
                ],
                "status": "completed",
                "id": msg_id,
            }
            if parsed and parsed[1]:
                entry["phase"] = parsed[1]
            out.append(entry)
        elif isinstance(block, ToolCall):
            parts = block.id.split("|")
            call_id = parts[0]
            item_id: str | None = parts[1] if len(parts) > 1 else None
            if different_model and item_id and item_id.startswith("fc_"):
                item_id = None  # avoid reasoning-pairing validation for another model's items
            call: dict[str, Any] = {"type": "function_call"}
            if item_id:
                call["id"] = item_id
            call.update({"call_id": call_id, "name": block.name, "arguments": json_compact(block.arguments)})
            out.append(call)
    return out


def _tool_result_item(msg: ToolResultMessage, model: Model) -> dict[str, Any]:
    text = "\n".join(c.text for c in msg.content if isinstance(c, TextContent))
    images = [c for c in msg.content if isinstance(c, ImageContent)]
    call_id = msg.tool_call_id.split("|")[0]
    output: str | list[dict[str, Any]]
    if images and "image" in model.input:
        parts: list[dict[str, Any]] = []
        if text.strip():
            parts.append({"type": "input_text", "text": sanitize_surrogates(text)})
        parts.extend(_input_image(c) for c in images)
        output = parts
    else:
        output = sanitize_surrogates(tool_result_text(msg.content))
    return {"type": "function_call_output", "call_id": call_id, "output": output}


def convert_responses_tools(tools: list[Tool], strict: bool | None = False) -> list[dict[str, Any]]:
    """``[{type: "function", name, description, parameters, strict}]`` (strict false; None for Codex)."""
    return [
        {
            "type": "function",
            "name": t.name,
            "description": t.description,
            "parameters": t.parameters,
            "strict": strict,
        }
        for t in tools
    ]
