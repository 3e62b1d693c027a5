"""Request side of the ``openai-completions`` provider: URL, headers, body and message conversion.

pi-reference §7.1 (wire format), §1.9 (compat flags, resolved by :mod:`.openai_compat`), §1.13 (keys,
Cloudflare placeholders, Copilot headers), §1.15 (``transform_messages`` runs first).
"""

from __future__ import annotations

import os
import re
from typing import Any

from ..js_format import js_json_compact
from ..options import StreamOptions
from ..sanitize import sanitize_surrogates
from ..transform_messages import normalize_id_openai_completions, transform_messages
from ..types import AssistantMessage, Context, Model, ToolResultMessage
from ._content_rules import tool_result_text, user_content_parts
from ._openai_completions_parse import REASONING_FIELDS
from ._openrouter_reasoning import is_reasoning_mandatory
from ._options_common import prompt_cache_key
from ._reasoning_details import details_for_replay
from ._tool_call_ids import apply_mistral_ids
from .openai_compat import CompletionsCompat

DEFAULT_BASE_URL = "https://api.openai.com/v1"
ASSISTANT_BRIDGE_TEXT = "I have processed the tool results."
_LOCAL_HOSTS = re.compile(r"^https?://(localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[::1\])(:\d+)?(/|$)", re.I)


def resolve_cache_retention(value: str | None) -> str:
    """``value``, else ``long`` when ``PI_CACHE_RETENTION=long``, else ``short`` (pi-reference §1.8)."""
    if value:
        return value
    return "long" if os.environ.get("PI_CACHE_RETENTION") == "long" else "short"


def is_local_base_url(url: str) -> bool:
    """True for loopback servers (localhost, 127.x, 0.0.0.0, [::1]) that need no API key."""
    return bool(_LOCAL_HOSTS.match(url or ""))


def resolve_base_url(model: Model) -> str:
    """``model.base_url`` with Cloudflare ``{VAR}`` placeholders filled from the environment (§1.13).

    Raises ``ValueError("<NAME> is required for provider <provider> but is not set.")``.
    """
    url = model.base_url or DEFAULT_BASE_URL

    def sub(m: re.Match[str]) -> str:
        value = os.environ.get(m.group(1))
        if not value:
            raise ValueError(f"{m.group(1)} is required for provider {model.provider} but is not set.")
        return value

    return re.sub(r"\{([A-Z_][A-Z0-9_]*)\}", sub, url) if "{" in url else url


def build_headers(
    model: Model,
    context: Context,
    api_key: str | None,
    options: StreamOptions | None,
    compat: CompletionsCompat,
    session_id: str | None,
) -> dict[str, str]:
    """Auth + model headers + Copilot/affinity headers, ``options.headers`` merged last (pi-reference §1.13)."""
    headers: dict[str, str] = {}
    if api_key and model.provider != "cloudflare-ai-gateway":
        headers["Authorization"] = f"Bearer {api_key}"
    headers.update(model.headers or {})
    if model.provider == "github-copilot":
        last = context.messages[-1] if context.messages else None
        headers["X-Initiator"] = "agent" if last is not None and last.role != "user" else "user"
        headers["Openai-Intent"] = "conversation-edits"
        if _has_images(context):
            headers["Copilot-Vision-Request"] = "true"
    if session_id and compat.send_session_affinity_headers:
        headers["session_id"] = session_id
        headers["x-client-request-id"] = session_id
        headers["x-session-affinity"] = session_id
    if options is not None and options.headers:
        headers.update(options.headers)
    if model.provider == "cloudflare-ai-gateway" and api_key:
        headers["cf-aig-authorization"] = f"Bearer {api_key}"
    return headers


def _has_images(context: Context) -> bool:
    for m in context.messages:
        if m.role in ("user", "toolResult") and isinstance(m.content, list):
            if any(c.type == "image" for c in m.content):
                return True
    return False


def _has_tool_history(context: Context) -> bool:
    for m in context.messages:
        if m.role == "toolResult":
            return True
        if m.role == "assistant" and any(b.type == "toolCall" for b in m.content):
            return True
    return False


def _mapped_effort(model: Model, level: str) -> str:
    mapped = (model.thinking_level_map or {}).get(level)
    return mapped if mapped is not None else level


