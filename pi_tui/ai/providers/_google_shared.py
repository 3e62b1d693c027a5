"""Google Generative AI request building: contents, tools, thinking config (pi-reference §7.4, §1.15).

The body is the REST form of ``models/{model}:streamGenerateContent`` (what ``@google/genai`` sends for pi's
``{contents, config}``): ``{contents, systemInstruction?: {parts: [{text}]}, generationConfig?: {temperature?,
maxOutputTokens?, thinkingConfig?}, tools?: [{functionDeclarations: [{name, description,
parametersJsonSchema}]}], toolConfig?: {functionCallingConfig: {mode}}}``.

Contents (pi 0.73 rules): user text/images as ``{text}``/``{inlineData}`` parts; assistant messages as
``role: "model"`` with text (empty skipped unless it carries a replayable signature, pi 0.84.0), thinking (``thought: true`` only for the same provider and model,
else plain text), and ``functionCall`` parts (``id`` only for ``claude-*``/``gpt-oss-*`` models). Thought
signatures are replayed only for the same provider+model and when they are valid base64. Tool results become
``functionResponse`` parts (``response: {output|error: text}``), all results of one turn merged into one user
content; Gemini ≥ 3 nests images in ``functionResponse.parts``, older models get a separate user content
``Tool result image:`` with the images.
"""

from __future__ import annotations

import re
from typing import Any

from ..models import clamp_thinking_level
from ..sanitize import sanitize_surrogates
from ..transform_messages import normalize_id_google, transform_messages
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

_BASE64 = re.compile(r"^[A-Za-z0-9+/]+={0,2}$")
_JSON_SCHEMA_META = frozenset(
    {"$schema", "$id", "$anchor", "$dynamicAnchor", "$vocabulary", "$comment", "$defs", "definitions"}
)


def is_valid_thought_signature(signature: str | None) -> bool:
    """Thought signatures are base64 (length multiple of 4)."""
    return bool(signature) and len(signature or "") % 4 == 0 and bool(_BASE64.match(signature or ""))


def _signature(same: bool, signature: str | None) -> str | None:
    return signature if same and is_valid_thought_signature(signature) else None


def requires_tool_call_id(model_id: str) -> bool:
    """Models behind Google APIs that need explicit function-call ids (``claude-*``, ``gpt-oss-*``)."""
    return model_id.startswith(("claude-", "gpt-oss-"))


def gemini_major_version(model_id: str) -> int | None:
    """The N of ``gemini-N...`` / ``gemini-live-N...``, else None."""
    m = re.match(r"^gemini(?:-live)?-(\d+)", model_id.lower())
    return int(m.group(1)) if m else None


def supports_multimodal_function_response(model_id: str) -> bool:
    """Gemini ≥ 3 (and non-Gemini models) accept images inside ``functionResponse.parts``."""
    major = gemini_major_version(model_id)
    return major is None or major >= 3


def _inline(block: ImageContent) -> dict[str, Any]:
    return {"inlineData": {"mimeType": block.mime_type, "data": block.data}}


def convert_messages(model: Model, context: Context) -> list[dict[str, Any]]:
    """pi messages → Gemini ``contents`` (see the module docstring)."""
    contents: list[dict[str, Any]] = []
    for msg in transform_messages(context.messages, model, normalize_id_google):
        if isinstance(msg, UserMessage):
            if isinstance(msg.content, str):
                contents.append({"role": "user", "parts": [{"text": sanitize_surrogates(msg.content)}]})
            else:
                parts = [
                    {"text": sanitize_surrogates(c.text)} if isinstance(c, TextContent) else _inline(c)
                    for c in user_content_parts(msg.content)
                ]
                if parts:
                    contents.append({"role": "user", "parts": parts})
        elif isinstance(msg, AssistantMessage):
            parts = _model_parts(msg, model)
            if parts:
                contents.append({"role": "model", "parts": parts})
        elif isinstance(msg, ToolResultMessage):
            _add_tool_result(contents, msg, model)
    return contents


