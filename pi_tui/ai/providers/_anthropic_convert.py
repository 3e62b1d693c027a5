"""Anthropic Messages request building: headers, body, message/tool conversion (pi-reference §7.2, §1.9, §1.15).

Body: ``{model, messages, max_tokens, stream: true, system?, temperature?, tools?, thinking?, output_config?,
metadata?, tool_choice?}``. ``max_tokens`` defaults to ``model.max_tokens // 3`` when the caller gave none.

Rules kept from pi 0.73:

* cache retention: ``options.cache_retention``, else ``long`` when env ``PI_CACHE_RETENTION=long``, else
  ``short``. ``none`` → no ``cache_control`` anywhere; otherwise ``{"type": "ephemeral"}`` plus ``ttl: "1h"``
  for ``long`` when ``compat.supportsLongCacheRetention`` (default true) on every system block, the last tool
  and the last block of the last message when it is a user message (string content becomes a text block).
* tools: ``{name, description, eager_input_streaming: true?, input_schema: {type: "object", properties,
  required}, cache_control? (last)}``; ``eager_input_streaming`` when ``compat.supportsEagerToolInputStreaming``
  (default true), else the ``fine-grained-tool-streaming-2025-05-14`` beta header is sent when tools exist.
* thinking (reasoning models only): enabled → ``{type: "adaptive", display}`` (+ ``output_config.effort``) for
  adaptive models (ids containing opus-4-6/4.6, opus-4-7/4.7, sonnet-4-6/4.6), else ``{type: "enabled",
  budget_tokens (default 1024), display}``; explicitly disabled → ``{type: "disabled"}``. ``temperature`` is
  dropped while thinking is enabled.
* messages go through :func:`transform_messages` with Anthropic id normalisation; empty user text dropped;
  signed thinking replayed as received (empty text included, pi 0.80.6), unsigned thinking as text, redacted
  thinking as ``redacted_thinking``; consecutive tool results
  merged into one user message of ``tool_result`` blocks.

Beyond pi (cases/README.md case 15): inside one assistant message no text/thinking block may follow a
``tool_use`` block, so blocks after the first ``tool_use`` that are not ``tool_use`` are moved (in order) in
front of it; and only tool results answering the ``tool_use`` blocks of the assistant message right before
them are sent as ``tool_result`` (each id once) — a stray or repeated result (e.g. whose assistant message was
dropped as errored) is sent as a text block instead, so the request always satisfies Anthropic's pairing rule.
Provider-specific options come from ``options.extra``: ``thinking_enabled`` (bool),
``thinking_budget_tokens``, ``effort``, ``thinking_display``, ``interleaved_thinking`` (default true),
``tool_choice`` (``"auto"|"any"|"none"`` or a dict such as ``{"type": "tool", "name": ...}``).
"""

from __future__ import annotations

import re
from typing import Any

from ..options import StreamOptions
from ..sanitize import sanitize_surrogates
from ..transform_messages import normalize_id_anthropic, transform_messages
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
from ._anthropic_parse import to_claude_code_name
from ._copilot_headers import copilot_dynamic_headers
from ._options_common import compat_flag, resolve_cache_retention

ANTHROPIC_VERSION = "2023-06-01"
DEFAULT_BASE_URL = "https://api.anthropic.com"
FINE_GRAINED_TOOL_STREAMING_BETA = "fine-grained-tool-streaming-2025-05-14"
INTERLEAVED_THINKING_BETA = "interleaved-thinking-2025-05-14"
OAUTH_BETAS = ("claude-code-20250219", "oauth-2025-04-20")
CLAUDE_CODE_VERSION = "2.1.75"
CLAUDE_CODE_IDENTITY = "You are Claude Code, Anthropic's official CLI for Claude."


def cache_control_for(model: Model, retention: str | None) -> dict[str, str] | None:
    """``{"type": "ephemeral"[, "ttl": "1h"]}`` or None for retention ``none``."""
    resolved = resolve_cache_retention(retention)
    if resolved == "none":
        return None
    control = {"type": "ephemeral"}
    if resolved == "long" and compat_flag(model, "supportsLongCacheRetention"):
        control["ttl"] = "1h"
    return control


