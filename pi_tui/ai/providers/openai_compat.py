"""Compatibility flags of the ``openai-completions`` API: auto-detection and resolution (pi-reference §1.9).

:func:`resolve_completions_compat(model)` returns a fully resolved :class:`CompletionsCompat`. Each flag
comes from ``model.compat`` (camelCase keys, as in models.json) when set there, else from
:func:`detect_completions_compat`, which looks at ``model.provider`` and ``model.base_url`` (the provider
wins; URL substrings catch the same services configured under another provider name).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Literal

from ..types import Model

ThinkingFormat = Literal["openai", "deepseek", "zai", "openrouter", "qwen", "qwen-chat-template"]
MaxTokensField = Literal["max_tokens", "max_completion_tokens"]


@dataclass
class CompletionsCompat:
    """Resolved compatibility flags (pi-reference §1.9 table; attribute = snake_case of pi's camelCase key)."""

    supports_store: bool = True
    supports_developer_role: bool = True
    supports_reasoning_effort: bool = True
    supports_usage_in_streaming: bool = True
    max_tokens_field: MaxTokensField = "max_completion_tokens"
    requires_tool_result_name: bool = False
    requires_assistant_after_tool_result: bool = False
    requires_thinking_as_text: bool = False
    requires_reasoning_content_on_assistant_messages: bool = False
    thinking_format: ThinkingFormat = "openai"
    open_router_routing: dict[str, Any] = field(default_factory=dict)
    vercel_gateway_routing: dict[str, Any] = field(default_factory=dict)
    zai_tool_stream: bool = False
    supports_strict_mode: bool = True
    cache_control_format: Literal["anthropic"] | None = None
    send_session_affinity_headers: bool = False
    supports_long_cache_retention: bool = True
    echo_reasoning: bool = False
    """Replay a same-model assistant message's thinking as its reasoning field (``reasoning_content``, ...).

    pi-tui's own flag (camelCase ``echoReasoning``; not in pi 0.73.1, which always replays it). Servers that
    need the reasoning back get it: DeepSeek (``The reasoning_content in the thinking mode must be passed back
    to the API``), Moonshot Kimi thinking, z.ai, OpenRouter and the Qwen thinking formats. A plain OpenAI
    endpoint and strict hosts (Cerebras: ``property 'messages.2.assistant.reasoning_content' is unsupported``)
    never get it. tests/conformance/DIFFERENCES.md P2."""
    tool_call_id_format: Literal["mistral"] | None = None
    """``"mistral"``: every tool-call id in the request is mapped to 9 letters/digits (Mistral's rule); see
    :func:`pi_tui.ai.providers._tool_call_ids.mistral_tool_call_ids`. pi-tui's flag ``toolCallIdFormat``."""


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p.capitalize() for p in rest)


_CAMEL_KEYS = {f.name: _camel(f.name) for f in fields(CompletionsCompat)}


def detect_completions_compat(model: Model) -> CompletionsCompat:
    """Flags detected from ``model.provider`` / ``model.base_url`` alone (pi-reference §1.9)."""
    provider = model.provider
    url = (model.base_url or "").lower()  # hosts are case-insensitive: API.DeepSeek.com is DeepSeek (pi 0.84.2)
    is_zai = provider == "zai" or "api.z.ai" in url
    is_moonshot = provider in ("moonshotai", "moonshotai-cn") or "api.moonshot." in url
    is_cf_workers = provider == "cloudflare-workers-ai" or "api.cloudflare.com" in url
    is_cf_gateway = provider == "cloudflare-ai-gateway" or "gateway.ai.cloudflare.com" in url
    is_grok = provider == "xai" or "api.x.ai" in url
    is_deepseek = provider == "deepseek" or "deepseek.com" in url
    is_opencode = provider in ("opencode", "opencode-go") or "opencode.ai" in url
    non_standard = (
        provider == "cerebras"
        or "cerebras.ai" in url
        or is_grok
        or "chutes.ai" in url
        or "deepseek.com" in url
        or is_zai
        or is_moonshot
        or provider == "opencode"
        or "opencode.ai" in url
        or is_cf_workers
        or is_cf_gateway
    )
    is_mistral = provider == "mistral" or "api.mistral.ai" in url
    # "developer" is OpenAI's own role: other OpenAI-compatible servers reject it (Groq: HTTP 400 for Qwen 3) or
    # do not know it (chat templates of local servers), so only OpenAI gets it for reasoning models (pi 1.6.0).
    # ``compat.supportsDeveloperRole`` in models.json still turns it on for a server that wants it.
    no_developer_role = non_standard or not (
        provider in ("openai", "azure-openai") or "api.openai.com" in url or ".openai.azure.com" in url
    )
    if is_deepseek:
        thinking: ThinkingFormat = "deepseek"
    elif is_zai:
        thinking = "zai"
    elif provider == "openrouter" or "openrouter.ai" in url:
        thinking = "openrouter"
    else:
        thinking = "openai"
    return CompletionsCompat(
        supports_store=not non_standard,
        supports_developer_role=not no_developer_role,
        supports_reasoning_effort=not (is_grok or is_zai or is_moonshot or is_cf_gateway),
        supports_usage_in_streaming=True,
        # DeepSeek, Z.AI and OpenCode ignore max_completion_tokens (pi 0.84.2, 0.83.0, 0.79.1)
        max_tokens_field="max_tokens"
        if ("chutes.ai" in url or is_moonshot or is_cf_gateway or is_deepseek or is_zai or is_opencode)
        else "max_completion_tokens",
        requires_reasoning_content_on_assistant_messages=is_deepseek,
        thinking_format=thinking,
        supports_strict_mode=not (is_moonshot or is_cf_gateway),
        cache_control_format="anthropic"
        if provider == "openrouter" and model.id.startswith("anthropic/")
        else None,
        supports_long_cache_retention=not (is_cf_workers or is_cf_gateway),
        echo_reasoning=is_deepseek or is_moonshot or is_zai or thinking == "openrouter",
        tool_call_id_format="mistral" if is_mistral or _serves_mistral_model(model.id) else None,
    )


_MISTRAL_MODEL_WORDS = ("mistral", "devstral", "codestral", "magistral", "ministral", "pixtral", "mixtral")


def _serves_mistral_model(model_id: str) -> bool:
    """A Mistral model behind any server: vLLM and MLX servers with Mistral's tokenizer enforce the same
    9-character id rule (jundot/omlx#1995)."""
    lower = model_id.lower()
    return any(word in lower for word in _MISTRAL_MODEL_WORDS)


def resolve_completions_compat(model: Model) -> CompletionsCompat:
    """Detected flags overridden by every key set (non-null) in ``model.compat``.

    Keys are pi's camelCase names (``supportsDeveloperRole``); snake_case keys are accepted too. Unknown
    keys are ignored.
    """
    resolved = detect_completions_compat(model)
    explicit = model.compat or {}
    for name, camel in _CAMEL_KEYS.items():
        value = explicit.get(camel, explicit.get(name))
        if value is not None:
            setattr(resolved, name, value)
    if explicit.get("echoReasoning", explicit.get("echo_reasoning")) is None:
        resolved.echo_reasoning = (
            resolved.echo_reasoning
            or resolved.requires_reasoning_content_on_assistant_messages
            or resolved.thinking_format != "openai"
        )
    return resolved


__all__ = ["CompletionsCompat", "detect_completions_compat", "resolve_completions_compat"]
