"""Model and key access for sessions: catalogue + models.json custom providers + auth.json/env keys.

Implements the session's :class:`~pi_tui.coding.session_settings.ModelAccess` (pi-reference §3.2, §3.7,
§3.16). Custom providers from ``<agentDir>/models.json`` come first in :meth:`available_models`; their
``apiKey`` is resolved like pi (env var name, literal, or ``!command``). A loopback ``baseUrl`` needs no key.
Pattern matching (``--model``): exact ``provider/id`` or id (case-insensitive) first, then substring of
id or name, preferring models with auth.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pi_tui.ai.models import DEFAULT_MODEL_PER_PROVIDER, get_models, get_providers
from pi_tui.ai.types import Model, ModelCost
from pi_tui.coding.config.auth import AuthStorage, resolve_config_value
from pi_tui.coding.config.models_json import is_loopback_url, load_models_json
from pi_tui.coding.config.paths import get_auth_path, get_models_path

LOOPBACK_PLACEHOLDER_KEY = "none"


class RegistryModelAccess:
    """Models with their auth. ``errors``: problems found in models.json / auth.json (for warnings)."""

    def __init__(self, auth: AuthStorage, custom_models: list[Model], custom_keys: dict[str, str | None]) -> None:
        self.auth = auth
        self.custom_models = custom_models
        self._custom_keys = custom_keys
        self._extra: dict[tuple[str, str], Model] = {}
        self.errors: list[str] = list(auth.errors)

    @classmethod
    def create(cls, agent_dir: Path) -> RegistryModelAccess:
        """Load ``auth.json`` and ``models.json`` from ``agent_dir``."""
        auth = AuthStorage.create(get_auth_path(agent_dir))
        loaded = load_models_json(get_models_path(agent_dir), set(get_providers()))
        models: list[Model] = []
        keys: dict[str, str | None] = {}
        if loaded.config is not None:
            for name, provider in loaded.config.providers.items():
                key = resolve_config_value(provider.api_key) if provider.api_key else None
                if key is None and provider.base_url and is_loopback_url(provider.base_url):
                    key = LOOPBACK_PLACEHOLDER_KEY
                keys[name] = key
                for definition in provider.models or []:
                    models.append(_custom_model(name, provider, definition))
        access = cls(auth, models, keys)
        if loaded.error:
            access.errors.append(loaded.error)
        return access

    def set_runtime_api_key(self, provider: str, key: str) -> None:
        """Use ``key`` for ``provider`` in this process only (``--api-key``)."""
        self.auth.set_runtime_api_key(provider, key)
        if provider in self._custom_keys:
            self._custom_keys[provider] = key

    def allow(self, provider: str, model_id: str, model: Model) -> None:
        """Make a built-in model (the offline demo) usable without a key."""
        self._extra[(provider, model_id)] = model

    # ------------------------------------------------------------------ ModelAccess

    def get_api_key(self, model: Model) -> str | None:
        """Key for ``model``'s provider: custom provider key, auth.json/runtime/env, or None."""
        if (model.provider, model.id) in self._extra:
            return "offline"
        if model.provider in self._custom_keys:
            runtime = self.auth.get_api_key(model.provider, include_fallback=False)
            return runtime or self._custom_keys[model.provider]
        return self.auth.get_api_key(model.provider)

    def has_auth(self, model: Model) -> bool:
        """True when :meth:`get_api_key` would give a key."""
        if (model.provider, model.id) in self._extra:
            return True
        if model.provider in self._custom_keys:
            return bool(self._custom_keys[model.provider]) or self.auth.has_auth(model.provider)
        return self.auth.has_auth(model.provider)

    def all_models(self) -> list[Model]:
        """Custom models first, then the catalogue (custom ids shadow catalogue ones of the same provider)."""
        custom_ids = {(m.provider, m.id) for m in self.custom_models}
        out = list(self.custom_models)
        for provider in get_providers():
            out.extend(m for m in get_models(provider) if (m.provider, m.id) not in custom_ids)
        return out

    def available_models(self) -> list[Model]:
        """Models with auth (custom providers first)."""
        out = list(self.custom_models)
        out = [m for m in out if self.has_auth(m)]
        custom_ids = {(m.provider, m.id) for m in self.custom_models}
        for provider in get_providers():
            if not self.auth.has_auth(provider):
                continue
            out.extend(m for m in get_models(provider) if (m.provider, m.id) not in custom_ids)
        return out

    def find(self, provider: str, model_id: str) -> Model | None:
        """The model ``provider``/``model_id`` (custom first), or None."""
        if (provider, model_id) in self._extra:
            return self._extra[(provider, model_id)]
        for model in self.custom_models:
            if model.provider == provider and model.id == model_id:
                return model
        return next((m for m in get_models(provider) if m.id == model_id), None) if provider in get_providers() else None

    def configured_anything(self) -> bool:
        """True when any provider has a key or models.json defines models."""
        if self.custom_models:
            return True
        return any(self.auth.has_auth(p) for p in get_providers())

    def resolve_pattern(self, provider: str | None, pattern: str | None) -> Model | None:
        """The model named by ``--provider``/``--model`` (see module docstring), or None."""
        candidates = self.all_models()
        if pattern and "/" in pattern and provider is None:
            head, _, tail = pattern.partition("/")
            if any(m.provider == head for m in candidates):
                provider, pattern = head, tail
        if provider is not None:
            candidates = [m for m in candidates if m.provider == provider]
            if not pattern:
                default = DEFAULT_MODEL_PER_PROVIDER.get(provider)
                return next((m for m in candidates if m.id == default), candidates[0] if candidates else None)
        if not pattern:
            return None
        lowered = pattern.lower()
        exact = [m for m in candidates if m.id.lower() == lowered]
        if exact:
            return _prefer_auth(self, exact)
        partial = [m for m in candidates if lowered in m.id.lower() or lowered in m.name.lower()]
        if not partial:
            return None
        aliases = sorted((m for m in partial if not _dated(m.id)), key=lambda m: m.id, reverse=True)
        return _prefer_auth(self, aliases or sorted(partial, key=lambda m: m.id, reverse=True))


def _dated(model_id: str) -> bool:
    tail = model_id.rsplit("-", 1)[-1]
    return len(tail) == 8 and tail.isdigit()


def _prefer_auth(access: RegistryModelAccess, models: list[Model]) -> Model:
    return next((m for m in models if access.has_auth(m)), models[0])


def _custom_model(provider_name: str, provider: Any, definition: Any) -> Model:
    headers = {**(provider.headers or {}), **(definition.headers or {})} or None
    compat = {**(provider.compat or {}), **(definition.compat or {})} or None
    cost = ModelCost.model_validate(definition.cost.model_dump()) if definition.cost is not None else ModelCost()
    data: dict[str, Any] = {
        "id": definition.id,
        "name": definition.name or definition.id,
        "api": definition.api or provider.api or "openai-completions",
        "provider": provider_name,
        "base_url": definition.base_url or provider.base_url or "",
        "reasoning": bool(definition.reasoning),
        "input": definition.input or ["text"],
        "cost": cost,
        "context_window": int(definition.context_window or 128000),
        "max_tokens": int(definition.max_tokens or 16384),
        "headers": headers,
        "compat": compat,
    }
    if definition.thinking_level_map is not None:
        data["thinking_level_map"] = definition.thinking_level_map
    return Model(**data)