def build_params(
    model: Model,
    context: Context,
    options: StreamOptions | None,
    compat: CompletionsCompat,
    cache_retention: str,
) -> dict[str, Any]:
    """The JSON request body (pi-reference §7.1, §1.9)."""
    opts = options or StreamOptions()
    extra = opts.extra or {}
    effort: str | None = extra.get("reasoning_effort")
    messages = convert_messages(model, context, compat)
    url = model.base_url or DEFAULT_BASE_URL
    params: dict[str, Any] = {"model": model.id, "messages": messages, "stream": True}
    long_ok = cache_retention == "long" and compat.supports_long_cache_retention
    if opts.session_id and (("api.openai.com" in url and cache_retention != "none") or long_ok):
        params["prompt_cache_key"] = prompt_cache_key(opts.session_id)
    if long_ok:
        params["prompt_cache_retention"] = "24h"
    if compat.supports_usage_in_streaming:
        params["stream_options"] = {"include_usage": True}
    if compat.supports_store:
        params["store"] = False
    if opts.max_tokens:
        params[compat.max_tokens_field] = opts.max_tokens
    if opts.temperature is not None:
        params["temperature"] = opts.temperature
    if context.tools:
        params["tools"] = convert_tools(context.tools, compat)
        if compat.zai_tool_stream:
            params["tool_stream"] = True
    elif _has_tool_history(context):
        params["tools"] = []
    if compat.cache_control_format == "anthropic" and cache_retention != "none":
        cc: dict[str, Any] = {"type": "ephemeral"}
        if long_ok:
            cc["ttl"] = "1h"
        _apply_cache_control(messages, params.get("tools"), cc)
    if extra.get("tool_choice") is not None:
        params["tool_choice"] = extra["tool_choice"]
    fmt = compat.thinking_format
    if model.reasoning:
        if fmt == "zai":
            # Z.AI's own switch; clear_thinking false keeps earlier turns' reasoning (preserved thinking):
            # pi 0.79.1, 0.80.3. Z.AI ignored the enable_thinking pi 0.73 sent, so thinking could not be turned off.
            params["thinking"] = {"type": "enabled", "clear_thinking": False} if effort else {"type": "disabled"}
        elif fmt == "qwen":
            params["enable_thinking"] = bool(effort)
        elif fmt == "qwen-chat-template":
            params["chat_template_kwargs"] = {"enable_thinking": bool(effort), "preserve_thinking": True}
        elif fmt == "deepseek":
            params["thinking"] = {"type": "enabled" if effort else "disabled"}
            if effort and compat.supports_reasoning_effort:  # Moonshot's Kimi takes the switch only
                params["reasoning_effort"] = _mapped_effort(model, effort)
        elif fmt == "openrouter":
            level_map = model.thinking_level_map or {}
            if effort:
                params["reasoning"] = {"effort": _mapped_effort(model, effort)}
            elif level_map.get("off"):
                params["reasoning"] = {"effort": level_map["off"]}
            elif not is_reasoning_mandatory(model):  # always-reasoning models refuse "none" (pi 0.84.4)
                params["reasoning"] = {"effort": "none"}
        elif compat.supports_reasoning_effort:
            if effort:
                params["reasoning_effort"] = _mapped_effort(model, effort)
            elif isinstance((model.thinking_level_map or {}).get("off"), str):
                params["reasoning_effort"] = (model.thinking_level_map or {})["off"]
    if (model.compat or {}).get("openRouterRouting"):  # also behind a proxy of OpenRouter (pi 0.79.0)
        params["provider"] = (model.compat or {})["openRouterRouting"]
    routing = compat.vercel_gateway_routing or {}
    if "ai-gateway.vercel.sh" in url and (routing.get("only") or routing.get("order")):
        params["providerOptions"] = {"gateway": {k: routing[k] for k in ("only", "order") if routing.get(k)}}
    return params


def _apply_cache_control(
    messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None, cc: dict[str, Any]
) -> None:
    for m in messages:
        if m["role"] in ("system", "developer"):
            _cache_text(m, cc)
            break
    if tools:
        tools[-1]["cache_control"] = cc
    for m in reversed(messages):
        if m["role"] in ("user", "assistant") and _cache_text(m, cc):
            break


def _cache_text(message: dict[str, Any], cc: dict[str, Any]) -> bool:
    content = message.get("content")
    if isinstance(content, str):
        if not content:
            return False
        message["content"] = [{"type": "text", "text": content, "cache_control": cc}]
        return True
    if isinstance(content, list):
        for part in reversed(content):
            if isinstance(part, dict) and part.get("type") == "text":
                part["cache_control"] = cc
                return True
    return False


def convert_tools(tools: list[Any], compat: CompletionsCompat) -> list[dict[str, Any]]:
    """``[{type:"function", function:{name, description, parameters, strict:false?}}]``."""
    out = []
    for t in tools:
        fn: dict[str, Any] = {"name": t.name, "description": t.description, "parameters": t.parameters}
        if compat.supports_strict_mode:
            fn["strict"] = False
        out.append({"type": "function", "function": fn})
    return out


