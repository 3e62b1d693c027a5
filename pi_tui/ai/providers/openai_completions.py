"""The ``openai-completions`` provider: OpenAI Chat Completions and every OpenAI-compatible server.

Wire format and consumption rules: pi-reference §7.1; compat flags §1.9 (:mod:`.openai_compat`); error and
abort handling §1.18 (:func:`._http.run_provider`). ``stream(model, context, options)`` takes provider
options (``options.extra`` may hold ``tool_choice`` and ``reasoning_effort``); ``stream_simple`` maps a
provider-neutral reasoning level. Both return an :class:`AssistantMessageEventStream` at once and encode
every failure in it.

Beyond pi 0.73 (cases/README.md 1, 5, 7, 8, 18):

* Tool-call deltas are keyed by ``index``, but a NEW non-empty ``id`` at a known index (Ollama sends
  ``index: 0`` for every call) starts a new call; without ``index``, a new id starts a new call and any other
  delta continues the active call; a delta whose arguments start a fresh JSON object while the active call's
  arguments are already complete JSON, or that names a different function, starts a new call (calls with
  neither id nor index). Argument-only deltas (no id, no name) never open a call while one is active, and
  an id arriving for a call opened without one fills it in. A call that never got an id gets a made-up one.
* ``stop_reason`` is ``length`` when ``finish_reason`` is ``length`` or ``completion_tokens`` equals the
  requested max tokens, whatever else ``finish_reason`` says (routers rewrite it to ``tool_calls``).
* A tool call whose final arguments do not parse strictly (after repair), and the last tool call of a
  ``length`` stop, get a diagnostic ``{"type": "tool_call_arguments_invalid", "timestamp", "details":
  {"toolCallId", "reason": "truncated" | "invalid_json"}}``; ``arguments`` stays the best-effort dict.
* Usage also reads Moonshot's top-level ``usage.cached_tokens``.
* A ``stop`` finish next to tool calls becomes ``toolUse`` (Ollama sends ``stop``); pi keeps ``stop``.
"""

from __future__ import annotations

import json
import os
import re
import uuid
from collections.abc import Mapping
from typing import Any

from ..env_keys import get_env_api_key
from ..events import (
    AssistantMessageEventStream,
    StartEvent,
    TextDeltaEvent,
    TextEndEvent,
    TextStartEvent,
    ThinkingDeltaEvent,
    ThinkingEndEvent,
    ThinkingStartEvent,
    ToolCallDeltaEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
)
from ..json_parse import parse_json_with_repair, parse_streaming_json
from ..models import calculate_cost, clamp_thinking_level
from ..options import SimpleStreamOptions, StreamOptions
from ..sanitize import sanitize_surrogates
from ..simple_options import build_base_options
from ..transform_messages import normalize_id_openai_completions, transform_messages
from ..types import (
    AssistantMessage,
    Context,
    Model,
    TextContent,
    ThinkingContent,
    ToolCall,
    ToolResultMessage,
    Usage,
)
from ._http import add_diagnostic, open_sse, run_provider
from .openai_compat import CompletionsCompat, resolve_completions_compat

DEFAULT_BASE_URL = "https://api.openai.com/v1"
REASONING_FIELDS = ("reasoning_content", "reasoning", "reasoning_text")
ASSISTANT_BRIDGE_TEXT = "I have processed the tool results."
_LOCAL_HOSTS = re.compile(r"^https?://(localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[::1\])(:\d+)?(/|$)", re.I)


class ProviderStreamError(Exception):
    """An error object received inside an HTTP 200 stream; carries the raw error for OpenRouter metadata."""

    def __init__(self, message: str, error: Any = None) -> None:
        super().__init__(message)
        self.error = error