def supports_adaptive_thinking(model_id: str) -> bool:
    """Opus 4.6/4.7 and Sonnet 4.6 (with or without a date suffix) use adaptive thinking."""
    return any(tag in model_id for tag in ("opus-4-6", "opus-4.6", "opus-4-7", "opus-4.7", "sonnet-4-6", "sonnet-4.6"))


_NO_TEMPERATURE = re.compile(r"opus-(?:4[-.][7-9]|[5-9])(?:\D|$)")


def supports_temperature(model: Model) -> bool:
    """Whether ``temperature`` may be sent: ``compat.supportsTemperature`` if set, else not for Claude Opus 4.7
    and later, which deprecated it and answer 400 (pi 0.78.1, #5251)."""
    explicit = (model.compat or {}).get("supportsTemperature")
    if explicit is not None:
        return bool(explicit)
    return _NO_TEMPERATURE.search(model.id.lower()) is None


def is_oauth_token(api_key: str) -> bool:
    """Anthropic OAuth (Claude Pro/Max) tokens contain ``sk-ant-oat``."""
    return "sk-ant-oat" in api_key


def messages_url(model: Model) -> str:
    """``{baseUrl}/v1/messages`` (default base ``https://api.anthropic.com``)."""
    return (model.base_url or DEFAULT_BASE_URL).rstrip("/") + "/v1/messages"


def build_headers(model: Model, context: Context, api_key: str, options: StreamOptions) -> dict[str, str]:
    """Request headers: auth, ``anthropic-version``, ``anthropic-beta`` rules, model then option headers last."""
    extra = options.extra or {}
    interleaved = extra.get("interleaved_thinking", True)
    betas: list[str] = []
    if context.tools and not compat_flag(model, "supportsEagerToolInputStreaming"):
        betas.append(FINE_GRAINED_TOOL_STREAMING_BETA)
    if interleaved and not supports_adaptive_thinking(model.id):
        betas.append(INTERLEAVED_THINKING_BETA)
    headers: dict[str, str] = {
        "anthropic-version": ANTHROPIC_VERSION,
        "anthropic-dangerous-direct-browser-access": "true",
    }
    if model.provider == "github-copilot":
        headers["authorization"] = f"Bearer {api_key}"
        if betas:
            headers["anthropic-beta"] = ",".join(betas)
        headers.update(model.headers or {})
        headers.update(copilot_dynamic_headers(context.messages))
    elif is_oauth_token(api_key):
        headers["authorization"] = f"Bearer {api_key}"
        headers["anthropic-beta"] = ",".join([*OAUTH_BETAS, *betas])
        headers["user-agent"] = f"claude-cli/{CLAUDE_CODE_VERSION}"
        headers["x-app"] = "cli"
        headers.update(model.headers or {})
    else:
        headers["x-api-key"] = api_key
        if betas:
            headers["anthropic-beta"] = ",".join(betas)
        headers.update(model.headers or {})
    headers.update(options.headers or {})
    return headers


def build_params(model: Model, context: Context, is_oauth: bool, options: StreamOptions) -> dict[str, Any]:
    """The JSON request body (see the module docstring)."""
    extra = options.extra or {}
    cache_control = cache_control_for(model, options.cache_retention)
    params: dict[str, Any] = {
        "model": model.id,
        "messages": convert_messages(context.messages, model, is_oauth, cache_control),
        "max_tokens": options.max_tokens or model.max_tokens // 3,
        "stream": True,
    }
    system: list[dict[str, Any]] = []
    if is_oauth:
        system.append(_with_cache({"type": "text", "text": CLAUDE_CODE_IDENTITY}, cache_control))
    if context.system_prompt:
        system.append(_with_cache({"type": "text", "text": sanitize_surrogates(context.system_prompt)}, cache_control))
    if system:
        params["system"] = system
    thinking_enabled = extra.get("thinking_enabled")
    if options.temperature is not None and not thinking_enabled and supports_temperature(model):
        params["temperature"] = options.temperature
    if context.tools:
        params["tools"] = convert_tools(
            context.tools, is_oauth, compat_flag(model, "supportsEagerToolInputStreaming"), cache_control
        )
    if model.reasoning:
        if thinking_enabled:
            display = extra.get("thinking_display") or "summarized"
            if supports_adaptive_thinking(model.id):
                params["thinking"] = {"type": "adaptive", "display": display}
                if extra.get("effort"):
                    params["output_config"] = {"effort": extra["effort"]}
            else:
                params["thinking"] = {
                    "type": "enabled",
                    "budget_tokens": extra.get("thinking_budget_tokens") or 1024,
                    "display": display,
                }
        elif thinking_enabled is False:
            params["thinking"] = {"type": "disabled"}
    user_id = (options.metadata or {}).get("user_id")
    if isinstance(user_id, str):
        params["metadata"] = {"user_id": user_id}
    tool_choice = extra.get("tool_choice")
    if tool_choice:
        params["tool_choice"] = {"type": tool_choice} if isinstance(tool_choice, str) else tool_choice
    return params


