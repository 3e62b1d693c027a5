"""ModelRegistry: built-in catalogue + models.json, and per-request API keys (pi-reference §3.2, §3.16, §1.13).

Models: every model of :mod:`pi_tui.ai.models` (with provider-level ``baseUrl``/``compat`` and per-model
``modelOverrides`` from models.json applied), then the custom models of models.json (a custom model with the
same provider/id replaces the built-in one). If models.json is invalid, only built-in models are used and
:attr:`ModelRegistry.error` says why.

Key resolution per provider (:meth:`ModelRegistry.get_api_key_and_headers`): CLI ``--api-key`` > auth.json >
env var (``get_env_api_key``) > models.json ``apiKey`` (literal, env-var name or ``!command``). A model is
*available* when one of those is configured; a models.json provider whose ``baseUrl`` is a loopback address
needs none (pi-tui deviation for local servers). Keys never appear in errors or ``repr``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pi_tui.ai.types import CostTier, Model, ModelCost
from pi_tui.coding.config.auth import AuthStorage, command_failure, resolve_config_value
from pi_tui.coding.config.models_json import (
    CostTierSpec,
    LoadedModelsJson,
    ModelDefinition,
    ModelOverride,
    ProviderConfig,
    is_loopback_url,
    load_models_json,
)
from pi_tui.coding.config.paths import get_models_path
from pi_tui.coding.config.registered_providers import (
    RegisteredProvider,
    apply_registration,
    drop_stream,
    merge_registration,
    parse_registration,
)


def _catalogue() -> tuple[Callable[[], list[str]], Callable[[str], list[Model]]]:
    """``(get_providers, get_models)`` of the built-in catalogue (empty if pi_tui.ai.models is unavailable)."""
    try:
        from pi_tui.ai.models import get_models, get_providers
    except ImportError:  # pragma: no cover - the catalogue module ships with pi_tui.ai
        return (lambda: []), (lambda provider: [])
    return get_providers, get_models


def merge_compat(base: dict[str, Any] | None, override: dict[str, Any] | None) -> dict[str, Any] | None:
    """``override`` over ``base``; ``openRouterRouting``/``vercelGatewayRouting`` merge one level deeper."""
    if not override:
        return base
    merged = {**(base or {}), **override}
    for key in ("openRouterRouting", "vercelGatewayRouting"):
        if (base or {}).get(key) or override.get(key):
            merged[key] = {**((base or {}).get(key) or {}), **(override.get(key) or {})}
    return merged


def apply_model_override(model: Model, override: ModelOverride) -> Model:
    """A copy of ``model`` with the override's fields (cost/compat/thinkingLevelMap merged key by key)."""
    updates: dict[str, Any] = {}
    if override.name is not None:
        updates["name"] = override.name
    if override.reasoning is not None:
        updates["reasoning"] = override.reasoning
    if override.thinking_level_map is not None:
        updates["thinking_level_map"] = {**(model.thinking_level_map or {}), **override.thinking_level_map}
    if override.input is not None:
        updates["input"] = list(override.input)
    if override.context_window is not None:
        updates["context_window"] = int(override.context_window)
    if override.max_tokens is not None:
        updates["max_tokens"] = int(override.max_tokens)
    if override.cost is not None:
        cost = model.cost
        updates["cost"] = ModelCost(
            input=override.cost.input if override.cost.input is not None else cost.input,
            output=override.cost.output if override.cost.output is not None else cost.output,
            cache_read=override.cost.cache_read if override.cost.cache_read is not None else cost.cache_read,
            cache_write=override.cost.cache_write
            if override.cost.cache_write is not None
            else cost.cache_write,
            tiers=_tiers(override.cost.tiers) if override.cost.tiers is not None else cost.tiers,
        )
    updates["compat"] = merge_compat(model.compat, override.compat)
    return model.model_copy(update=updates)


def _tiers(specs: list[CostTierSpec] | None) -> list[CostTier] | None:
    return [CostTier.model_validate(t.model_dump()) for t in specs] if specs is not None else None


def _custom_model(
    name: str, provider: ProviderConfig, spec: ModelDefinition, defaults: Model | None
) -> Model | None:
    api = spec.api or provider.api or (defaults.api if defaults else None)
    base_url = spec.base_url or provider.base_url or (defaults.base_url if defaults else None)
    if not api or not base_url:
        return None
    cost = spec.cost
    return Model(
        id=spec.id,
        name=spec.name or spec.id,
        api=api,
        provider=name,
        base_url=base_url,
        reasoning=bool(spec.reasoning),
        thinking_level_map=spec.thinking_level_map,
        input=list(spec.input) if spec.input else ["text"],
        cost=ModelCost(
            input=cost.input, output=cost.output, cache_read=cost.cache_read, cache_write=cost.cache_write,
            tiers=_tiers(cost.tiers),
        )
        if cost
        else ModelCost(),
        context_window=int(spec.context_window) if spec.context_window is not None else 128000,
        max_tokens=int(spec.max_tokens) if spec.max_tokens is not None else 16384,
        compat=merge_compat(provider.compat, spec.compat),
    )