def _model_parts(msg: AssistantMessage, model: Model) -> list[dict[str, Any]]:
    same = msg.provider == model.provider and msg.model == model.id
    parts: list[dict[str, Any]] = []
    for block in msg.content:
        if isinstance(block, TextContent):
            # A blank part that carries a replayable signature is kept: Gemini puts the turn's signature on an
            # empty final text part, and dropping it loses the signature (pi 0.84.0).
            sig = _signature(same, block.text_signature)
            if not block.text.strip() and not sig:
                continue
            part: dict[str, Any] = {"text": sanitize_surrogates(block.text)}
            if sig:
                part["thoughtSignature"] = sig
            parts.append(part)
        elif isinstance(block, ThinkingContent):
            sig = _signature(same, block.thinking_signature)
            if not block.thinking.strip() and not sig:
                continue
            if same:
                part = {"thought": True, "text": sanitize_surrogates(block.thinking)}
                if sig:
                    part["thoughtSignature"] = sig
            else:
                part = {"text": sanitize_surrogates(block.thinking)}
            parts.append(part)
        elif isinstance(block, ToolCall):
            call: dict[str, Any] = {
                "name": block.name,
                "args": block.arguments if block.arguments is not None else {},
            }
            if requires_tool_call_id(model.id):
                call["id"] = block.id
            part = {"functionCall": call}
            sig = _signature(same, block.thought_signature)
            if sig:
                part["thoughtSignature"] = sig
            parts.append(part)
    return parts


def _add_tool_result(contents: list[dict[str, Any]], msg: ToolResultMessage, model: Model) -> None:
    images = [c for c in msg.content if isinstance(c, ImageContent)] if "image" in model.input else []
    nested = supports_multimodal_function_response(model.id)
    value = sanitize_surrogates(tool_result_text(msg.content))
    response: dict[str, Any] = {
        "name": msg.tool_name,
        "response": {"error" if msg.is_error else "output": value},
    }
    if images and nested:
        response["parts"] = [_inline(c) for c in images]
    if requires_tool_call_id(model.id):
        response["id"] = msg.tool_call_id
    part = {"functionResponse": response}
    last = contents[-1] if contents else None
    if last is not None and last["role"] == "user" and any("functionResponse" in p for p in last["parts"]):
        last["parts"].append(part)
    else:
        contents.append({"role": "user", "parts": [part]})
    if images and not nested:
        contents.append(
            {"role": "user", "parts": [{"text": "Tool result image:"}, *(_inline(c) for c in images)]}
        )


def sanitize_for_open_api(schema: Any) -> Any:
    """Copy of ``schema`` without JSON-Schema meta declarations (``$schema``, ``$defs``, ...), recursively."""
    if isinstance(schema, dict):
        return {k: sanitize_for_open_api(v) for k, v in schema.items() if k not in _JSON_SCHEMA_META}
    if isinstance(schema, list):
        return [sanitize_for_open_api(v) for v in schema]
    return schema


def convert_tools(tools: list[Tool], use_parameters: bool = False) -> list[dict[str, Any]] | None:
    """``[{functionDeclarations: [...]}]`` (``parametersJsonSchema``, or sanitised legacy ``parameters``);
    None for an empty list."""
    if not tools:
        return None
    decls = []
    for t in tools:
        decl: dict[str, Any] = {"name": t.name, "description": t.description}
        if use_parameters:
            decl["parameters"] = sanitize_for_open_api(t.parameters)
        else:
            decl["parametersJsonSchema"] = t.parameters
        decls.append(decl)
    return [{"functionDeclarations": decls}]


def map_tool_choice(choice: str) -> str:
    """``auto``/``none``/``any`` → ``AUTO``/``NONE``/``ANY`` (anything else ``AUTO``)."""
    return {"auto": "AUTO", "none": "NONE", "any": "ANY"}.get(choice, "AUTO")


# ------------------------------------------------------------------ thinking (pi-reference §7.4)


def is_gemma4(model: Model) -> bool:
    """Gemma 4 models (``gemma-4``/``gemma4``)."""
    return re.search(r"gemma-?4", model.id.lower()) is not None


def is_gemini3_pro(model: Model) -> bool:
    """Gemini 3.x Pro."""
    return re.search(r"gemini-3(?:\.\d+)?-pro", model.id.lower()) is not None


def is_gemini3_flash(model: Model) -> bool:
    """Gemini 3.x Flash (and Flash-Lite)."""
    return re.search(r"gemini-3(?:\.\d+)?-flash", model.id.lower()) is not None


GOOGLE_LEVELS = ("minimal", "low", "medium", "high")


def uses_thinking_level(model: Model) -> bool:
    """Gemini 3.x Pro/Flash and Gemma 4 take ``thinkingLevel``; the others a ``thinkingBudget``."""
    return is_gemini3_pro(model) or is_gemini3_flash(model) or is_gemma4(model)