def _with_cache(block: dict[str, Any], cache_control: dict[str, str] | None) -> dict[str, Any]:
    if cache_control:
        block["cache_control"] = dict(cache_control)
    return block


def convert_tools(tools: list[Tool], is_oauth: bool, eager: bool,
                  cache_control: dict[str, str] | None) -> list[dict[str, Any]]:
    """Tool definitions in Anthropic form (``cache_control`` on the last one)."""
    result: list[dict[str, Any]] = []
    for i, tool in enumerate(tools):
        schema = tool.parameters or {}
        entry: dict[str, Any] = {
            "name": to_claude_code_name(tool.name) if is_oauth else tool.name,
            "description": tool.description,
        }
        if eager:
            entry["eager_input_streaming"] = True
        entry["input_schema"] = {
            "type": "object",
            "properties": schema.get("properties") or {},
            "required": schema.get("required") or [],
        }
        if cache_control and i == len(tools) - 1:
            entry["cache_control"] = dict(cache_control)
        result.append(entry)
    return result


def _image_block(block: ImageContent) -> dict[str, Any]:
    return {"type": "image", "source": {"type": "base64", "media_type": block.mime_type, "data": block.data}}


def convert_tool_result_content(content: list[Any]) -> str | list[dict[str, Any]]:
    """Text-only results → one string (texts joined by newlines); with images → blocks, with a
    ``(see attached image)`` text first when there is no text."""
    if not any(isinstance(c, ImageContent) for c in content):
        return sanitize_surrogates("\n".join(c.text for c in content if isinstance(c, TextContent)))
    blocks: list[dict[str, Any]] = []
    for c in content:
        if isinstance(c, TextContent):
            blocks.append({"type": "text", "text": sanitize_surrogates(c.text)})
        elif isinstance(c, ImageContent):
            blocks.append(_image_block(c))
    if not any(b["type"] == "text" for b in blocks):
        blocks.insert(0, {"type": "text", "text": "(see attached image)"})
    return blocks


def allows_empty_signature(model: Model) -> bool:
    """Whether unsigned thinking goes back as a thinking block with ``signature: ""`` instead of as text:
    ``compat.allowEmptySignature`` (pi 0.77.0, #4464: Anthropic-compatible servers that send thinking without
    signatures), on by default for the Vercel AI Gateway (pi 0.86.0, #9676)."""
    explicit = (model.compat or {}).get("allowEmptySignature")
    if explicit is not None:
        return bool(explicit)
    return model.provider == "vercel-ai-gateway" or "ai-gateway.vercel.sh" in (model.base_url or "").lower()


def _assistant_blocks(
    msg: AssistantMessage, is_oauth: bool, allow_empty_signature: bool = False
) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    for block in msg.content:
        if isinstance(block, TextContent):
            if block.text.strip():
                blocks.append({"type": "text", "text": sanitize_surrogates(block.text)})
        elif isinstance(block, ThinkingContent):
            if block.redacted:
                blocks.append({"type": "redacted_thinking", "data": block.thinking_signature or ""})
                continue
            signed = bool((block.thinking_signature or "").strip())
            if signed:
                # A signed block goes back as received, even with no text: with ``display: "omitted"`` every
                # thinking block is empty text + signature, and a tool-use turn must keep it (pi 0.80.6).
                blocks.append({"type": "thinking", "thinking": sanitize_surrogates(block.thinking),
                               "signature": block.thinking_signature})
            elif block.thinking.strip() and allow_empty_signature:
                blocks.append({"type": "thinking", "thinking": sanitize_surrogates(block.thinking), "signature": ""})
            elif block.thinking.strip():
                blocks.append({"type": "text", "text": sanitize_surrogates(block.thinking)})
        elif isinstance(block, ToolCall):
            blocks.append({
                "type": "tool_use",
                "id": block.id,
                "name": to_claude_code_name(block.name) if is_oauth else block.name,
                "input": block.arguments if block.arguments is not None else {},
            })
    return tool_use_last(blocks)