# ---------------------------------------------------------------- request


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
        params["prompt_cache_key"] = opts.session_id
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
        if fmt in ("zai", "qwen"):
            params["enable_thinking"] = bool(effort)
        elif fmt == "qwen-chat-template":
            params["chat_template_kwargs"] = {"enable_thinking": bool(effort), "preserve_thinking": True}
        elif fmt == "deepseek":
            params["thinking"] = {"type": "enabled" if effort else "disabled"}
            if effort:
                params["reasoning_effort"] = _mapped_effort(model, effort)
        elif fmt == "openrouter":
            level_map = model.thinking_level_map or {}
            if effort:
                params["reasoning"] = {"effort": _mapped_effort(model, effort)}
            elif "off" not in level_map or level_map["off"] is not None:
                params["reasoning"] = {"effort": level_map.get("off") or "none"}
        elif compat.supports_reasoning_effort:
            if effort:
                params["reasoning_effort"] = _mapped_effort(model, effort)
            elif isinstance((model.thinking_level_map or {}).get("off"), str):
                params["reasoning_effort"] = (model.thinking_level_map or {})["off"]
    if "openrouter.ai" in url and (model.compat or {}).get("openRouterRouting"):
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
                    for c in msg.content
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
                text = "\n".join(c.text for c in tr.content if c.type == "text")
                has_images = any(c.type == "image" for c in tr.content)
                item: dict[str, Any] = {
                    "role": "tool",
                    "content": sanitize_surrogates(text if text else "(see attached image)"),
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
    thinking = [b for b in msg.content if b.type == "thinking" and b.thinking.strip()]
    if thinking and compat.requires_thinking_as_text:
        thinking_text = "\n\n".join(sanitize_surrogates(b.thinking) for b in thinking)
        result["content"] = [{"type": "text", "text": thinking_text}] + [
            {"type": "text", "text": t} for t in texts
        ]
    else:
        if joined:
            result["content"] = joined
        signature = thinking[0].thinking_signature if thinking else None
        if signature:
            result[signature] = "\n".join(sanitize_surrogates(b.thinking) for b in thinking)
    calls = [b for b in msg.content if b.type == "toolCall"]
    if calls:
        result["tool_calls"] = [
            {
                "id": c.id,
                "type": "function",
                "function": {"name": c.name, "arguments": json.dumps(c.arguments or {}, ensure_ascii=False)},
            }
            for c in calls
        ]
        details = []
        for c in calls:
            if c.thought_signature:
                try:
                    details.append(json.loads(c.thought_signature))
                except ValueError:
                    pass
        if details:
            result["reasoning_details"] = details
    if compat.requires_reasoning_content_on_assistant_messages and model.reasoning:
        result.setdefault("reasoning_content", "")
    content = result["content"]
    if not content and not calls:
        return None
    return result


# ---------------------------------------------------------------- response


def parse_chunk_usage(raw: Mapping[str, Any], model: Model) -> Usage:
    """Usage per pi-reference §7.1 (cached = details.cached_tokens, prompt_cache_hit_tokens or usage.cached_tokens)."""
    prompt = _int(raw.get("prompt_tokens"))
    details = raw.get("prompt_tokens_details") or {}
    if not isinstance(details, Mapping):
        details = {}
    cached_raw = details.get("cached_tokens")
    if cached_raw is None:
        cached_raw = raw.get("prompt_cache_hit_tokens")
    if cached_raw is None:
        cached_raw = raw.get("cached_tokens")
    cached = _int(cached_raw)
    write = _int(details.get("cache_write_tokens"))
    read = max(0, cached - write) if write > 0 else cached
    inp = max(0, prompt - read - write)
    out = _int(raw.get("completion_tokens"))
    usage = Usage(
        input=inp, output=out, cache_read=read, cache_write=write, total_tokens=inp + out + read + write
    )
    calculate_cost(model, usage)
    return usage


def _int(v: Any) -> int:
    return int(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else 0


def map_finish_reason(reason: str | None) -> tuple[str, str | None]:
    """``(stop_reason, error_message)`` for a ``finish_reason`` (pi-reference §1.18)."""
    if reason is None or reason in ("stop", "end"):
        return "stop", None
    if reason == "length":
        return "length", None
    if reason in ("tool_calls", "function_call"):
        return "toolUse", None
    return "error", f"Provider finish_reason: {reason}"


REPARSE_ALWAYS_BELOW = 16_384
"""Streamed tool arguments shorter than this are re-parsed on every delta (as pi does)."""


class _CallState:
    __slots__ = ("block", "args", "parts", "total", "parsed_len")

    def __init__(self, block: ToolCall) -> None:
        self.block = block
        self.args = ""
        self.parts: list[str] = []
        self.total = 0
        self.parsed_len = 0

    def add(self, fragment: str) -> None:
        """Append a fragment; re-parse the best-effort arguments unless that would make streaming quadratic.

        Beyond 16 KB the partial view is refreshed when the text grew by max(8 KB, 5 %) since the last
        parse, so a huge argument (a file write) costs O(n) overall; the final parse is always exact.
        """
        self.parts.append(fragment)
        self.total += len(fragment)
        grown = self.total - self.parsed_len
        if self.total < REPARSE_ALWAYS_BELOW or grown >= max(8192, self.parsed_len // 20):
            self.block.arguments = parse_streaming_json(self.text())
            self.parsed_len = self.total

    def text(self) -> str:
        """The whole argument text received so far."""
        if self.parts:
            self.args += "".join(self.parts)
            self.parts.clear()
        return self.args


class ChunkConsumer:
    """Turns parsed chunks into block events on ``output`` (pi-reference §7.1 + module docstring rules)."""

    def __init__(
        self,
        model: Model,
        output: AssistantMessage,
        stream: AssistantMessageEventStream,
        max_tokens: int | None,
    ) -> None:
        self.model = model
        self.output = output
        self.stream = stream
        self.max_tokens = max_tokens
        self.text: TextContent | None = None
        self.thinking: ThinkingContent | None = None
        self.calls: list[_CallState] = []
        self.by_index: dict[int, _CallState] = {}
        self.by_id: dict[str, _CallState] = {}
        self.active: _CallState | None = None
        self.finish_reason: str | None = None
        self.completion_tokens: int | None = None

    def _index_of(self, block: Any) -> int:
        for i, b in enumerate(self.output.content):
            if b is block:
                return i
        return -1

    def consume(self, chunk: Any) -> None:
        if not isinstance(chunk, dict):
            return
        out = self.output
        if chunk.get("error") is not None:
            err = chunk["error"]
            msg = err.get("message") if isinstance(err, dict) else None
            raise ProviderStreamError(msg if isinstance(msg, str) and msg else json.dumps(err), err)
        if not out.response_id and isinstance(chunk.get("id"), str) and chunk["id"]:
            out.response_id = chunk["id"]
        cm = chunk.get("model")
        if isinstance(cm, str) and cm and cm != self.model.id and not out.response_model:
            out.response_model = cm
        if isinstance(chunk.get("usage"), dict):
            self._set_usage(chunk["usage"])
        choices = chunk.get("choices")
        choice = (
            choices[0] if isinstance(choices, list) and choices and isinstance(choices[0], dict) else None
        )
        if choice is None:
            return
        if not isinstance(chunk.get("usage"), dict) and isinstance(choice.get("usage"), dict):
            self._set_usage(choice["usage"])
        if choice.get("finish_reason"):
            self.finish_reason = str(choice["finish_reason"])
        delta = choice.get("delta")
        if delta is None:
            delta = choice.get("message")  # a non-streamed chat.completion answer
        if isinstance(delta, dict):
            self._delta(delta)

    def _set_usage(self, raw: dict[str, Any]) -> None:
        self.output.usage = parse_chunk_usage(raw, self.model)
        self.completion_tokens = _int(raw.get("completion_tokens"))

    def _delta(self, delta: dict[str, Any]) -> None:
        content = delta.get("content")
        if isinstance(content, str) and content:
            self._text(content)
        elif isinstance(content, list):  # Mistral typed parts
            for part in content:
                if not isinstance(part, dict):
                    continue
                if part.get("type") == "text" and isinstance(part.get("text"), str) and part["text"]:
                    self._text(part["text"])
                elif part.get("type") == "thinking":
                    t = part.get("thinking")
                    text = (
                        t
                        if isinstance(t, str)
                        else "".join(
                            p.get("text", "")
                            for p in (t or [])
                            if isinstance(p, dict) and isinstance(p.get("text"), str)
                        )
                    )
                    if text:
                        self._thinking(text, "reasoning_content")
        for name in REASONING_FIELDS:
            value = delta.get(name)
            if isinstance(value, str) and value:
                self._thinking(value, name)
                break
        tool_calls = delta.get("tool_calls")
        if isinstance(tool_calls, list):
            for tc in tool_calls:
                if isinstance(tc, dict):
                    self._tool_delta(tc)
        details = delta.get("reasoning_details")
        if isinstance(details, list):
            for d in details:
                if (
                    isinstance(d, dict)
                    and d.get("type") == "reasoning.encrypted"
                    and d.get("id")
                    and d.get("data")
                ):
                    state = self.by_id.get(d["id"])
                    if state is not None:
                        state.block.thought_signature = json.dumps(d)

    def _text(self, text: str) -> None:
        out = self.output
        if self.text is None:
            self.text = TextContent(text="")
            out.content.append(self.text)
            self.stream.push(TextStartEvent(content_index=len(out.content) - 1, partial=out))
        self.text.text += text
        self.stream.push(TextDeltaEvent(content_index=self._index_of(self.text), delta=text, partial=out))

    def _thinking(self, text: str, field_name: str) -> None:
        out = self.output
        if self.thinking is None:
            self.thinking = ThinkingContent(thinking="", thinking_signature=field_name)
            out.content.append(self.thinking)
            self.stream.push(ThinkingStartEvent(content_index=len(out.content) - 1, partial=out))
        self.thinking.thinking += text
        self.stream.push(
            ThinkingDeltaEvent(content_index=self._index_of(self.thinking), delta=text, partial=out)
        )

    def _starts_new_call(self, state: _CallState, call_id: str, name: str, args: str) -> bool:
        b = state.block
        if call_id and b.id and call_id != b.id:
            return True
        if name and b.name and name != b.name:
            return True
        if args.lstrip().startswith("{") and state.text().strip():
            try:
                parse_json_with_repair(state.text())
                return True
            except (ValueError, RecursionError):
                return False
        return False

    def _tool_delta(self, tc: dict[str, Any]) -> None:
        raw_idx = tc.get("index")
        idx = raw_idx if isinstance(raw_idx, int) and not isinstance(raw_idx, bool) else None
        raw_id = tc.get("id")
        call_id: str = raw_id if isinstance(raw_id, str) else ""
        raw_fn = tc.get("function")
        fn: dict[str, Any] = raw_fn if isinstance(raw_fn, dict) else {}
        raw_name = fn.get("name")
        name: str = raw_name if isinstance(raw_name, str) else ""
        raw_args = fn.get("arguments")
        args: str = (
            raw_args if isinstance(raw_args, str) else (json.dumps(raw_args) if raw_args is not None else "")
        )
        state: _CallState | None = None
        if call_id and call_id in self.by_id:
            state = self.by_id[call_id]
        elif idx is not None and idx in self.by_index:
            state = self.by_index[idx]
        elif idx is None or (not call_id and not name):
            state = self.active
        if state is not None and self._starts_new_call(state, call_id, name, args):
            state = None
        out = self.output
        if state is None:
            state = _CallState(ToolCall(id=call_id, name=name, arguments={}))
            self.calls.append(state)
            out.content.append(state.block)
            self.stream.push(ToolCallStartEvent(content_index=len(out.content) - 1, partial=out))
        if idx is not None:
            self.by_index[idx] = state
        if call_id:
            if not state.block.id:
                state.block.id = call_id
            self.by_id.setdefault(call_id, state)
        if name and not state.block.name:
            state.block.name = name
        self.active = state
        if args:
            state.add(args)
        self.stream.push(
            ToolCallDeltaEvent(content_index=self._index_of(state.block), delta=args, partial=out)
        )

    def finish(self) -> None:
        """Map the stop reason, finalise tool calls (ids, diagnostics) and push every ``*_end`` in block order."""
        out = self.output
        stop, err = map_finish_reason(self.finish_reason)
        truncated = self.finish_reason == "length" or (
            self.max_tokens is not None
            and self.completion_tokens is not None
            and self.completion_tokens >= self.max_tokens > 0
        )
        if truncated and stop != "error":
            stop = "length"
        elif stop == "stop" and self.calls:
            stop = "toolUse"  # Ollama & co. say "stop" next to tool calls
        out.stop_reason = stop  # type: ignore[assignment]
        if err:
            out.error_message = err
        for n, state in enumerate(self.calls):
            b = state.block
            if not b.id:
                b.id = f"call_{uuid.uuid4().hex[:24]}"
            full = state.text()
            b.arguments = parse_streaming_json(full)
            reason: str | None = None
            if full.strip():
                try:
                    parsed = parse_json_with_repair(full)
                    if not isinstance(parsed, dict):
                        reason = "invalid_json"
                except (ValueError, RecursionError):
                    reason = "truncated" if truncated else "invalid_json"
            if reason is None and truncated and n == len(self.calls) - 1:
                reason = "truncated"
            if reason is not None:
                add_diagnostic(out, "tool_call_arguments_invalid", {"toolCallId": b.id, "reason": reason})
        for i, block in enumerate(out.content):
            if isinstance(block, TextContent):
                self.stream.push(TextEndEvent(content_index=i, content=block.text, partial=out))
            elif isinstance(block, ThinkingContent):
                self.stream.push(ThinkingEndEvent(content_index=i, content=block.thinking, partial=out))
            elif isinstance(block, ToolCall):
                self.stream.push(ToolCallEndEvent(content_index=i, tool_call=block, partial=out))


def _error_detail(exc: BaseException) -> str | None:
    err = getattr(exc, "error", None)
    if isinstance(err, dict):
        meta = err.get("metadata")
        if isinstance(meta, dict) and meta.get("raw"):
            return str(meta["raw"])
    return None


# ---------------------------------------------------------------- entry points


def _api_key(model: Model, options: StreamOptions | None) -> str | None:
    key = (options.api_key if options is not None else None) or get_env_api_key(model.provider)
    return key or None


def stream(
    model: Model, context: Context, options: StreamOptions | None = None
) -> AssistantMessageEventStream:
    """Stream one Chat Completions reply (pi-reference §7.1). Failures are ``error`` events, never raised.

    API key: ``options.api_key``, else the provider's env var; loopback base URLs need none; otherwise the
    error is ``No API key for provider: <provider>``.
    """

    async def produce(output: AssistantMessage, events: AssistantMessageEventStream) -> None:
        api_key = _api_key(model, options)
        if not api_key and not is_local_base_url(model.base_url):
            raise ValueError(f"No API key for provider: {model.provider}")
        compat = resolve_completions_compat(model)
        retention = resolve_cache_retention(options.cache_retention if options else None)
        session = options.session_id if options is not None and retention != "none" else None
        base_url = resolve_base_url(model)
        headers = build_headers(model, context, api_key, options, compat, session)
        body = build_params(model, context, options, compat, retention)
        consumer = ChunkConsumer(model, output, events, options.max_tokens if options else None)
        url = base_url.rstrip("/") + "/chat/completions"
        async with open_sse(url=url, headers=headers, body=body, model=model, options=options) as sse:
            events.push(StartEvent(partial=output))
            async for ev in sse:
                data = ev.data
                if data.strip() == "[DONE]":
                    break
                try:
                    chunk = json.loads(data)
                except ValueError as exc:
                    raise ProviderStreamError(
                        f"Could not parse SSE data as JSON: {exc}; data={data[:500]}"
                    ) from exc
                if ev.event == "error":
                    err = chunk.get("error", chunk) if isinstance(chunk, dict) else chunk
                    msg = err.get("message") if isinstance(err, dict) else None
                    raise ProviderStreamError(msg if isinstance(msg, str) and msg else json.dumps(err), err)
                consumer.consume(chunk)
        consumer.finish()

    return run_provider(
        model,
        options,
        produce,
        error_stop_message="Provider returned an error stop reason",
        error_detail=_error_detail,
    )


def stream_simple(
    model: Model, context: Context, options: SimpleStreamOptions | None = None
) -> AssistantMessageEventStream:
    """``stream`` with a provider-neutral reasoning level (clamped to the model, ``off`` = none; §1.8)."""
    api_key = _api_key(model, options)
    base = build_base_options(model, options, api_key)
    level = (
        clamp_thinking_level(model, options.reasoning) if options is not None and options.reasoning else None
    )
    extra = dict(base.extra)
    extra.pop("reasoning_effort", None)
    if level and level != "off":
        extra["reasoning_effort"] = level
    base.extra = extra
    return stream(model, context, base)


__all__ = [
    "ChunkConsumer",
    "ProviderStreamError",
    "build_headers",
    "build_params",
    "convert_messages",
    "convert_tools",
    "is_local_base_url",
    "map_finish_reason",
    "parse_chunk_usage",
    "stream",
    "stream_simple",
]
