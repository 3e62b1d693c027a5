"""models.json: custom providers, models and overrides (pi-reference §3.16, §1.7, §1.9).

Shape (JSONC allowed)::

    {"providers": {"<name>": {"baseUrl", "api", "apiKey", "headers", "authHeader", "compat",
                              "models": [{"id", "name", "api", "baseUrl", "reasoning", "thinkingLevelMap",
                                          "input", "contextWindow", "maxTokens", "cost", "headers", "compat"}],
                              "modelOverrides": {"<model id>": {...partial model fields...}}}}}

Model defaults: ``name`` = id, ``reasoning`` false, ``input`` ["text"], ``contextWindow`` 128000,
``maxTokens`` 16384, ``cost`` all 0. :func:`load_models_json` never raises: problems come back as one error
text (``Invalid models.json schema:\\n  - <path>: <problem>\\n\\nFile: <path>`` or ``Failed to parse
models.json: ...``) and then no custom models are used (built-in models stay available), as in pi.

pi requires ``apiKey`` for a non-built-in provider that defines models; pi-tui waives it when the provider's
``baseUrl`` is a loopback address (Ollama, llama.cpp, LM Studio on localhost need no key) — a deliberate
deviation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.alias_generators import to_camel

from pi_tui.coding.config.jsonc import loads_jsonc

_LOOPBACK = re.compile(
    r"^[a-z][a-z0-9+.-]*://(localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1\])(?::\d+)?(?:/|$)", re.I
)


def is_loopback_url(url: str | None) -> bool:
    """True for ``http(s)://localhost``, ``127.x.x.x``, ``0.0.0.0`` and ``[::1]`` base URLs."""
    return bool(url and _LOOPBACK.match(url.strip()))