def tool_use_last(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Move non-``tool_use`` blocks that follow the first ``tool_use`` in front of it, keeping order (case 15)."""
    first = next((i for i, b in enumerate(blocks) if b.get("type") == "tool_use"), None)
    if first is None:
        return blocks
    head = blocks[:first]
    tail = blocks[first:]
    moved = [b for b in tail if b.get("type") != "tool_use"]
    if not moved:
        return blocks
    return head + moved + [b for b in tail if b.get("type") == "tool_use"]


def _stray_result_text(tr: ToolResultMessage) -> dict[str, Any]:
    """A tool result with no matching ``tool_use`` right before it, as a text block (nothing is lost)."""
    text = "\n".join(c.text for c in tr.content if isinstance(c, TextContent))
    label = "error result" if tr.is_error else "result"
    return {
        "type": "text",
        "text": sanitize_surrogates(f"(tool {label} of {tr.tool_name} [{tr.tool_call_id}] without a matching call)\n{text}"),
    }


def convert_messages(messages: list[Any], model: Model, is_oauth: bool,
                     cache_control: dict[str, str] | None) -> list[dict[str, Any]]:
    """pi messages → Anthropic ``messages`` (see the module docstring)."""
    transformed = transform_messages(messages, model, normalize_id_anthropic)
    params: list[dict[str, Any]] = []
    i = 0
    while i < len(transformed):
        msg = transformed[i]
        if isinstance(msg, UserMessage):
            if isinstance(msg.content, str):
                if msg.content.strip():
                    params.append({"role": "user", "content": sanitize_surrogates(msg.content)})
            else:
                blocks: list[dict[str, Any]] = []
                for item in msg.content:
                    if isinstance(item, TextContent):
                        if item.text.strip():
                            blocks.append({"type": "text", "text": sanitize_surrogates(item.text)})
                    elif isinstance(item, ImageContent):
                        blocks.append(_image_block(item))
                if blocks:
                    params.append({"role": "user", "content": blocks})
        elif isinstance(msg, AssistantMessage):
            blocks = _assistant_blocks(msg, is_oauth, allows_empty_signature(model))
            if blocks:
                params.append({"role": "assistant", "content": blocks})
        elif isinstance(msg, ToolResultMessage):
            # Only results answering the tool_use blocks of the assistant message right before are sent as
            # tool_result (Anthropic rejects any other); a stray or repeated result becomes plain text.
            prev = params[-1] if params else None
            open_ids = [
                b["id"] for b in (prev["content"] if prev and prev["role"] == "assistant" else [])
                if b.get("type") == "tool_use"
            ]
            results: list[dict[str, Any]] = []
            strays: list[dict[str, Any]] = []
            while i < len(transformed) and isinstance(transformed[i], ToolResultMessage):
                tr = transformed[i]
                assert isinstance(tr, ToolResultMessage)
                if tr.tool_call_id in open_ids:
                    open_ids.remove(tr.tool_call_id)
                    results.append({
                        "type": "tool_result",
                        "tool_use_id": tr.tool_call_id,
                        "content": convert_tool_result_content(list(tr.content)),
                        "is_error": tr.is_error,
                    })
                else:
                    strays.append(_stray_result_text(tr))
                i += 1
            params.append({"role": "user", "content": results + strays})
            continue
        i += 1
    if cache_control and params and params[-1]["role"] == "user":
        last = params[-1]
        if isinstance(last["content"], list):
            if last["content"] and last["content"][-1].get("type") in ("text", "image", "tool_result"):
                last["content"][-1]["cache_control"] = dict(cache_control)
        elif isinstance(last["content"], str):
            last["content"] = [{"type": "text", "text": last["content"], "cache_control": dict(cache_control)}]
    return params
