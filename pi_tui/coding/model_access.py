"""Model and key access for sessions, over the config layer's ModelRegistry (pi-reference §3.2, §3.7, §3.16).

Implements the session's :class:`~pi_tui.coding.agent_session.settings.ModelAccess`. Keys are resolved per request
(``--api-key`` > auth.json > env > models.json ``apiKey``; loopback custom providers need none), together with
the extra request headers of models.json. ``--model`` patterns use the config layer's ``resolve_cli_model``.
The built-in offline demo model is added with :meth:`allow` and needs no key.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pi_tui.ai.secret_redaction import register_secret, register_secrets
from pi_tui.ai.types import Model
from pi_tui.coding.config.auth import AuthStorage
from pi_tui.coding.config.model_registry import ModelRegistry
from pi_tui.coding.config.model_resolver import is_valid_thinking_level, pick_default_model, resolve_cli_model
from pi_tui.coding.config.paths import get_auth_path, get_models_path

OFFLINE_KEY = "offline"


@dataclass
class RequestCredentials:
    """What one request needs: ``api_key``, extra ``headers``; ``error`` when they cannot be resolved."""

    api_key: str | None = None
    headers: dict[str, str] | None = None
    error: str | None = None


class RegistryModelAccess:
    """ModelAccess over a :class:`ModelRegistry`. ``errors``: models.json / auth.json problems (warnings)."""

    def __init__(self, registry: ModelRegistry) -> None:
        self.registry = registry
        self._cli_keys: dict[str, str] = {}
        self._extra: dict[tuple[str, str], Model] = {}
        self._offered: list[Model] = []

    @property
    def errors(self) -> list[str]:
        """The auth.json and models.json problems as the files are now (after a /reload too)."""
        return [*self.registry.auth.errors, *([self.registry.error] if self.registry.error else [])]

    @classmethod
    def create(cls, agent_dir: Path) -> RegistryModelAccess:
        """Registry over ``<agent_dir>/auth.json`` and ``<agent_dir>/models.json``."""
        auth = AuthStorage.create(get_auth_path(agent_dir))
        return cls(ModelRegistry.create(auth, get_models_path(agent_dir)))

    def set_runtime_api_key(self, provider: str, key: str) -> None:
        """Use ``key`` for ``provider`` in this process only (``--api-key``; never written)."""
        register_secret(key)
        self._cli_keys[provider] = key

    def allow(self, provider: str, model_id: str, model: Model) -> None:
        """Make a built-in model (the offline demo) usable without a key."""
        self._extra[(provider, model_id)] = model

    def offer(self, model: Model) -> None:
        """Make ``model`` usable without a key and list it in :meth:`available_models` (so /model offers it)
        without choosing it: the offline demo when no configured model is usable (issue 9)."""
        self.allow(model.provider, model.id, model)
        if model not in self._offered:
            self._offered.append(model)

    # ------------------------------------------------------------------ ModelAccess

    def request_credentials(self, model: Model) -> RequestCredentials:
        """Key and headers for one request to ``model`` (may run a ``!command`` from auth/models.json)."""
        if (model.provider, model.id) in self._extra:
            return RequestCredentials(api_key=OFFLINE_KEY)
        auth = self.registry.get_api_key_and_headers(model, self._cli_keys.get(model.provider))
        if not auth.ok:
            return RequestCredentials(error=auth.error)
        register_secret(auth.api_key)
        register_secrets((auth.headers or {}).values())
        return RequestCredentials(api_key=auth.api_key, headers=auth.headers)

    def get_api_key(self, model: Model) -> str | None:
        """The key for ``model`` now (None when none is configured or it cannot be resolved)."""
        return self.request_credentials(model).api_key

    def has_auth(self, model: Model) -> bool:
        """True when a key source is configured for ``model``'s provider (or none is needed)."""
        if (model.provider, model.id) in self._extra or model.provider in self._cli_keys:
            return True
        return self.registry.has_configured_auth(model)

    def all_models(self) -> list[Model]:
        """Every known model (catalogue + models.json)."""
        return self.registry.get_all()

    def available_models(self) -> list[Model]:
        """Models with auth, in the registry's order, then the ones offered with :meth:`offer`
        (the offline demo when a broken models.json left no model, issue 9)."""
        configured = self._configured_models()
        known = {(m.provider, m.id) for m in configured}
        return configured + [m for m in self._offered if (m.provider, m.id) not in known]

    def _configured_models(self) -> list[Model]:
        return [m for m in self.registry.get_all() if self.has_auth(m)]

    def find(self, provider: str, model_id: str) -> Model | None:
        """A known model by provider and id (the offline model included once allowed)."""
        return self._extra.get((provider, model_id)) or self.registry.find(provider, model_id)

    def configured_anything(self) -> bool:
        """True when at least one model has auth (a key, a models.json provider, ``--api-key``)."""
        return bool(self._configured_models())

    def default_model(self) -> Model | None:
        """pi's provider default table among available models, else the first available."""
        return pick_default_model(self._configured_models())

    def resolve_pattern(self, provider: str | None, pattern: str | None) -> tuple[Model | None, str | None, str | None]:
        """``--provider``/``--model`` → ``(model, thinking_level, warning)``; raises ``ValueError`` with pi's text."""
        if provider and not pattern:
            own = [m for m in self.available_models() if m.provider == provider] or [
                m for m in self.all_models() if m.provider == provider
            ]
            if not own:
                raise ValueError(f'Unknown provider "{provider}". Use --list-models to see available providers/models.')
            return pick_default_model(own), None, None
        result = resolve_cli_model(provider, pattern, self.all_models())
        if not provider and pattern and "/" in pattern and (result.model is None or not self.has_auth(result.model)):
            # pi 0.79.2: a custom model whose id starts with a built-in provider's name ("openai/gpt-4o" served by
            # a proxy) wins over that provider's own model when only the custom one has auth
            custom = self._authenticated_id(pattern)
            if custom is not None:
                return custom
        if result.error:
            raise ValueError(result.error)
        return result.model, result.thinking_level, result.warning

    def _authenticated_id(self, pattern: str) -> tuple[Model, str | None, None] | None:
        """The one model with auth whose id is ``pattern`` (or ``pattern`` without a ``:<level>`` suffix)."""
        head, sep, level = pattern.rpartition(":")
        for model_id, thinking in ((pattern, None), *(((head, level),) if sep and is_valid_thinking_level(level)
                                                       else ())):
            lower = model_id.lower()
            matches = [m for m in self.available_models() if m.id.lower() == lower]
            if len(matches) == 1:
                return matches[0], thinking, None
        return None