class _Strict(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")


class CostTierSpec(_Strict):
    """``cost.tiers[]``: prices for the whole request when its input exceeds ``inputTokensAbove`` (pi 0.80.6)."""

    input_tokens_above: int = Field(ge=0)
    input: float
    output: float
    cache_read: float
    cache_write: float


class CostSpec(_Strict):
    """Dollars per million tokens; optional long-context ``tiers``."""

    input: float
    output: float
    cache_read: float
    cache_write: float
    tiers: list[CostTierSpec] | None = None


class PartialCostSpec(_Strict):
    input: float | None = None
    output: float | None = None
    cache_read: float | None = None
    cache_write: float | None = None
    tiers: list[CostTierSpec] | None = None


class ModelDefinition(_Strict):
    """One custom model (``id`` required)."""

    id: str = Field(min_length=1)
    name: str | None = Field(default=None, min_length=1)
    api: str | None = Field(default=None, min_length=1)
    base_url: str | None = Field(default=None, min_length=1)
    reasoning: bool | None = None
    thinking_level_map: dict[str, str | None] | None = None
    input: list[Literal["text", "image"]] | None = None
    cost: CostSpec | None = None
    context_window: float | None = None
    max_tokens: float | None = None
    headers: dict[str, str] | None = None
    compat: dict[str, Any] | None = None


class ModelOverride(_Strict):
    """Partial fields merged into a built-in model (``cost`` and ``compat`` merge key by key)."""

    name: str | None = Field(default=None, min_length=1)
    reasoning: bool | None = None
    thinking_level_map: dict[str, str | None] | None = None
    input: list[Literal["text", "image"]] | None = None
    cost: PartialCostSpec | None = None
    context_window: float | None = None
    max_tokens: float | None = None
    headers: dict[str, str] | None = None
    compat: dict[str, Any] | None = None


class ProviderConfig(_Strict):
    """One ``providers.<name>`` object."""

    name: str | None = Field(default=None, min_length=1)
    base_url: str | None = Field(default=None, min_length=1)
    api_key: str | None = Field(default=None, min_length=1)
    api: str | None = Field(default=None, min_length=1)
    headers: dict[str, str] | None = None
    compat: dict[str, Any] | None = None
    auth_header: bool | None = None
    models: list[ModelDefinition] | None = None
    model_overrides: dict[str, ModelOverride] | None = None


class ModelsConfig(_Strict):
    """The whole file."""

    providers: dict[str, ProviderConfig]


@dataclass
class LoadedModelsJson:
    """Parsed models.json: ``config`` (``None`` if missing or invalid) and ``error`` (one message or ``None``)."""

    config: ModelsConfig | None = None
    error: str | None = None
    path: Path | None = None
    raw: dict[str, Any] = field(default_factory=dict)


def _format_errors(error: ValidationError) -> str:
    lines = []
    for item in error.errors():
        location = ".".join(str(part) for part in item["loc"]) or "root"
        message = item["msg"]
        if item["type"] == "extra_forbidden":
            message = "unknown property"
        lines.append(f"  - {location}: {message}")
    return "\n".join(lines) or "Unknown schema error"


def validate_semantics(config: ModelsConfig, built_in_providers: set[str]) -> str | None:
    """pi's extra checks (required baseUrl/apiKey/api, positive sizes); first problem as text, else ``None``."""
    for name, provider in config.providers.items():
        models = provider.models or []
        built_in = name in built_in_providers
        if not models:
            if not (provider.base_url or provider.headers or provider.compat or provider.model_overrides):
                return f'Provider {name}: must specify "baseUrl", "headers", "compat", "modelOverrides", or "models".'
        elif not built_in:
            if not provider.base_url:
                return f'Provider {name}: "baseUrl" is required when defining custom models.'
            if not provider.api_key and not is_loopback_url(provider.base_url):
                return f'Provider {name}: "apiKey" is required when defining custom models.'
        for model in models:
            if not provider.api and not model.api and not built_in:
                return (
                    f'Provider {name}, model {model.id}: no "api" specified. Set at provider or model level.'
                )
            if model.context_window is not None and model.context_window <= 0:
                return f"Provider {name}, model {model.id}: invalid contextWindow"
            if model.max_tokens is not None and model.max_tokens <= 0:
                return f"Provider {name}, model {model.id}: invalid maxTokens"
    return None


def load_models_json(path: Path | None, built_in_providers: set[str]) -> LoadedModelsJson:
    """Read and validate ``path``; a missing file is not an error. Never raises."""
    result = LoadedModelsJson(path=path)
    if path is None:
        return result
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return result
    except OSError as error:
        result.error = f"Failed to load models.json: {error.strerror}\n\nFile: {path}"
        return result
    try:
        data = loads_jsonc(text)
    except ValueError as error:
        result.error = f"Failed to parse models.json: {error}\n\nFile: {path}"
        return result
    try:
        config = ModelsConfig.model_validate(data)
    except ValidationError as error:
        result.error = f"Invalid models.json schema:\n{_format_errors(error)}\n\nFile: {path}"
        return result
    problem = validate_semantics(config, built_in_providers)
    if problem:
        result.error = f"Failed to load models.json: {problem}\n\nFile: {path}"
        return result
    result.config = config
    result.raw = data
    register_config_secrets(config)
    return result


def register_config_secrets(config: ModelsConfig) -> None:
    """Register the keys and header values ``config`` names (a literal, an env var name, ``$NAME``) as secrets
    as soon as the file is read, so text that quotes them (``!grep apiKey models.json``, a tool printing the
    environment) is redacted in session files and exports before any request used them (tester3 #10). A
    ``!command`` value is not run here: it is registered when a request resolves it."""
    from pi_tui.ai.secret_redaction import register_secret
    from pi_tui.coding.config.auth import resolve_config_value

    for provider in config.providers.values():
        values = [provider.api_key, *(provider.headers or {}).values()]
        for model in provider.models or ():
            values.extend((model.headers or {}).values())
        for override in (provider.model_overrides or {}).values():
            values.extend((override.headers or {}).values())
        for value in values:
            if value and not value.startswith("!"):
                register_secret(resolve_config_value(value))  # the literal, or the value of the variable it names