@dataclass
class RequestAuth:
    """Result of :meth:`ModelRegistry.get_api_key_and_headers`: ``ok``; ``api_key``/``headers`` or ``error``."""

    ok: bool
    api_key: str | None = None
    headers: dict[str, str] | None = None
    error: str | None = None

    def __repr__(self) -> str:
        key = "set" if self.api_key else "none"
        return f"RequestAuth(ok={self.ok}, api_key=<{key}>, headers={sorted(self.headers or {})}, error={self.error!r})"


class ModelRegistry:
    """All known models and the auth needed to call them."""

    def __init__(self, auth: AuthStorage, models_json_path: Path | None) -> None:
        self.auth = auth
        self.models_json_path = models_json_path
        self.error: str | None = None
        self._models: list[Model] = []
        self._providers: dict[str, ProviderConfig] = {}
        self._model_headers: dict[tuple[str, str], dict[str, str]] = {}
        self._registered: dict[str, RegisteredProvider] = {}  # register_provider (extensions)
        self.refresh()

    @classmethod
    def create(cls, auth: AuthStorage | None = None, models_json_path: Path | None = None) -> ModelRegistry:
        """Registry over ``<agentDir>/models.json`` (or ``models_json_path``) and ``auth`` (default: auth.json)."""
        return cls(auth or AuthStorage.create(), models_json_path or get_models_path())

    @classmethod
    def in_memory(cls, auth: AuthStorage | None = None) -> ModelRegistry:
        """Built-in models only, no models.json."""
        return cls(auth or AuthStorage.in_memory(), None)

    def refresh(self) -> None:
        """Reload the catalogue and models.json."""
        get_providers, get_models = _catalogue()
        built_in_providers = get_providers()
        loaded: LoadedModelsJson = load_models_json(self.models_json_path, set(built_in_providers))
        self.error = loaded.error
        config = loaded.config
        self._providers = dict(config.providers) if config else {}
        self._model_headers = {}
        models: list[Model] = []
        for provider_name in built_in_providers:
            provider = self._providers.get(provider_name)
            for model in get_models(provider_name):
                if provider is not None and (provider.base_url or provider.compat):
                    model = model.model_copy(
                        update={
                            "base_url": provider.base_url or model.base_url,
                            "compat": merge_compat(model.compat, provider.compat),
                        }
                    )
                override = (provider.model_overrides or {}).get(model.id) if provider else None
                if override is not None:
                    model = apply_model_override(model, override)
                    if override.headers:
                        self._model_headers[(provider_name, model.id)] = dict(override.headers)
                models.append(model)
        for provider_name, provider in self._providers.items():
            built_ins = get_models(provider_name) if provider_name in built_in_providers else []
            for spec in provider.models or []:
                custom = _custom_model(provider_name, provider, spec, built_ins[0] if built_ins else None)
                if custom is None:
                    continue
                if spec.headers:
                    self._model_headers[(provider_name, spec.id)] = dict(spec.headers)
                index = next(
                    (i for i, m in enumerate(models) if m.provider == provider_name and m.id == spec.id), None
                )
                if index is None:
                    models.append(custom)
                else:
                    models[index] = custom
        for registration in self._registered.values():  # extension providers, applied again on top
            models = apply_registration(models, self._providers, self._model_headers, registration)
        self._models = models

    # ------------------------------------------------------------------ run-time providers

    def register_provider(self, name: str, config: Any, stream_simple: Any = None) -> None:
        """pi's ``registerProvider``: add or override provider ``name`` (``registered_providers.py`` has the
        rules); takes effect at once. Raises ``ValueError`` for an invalid config."""
        registration = parse_registration(name, config, stream_simple)
        self._models = apply_registration(self._models, self._providers, self._model_headers, registration)
        self._registered[name] = merge_registration(self._registered.get(name), registration)

    def unregister_provider(self, name: str) -> None:
        """pi's ``unregisterProvider``: drop a registration and restore what it overrode (no-op if unknown)."""
        registration = self._registered.pop(name, None)
        if registration is None:
            return
        drop_stream(registration)
        self.refresh()

    def registered_providers(self) -> list[str]:
        """Names given to :meth:`register_provider`, in order."""
        return list(self._registered)

    # ------------------------------------------------------------------ queries

    def get_all(self) -> list[Model]:
        """Every model (built-in + custom), in catalogue order then models.json order."""
        return list(self._models)

    def find(self, provider: str, model_id: str) -> Model | None:
        """The model ``provider``/``model_id`` or ``None``."""
        return next((m for m in self._models if m.provider == provider and m.id == model_id), None)

    def has_configured_auth(self, model: Model) -> bool:
        """True if a key source exists for the model's provider, or it is a keyless loopback custom provider."""
        provider = self._providers.get(model.provider)
        if self.auth.has_auth(model.provider):
            return True
        if provider is not None and provider.api_key:
            return True
        return provider is not None and is_loopback_url(model.base_url)

    def get_available(self) -> list[Model]:
        """Models whose provider has auth configured (no command is run, no key validated)."""
        return [m for m in self._models if self.has_configured_auth(m)]

    def get_providers(self) -> list[str]:
        """Providers that have at least one model, in order of first appearance."""
        return list(dict.fromkeys(m.provider for m in self._models))

    # ------------------------------------------------------------------ per-request auth

    def get_api_key_for_provider(self, provider: str, cli_api_key: str | None = None) -> str | None:
        """Key by priority: ``cli_api_key`` > auth storage (runtime override, auth.json, env) > models.json."""
        if cli_api_key:
            return cli_api_key
        key = self.auth.get_api_key(provider, include_fallback=False)
        if key:
            return key
        config = self._providers.get(provider)
        return resolve_config_value(config.api_key) if config and config.api_key else None

    def get_api_key_and_headers(self, model: Model, cli_api_key: str | None = None) -> RequestAuth:
        """Key and extra headers for one request (call per request; may run ``!commands``).

        Headers: model catalogue headers < provider headers < per-model headers (values resolved like keys);
        ``authHeader: true`` adds ``Authorization: Bearer <key>``. Errors: a ``!command`` that fails
        (``Failed to resolve API key for provider "<p>" from shell command: <cmd>``) or ``authHeader`` without
        a key (``No API key found for "<p>"``).
        """
        config = self._providers.get(model.provider)
        key = cli_api_key or self.auth.get_api_key(model.provider, include_fallback=False)
        if not key and config is not None and config.api_key:
            key = resolve_config_value(config.api_key)
            if key is None:
                if not config.api_key.startswith("!"):  # a $NAME reference to an unset variable
                    return RequestAuth(ok=False, error=f'Failed to resolve API key for provider "{model.provider}": '
                                                       f"an environment variable it names is not set")
                failure = command_failure(config.api_key)
                return RequestAuth(
                    ok=False,
                    error=f'Failed to resolve API key for provider "{model.provider}" from shell command: '
                          f"{config.api_key[1:]}" + (f" ({failure})" if failure else ""),
                )
        if not key:
            failure = self.auth.key_failure(model.provider)
            if failure is not None:
                return RequestAuth(ok=False, error=failure)
        headers: dict[str, str] = dict(model.headers or {})
        sources = [
            (config.headers if config else None, f'provider "{model.provider}"'),
            (self._model_headers.get((model.provider, model.id)), f'model "{model.provider}/{model.id}"'),
        ]
        for source, description in sources:
            for name, raw in (source or {}).items():
                value = resolve_config_value(raw, cached=False)
                if value is None:
                    return RequestAuth(ok=False, error=f'Failed to resolve {description} header "{name}"')
                headers[name] = value
        if config is not None and config.auth_header:
            if not key:
                return RequestAuth(ok=False, error=f'No API key found for "{model.provider}"')
            headers["Authorization"] = f"Bearer {key}"
        return RequestAuth(ok=True, api_key=key or None, headers=headers or None)

    def get_provider_auth_status(self, provider: str) -> dict[str, Any]:
        """Where the provider's auth comes from, without running commands or revealing values."""
        status = self.auth.get_auth_status(provider)
        if status.get("source"):
            return status
        config = self._providers.get(provider)
        if config is None or not config.api_key:
            if config is not None and is_loopback_url(config.base_url):
                return {"configured": True, "source": "local_server"}
            return status
        if config.api_key.startswith("!"):
            return {"configured": True, "source": "models_json_command"}
        if os.environ.get(config.api_key):
            return {"configured": True, "source": "environment", "label": config.api_key}
        return {"configured": True, "source": "models_json_key"}