def _image_url(block: Any) -> dict[str, Any]:
    return {"type": "image_url", "image_url": {"url": f"data:{block.mime_type};base64,{block.data}"}}


def convert_messages(model: Model, context: Context, compat: CompletionsCompat) -> list[dict[str, Any]]:
    """pi messages → Chat Completions messages (pi-reference §7.1), after ``transform_messages`` (§1.15)."""
    msgs = transform_messages(list(context.messages), model, normalize_id_openai_completions)
    out: list[dict[str, Any]] = []
    if context.system_prompt:
        role = "developer" if model.reasoning and compat.supports_developer_role else "system"
        out.append({"role": role, "content": sanitize_surrogates(context.system_prompt)})
    last_role: str | None = None
    i = 0
    while i < len(msgs):
        msg = msgs[i]
        if compat.requires_assistant_after_tool_result and last_role == "toolResult" and msg.role == "user":
            out.append({"role": "assistant", "content": ASSISTANT_BRIDGE_TEXT})
        if msg.role == "user":
            if isinstance(msg.content, str):
                out.append({"role": "user", "content": sanitize_surrogates(msg.content)})
            else:
                parts = [
                    {"type": "text", "text": sanitize_surrogates(c.text)}
                    if c.type == "text"
                    else _image_url(c)
                    for c in user_content_parts(msg.content)
                ]
                if not parts:
                    i += 1
                    continue
                out.append({"role": "user", "content": parts})
        elif msg.role == "assistant":
            converted = _convert_assistant(model, msg, compat)
            if converted is None:
                i += 1
                continue
            out.append(converted)
        else:  # toolResult run
            images: list[dict[str, Any]] = []
            j = i
            while j < len(msgs) and isinstance(msgs[j], ToolResultMessage):
                tr = msgs[j]
                assert isinstance(tr, ToolResultMessage)
                has_images = any(c.type == "image" for c in tr.content)
                item: dict[str, Any] = {
                    "role": "tool",
                    "content": sanitize_surrogates(tool_result_text(tr.content)),
                    "tool_call_id": tr.tool_call_id,
                }
                if compat.requires_tool_result_name and tr.tool_name:
                    item["name"] = tr.tool_name
                out.append(item)
                if has_images and "image" in model.input:
                    images += [_image_url(c) for c in tr.content if c.type == "image"]
                j += 1
            i = j
            if images:
                if compat.requires_assistant_after_tool_result:
                    out.append({"role": "assistant", "content": ASSISTANT_BRIDGE_TEXT})
                out.append(
                    {
                        "role": "user",
                        "content": [{"type": "text", "text": "Attached image(s) from tool result:"}, *images],
                    }
                )
                last_role = "user"
            else:
                last_role = "toolResult"
            continue
        last_role = msg.role
        i += 1
    if compat.tool_call_id_format == "mistral":
        apply_mistral_ids(out)
    return out


def _convert_assistant(
    model: Model, msg: AssistantMessage, compat: CompletionsCompat
) -> dict[str, Any] | None:
    result: dict[str, Any] = {
        "role": "assistant",
        "content": "" if compat.requires_assistant_after_tool_result else None,
    }
    texts = [sanitize_surrogates(b.text) for b in msg.content if b.type == "text" and b.text.strip()]
    joined = "".join(texts)
    all_thinking = [b for b in msg.content if b.type == "thinking"]
    thinking = [b for b in all_thinking if b.thinking.strip()]
    calls = [b for b in msg.content if b.type == "toolCall"]
    details = details_for_replay(
        (b.thinking_signature for b in all_thinking), (c.thought_signature for c in calls)
    )
    if thinking and compat.requires_thinking_as_text:
        thinking_text = "\n\n".join(sanitize_surrogates(b.thinking) for b in thinking)
        result["content"] = [{"type": "text", "text": thinking_text}] + [
            {"type": "text", "text": t} for t in texts
        ]
    else:
        if joined:
            result["content"] = joined
        signature = thinking[0].thinking_signature if thinking and details is None else None
        if signature and signature in REASONING_FIELDS and compat.echo_reasoning:
            if compat.requires_reasoning_content_on_assistant_messages:
                signature = "reasoning_content"  # DeepSeek reads only this field, whatever the stream used
            result[signature] = "\n".join(sanitize_surrogates(b.thinking) for b in thinking)
    if calls:
        result["tool_calls"] = [
            {
                "id": c.id,
                "type": "function",
                "function": {"name": c.name, "arguments": js_json_compact(c.arguments or {})},
            }
            for c in calls
        ]
    if details:
        result["reasoning_details"] = details
    if compat.requires_reasoning_content_on_assistant_messages and model.reasoning:
        result.setdefault("reasoning_content", "")
    content = result["content"]
    if not content and not calls:
        return None
    return result