def mapped_google_level(model: Model, level: str) -> str | None:
    """The Google level (``minimal``/``low``/``medium``/``high``) that ``model.thinking_level_map`` names for the
    pi ``level`` (case-insensitive), or None when the map has no string for it (pi 0.84.3, #8135: custom
    Google models' maps were ignored). Raises ValueError for a string that is not a Google level."""
    mapped = (model.thinking_level_map or {}).get(level)
    if not isinstance(mapped, str):
        return None
    if mapped.lower() not in GOOGLE_LEVELS:
        raise ValueError(
            f"Unsupported Google thinking level mapping for {model.provider}/{model.id}: {level} -> {mapped}"
            f" (thinkingLevelMap values for Google models are {', '.join(GOOGLE_LEVELS)})"
        )
    return mapped.lower()


def disabled_thinking_config(model: Model) -> dict[str, Any]:
    """Thinking off: Gemini 3 Pro → LOW level, Gemini 3 Flash / Gemma 4 → MINIMAL, others budget 0. A level
    model whose ``thinking_level_map`` cannot turn thinking off gets the lowest level it supports, as the map
    names it (pi 0.84.3)."""
    if uses_thinking_level(model) and (model.thinking_level_map or {}).get("off", "") is None:
        fallback = clamp_thinking_level(model, "off")
        try:
            mapped = mapped_google_level(model, fallback) if fallback != "off" else None
        except ValueError:
            mapped = None
        if mapped is not None:
            return {"thinkingLevel": mapped.upper()}
    if is_gemini3_pro(model):
        return {"thinkingLevel": "LOW"}
    if is_gemini3_flash(model) or is_gemma4(model):
        return {"thinkingLevel": "MINIMAL"}
    return {"thinkingBudget": 0}


def thinking_level(effort: str, model: Model) -> str:
    """Gemini 3 / Gemma 4 ``thinkingLevel`` for a pi level."""
    if is_gemini3_pro(model):
        return "LOW" if effort in ("minimal", "low") else "HIGH"
    if is_gemma4(model):
        return "MINIMAL" if effort in ("minimal", "low") else "HIGH"
    return {"minimal": "MINIMAL", "low": "LOW", "medium": "MEDIUM", "high": "HIGH"}.get(effort, "HIGH")


_BUDGETS = {
    "2.5-pro": {"minimal": 128, "low": 2048, "medium": 8192, "high": 32768},
    "2.5-flash-lite": {"minimal": 512, "low": 2048, "medium": 8192, "high": 24576},
    "2.5-flash": {"minimal": 128, "low": 2048, "medium": 8192, "high": 24576},
}


def thinking_budget(model: Model, effort: str, custom: dict[str, int] | None = None) -> int:
    """Budget for budget-based models: custom first, then the 2.5 tables, else -1 (dynamic)."""
    if custom and custom.get(effort) is not None:
        return int(custom[effort])
    for key in ("2.5-pro", "2.5-flash-lite", "2.5-flash"):
        if key in model.id:
            return _BUDGETS[key].get(effort, -1)
    return -1


def build_params(
    model: Model,
    context: Context,
    temperature: float | None,
    max_tokens: int | None,
    thinking: dict[str, Any] | None,
    tool_choice: str | None,
) -> dict[str, Any]:
    """The REST request body. ``thinking`` = ``{"enabled": bool, "level"?: str, "budget_tokens"?: int}``."""
    body: dict[str, Any] = {"contents": convert_messages(model, context)}
    generation: dict[str, Any] = {}
    if temperature is not None:
        generation["temperature"] = temperature
    if max_tokens is not None:
        generation["maxOutputTokens"] = max_tokens
    if context.system_prompt:
        body["systemInstruction"] = {"parts": [{"text": sanitize_surrogates(context.system_prompt)}]}
    tools = convert_tools(context.tools or [])
    if tools:
        body["tools"] = tools
        if tool_choice:
            body["toolConfig"] = {"functionCallingConfig": {"mode": map_tool_choice(tool_choice)}}
    if model.reasoning and thinking is not None:
        if thinking.get("enabled"):
            config: dict[str, Any] = {"includeThoughts": True}
            if thinking.get("level") is not None:
                config["thinkingLevel"] = thinking["level"]
            elif thinking.get("budget_tokens") is not None:
                config["thinkingBudget"] = thinking["budget_tokens"]
            generation["thinkingConfig"] = config
        else:
            generation["thinkingConfig"] = disabled_thinking_config(model)
    if generation:
        body["generationConfig"] = generation
    return body
