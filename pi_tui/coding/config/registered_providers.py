"""Providers registered at run time (pi's ``ModelRegistry.registerProvider`` / ``unregisterProvider``;
pi 0.73 docs/extensions.md "pi.registerProvider", docs/custom-provider.md).

A registration is a provider config in models.json's shape (:class:`~pi_tui.coding.config.models_json.ProviderConfig`:
``name``, ``baseUrl``, ``apiKey`` (env var name, literal or ``!command``), ``api``, ``headers``, ``authHeader``,
``compat``, ``models``) plus an optional ``stream_simple`` (``streamSimple``): a stream function
``(model, context, options) -> AssistantMessageEventStream`` registered for the config's ``api`` in the pi-ai
API registry (``pi_tui.ai.registry``, source ``provider:<name>``).

Rules (pi's ``validateProviderConfig`` / ``applyProviderConfig``):

* ``stream_simple`` needs ``api``; ``models`` need ``baseUrl``, and ``apiKey`` unless the base URL is a loopback
  address (the models.json waiver, DIFFERENCES); every model needs an ``api`` (its own or the provider's).
* With ``models``: every model of that provider (built-in or models.json) is replaced by the given ones.
  Without: ``baseUrl`` moves the provider's existing models; ``headers``/``apiKey``/``authHeader`` apply to
  its requests.
* Registering a name again updates the stored config: the new call's given keys win, the others stay.
* Registrations survive :meth:`ModelRegistry.refresh` (models.json reloads): they are applied again on top.
  ``unregister`` drops one and restores what it had overridden (built-in models, the built-in stream).

Errors: :class:`ValueError` with pi's messages (``Provider <name>: "baseUrl" is required when defining
models.``); ``oauth`` is refused (pi-tui has no ``/login`` OAuth flow for extension providers).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from pi_tui.ai.registry import (
    BUILTIN_PROVIDER_MODULES,
    ApiProvider,
    register_api_provider,
    register_builtin_providers,
    unregister_api_providers,
)
from pi_tui.ai.types import Model, ModelCost
from pi_tui.coding.config.models_json import ModelDefinition, ProviderConfig, is_loopback_url

StreamSimple = Callable[..., Any]


@dataclass
class RegisteredProvider:
    """One registration: the validated ``config`` and its ``stream_simple`` (or None)."""

    name: str
    config: ProviderConfig
    stream_simple: StreamSimple | None = None

    @property
    def source_id(self) -> str:
        """The pi-ai API registry source of its stream function (pi: ``provider:<name>``)."""
        return f"provider:{self.name}"


_STREAM_KEYS = ("stream_simple", "streamSimple")


def parse_registration(name: str, config: Mapping[str, Any] | ProviderConfig,
                       stream_simple: StreamSimple | None = None) -> RegisteredProvider:
    """Validate one ``register_provider(name, config)`` call (module docstring); raises ``ValueError``.
    ``config`` keys may be pi's camelCase or snake_case; a ``stream_simple`` key is taken out of it."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError("Provider name must be a non-empty string")
    if isinstance(config, ProviderConfig):
        parsed = config
    elif isinstance(config, Mapping):
        raw = dict(config)
        for key in _STREAM_KEYS:
            if key in raw:
                stream_simple = raw.pop(key)
        if raw.pop("oauth", None) is not None:
            raise ValueError(f"Provider {name}: \"oauth\" is not supported by pi-tui (use apiKey)")
        try:
            parsed = ProviderConfig.model_validate(raw)
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'config'}: {e['msg']}"
                                 for e in exc.errors())
            raise ValueError(f"Provider {name}: {problems}") from None
    else:
        raise ValueError(f"Provider {name}: config must be a dict")
    if stream_simple is not None and not callable(stream_simple):
        raise ValueError(f"Provider {name}: streamSimple must be callable")
    if stream_simple is not None and not parsed.api:
        raise ValueError(f'Provider {name}: "api" is required when registering streamSimple.')
    if parsed.models:
        if not parsed.base_url:
            raise ValueError(f'Provider {name}: "baseUrl" is required when defining models.')
        if not parsed.api_key and not is_loopback_url(parsed.base_url):
            raise ValueError(f'Provider {name}: "apiKey" or "oauth" is required when defining models.')
        for spec in parsed.models:
            if not (spec.api or parsed.api):
                raise ValueError(f'Provider {name}, model {spec.id}: no "api" specified.')
    return RegisteredProvider(name, parsed, stream_simple)


def merge_registration(existing: RegisteredProvider | None, new: RegisteredProvider) -> RegisteredProvider:
    """pi's ``upsertRegisteredProvider``: the keys ``new`` gives override ``existing``'s, the rest stay."""
    if existing is None:
        return new
    given = new.config.model_dump(exclude_unset=True)
    config = existing.config.model_copy(update={k: getattr(new.config, k) for k in given})
    return RegisteredProvider(new.name, config, new.stream_simple or existing.stream_simple)


def _model(name: str, config: ProviderConfig, spec: ModelDefinition) -> Model:
    cost = spec.cost
    return Model(
        id=spec.id,
        name=spec.name or spec.id,
        api=spec.api or config.api or "",
        provider=name,
        base_url=spec.base_url or config.base_url or "",
        reasoning=bool(spec.reasoning),
        thinking_level_map=spec.thinking_level_map,
        input=list(spec.input) if spec.input else ["text"],
        cost=ModelCost(input=cost.input, output=cost.output, cache_read=cost.cache_read,
                       cache_write=cost.cache_write) if cost else ModelCost(),
        context_window=int(spec.context_window) if spec.context_window is not None else 128000,
        max_tokens=int(spec.max_tokens) if spec.max_tokens is not None else 16384,
        compat=spec.compat or config.compat,
    )


def apply_registration(models: list[Model], providers: dict[str, ProviderConfig],
                       model_headers: dict[tuple[str, str], dict[str, str]],
                       registration: RegisteredProvider) -> list[Model]:
    """Apply one registration to a registry's state (pi's ``applyProviderConfig``): registers its stream
    function, stores its request config in ``providers`` / ``model_headers`` (changed in place), and returns
    the new model list."""
    name, config = registration.name, registration.config
    if registration.stream_simple is not None and config.api:
        fn = registration.stream_simple
        register_api_provider(ApiProvider(api=config.api, stream=fn, stream_simple=fn), registration.source_id)
    current = providers.get(name)
    if config.api_key or config.headers or config.auth_header or current is None:
        base = current.model_dump(exclude_unset=True) if current is not None else {}
        update = config.model_dump(exclude_unset=True, exclude={"models", "model_overrides"})
        providers[name] = ProviderConfig.model_validate({**base, **update})
    if config.models:
        kept = [m for m in models if m.provider != name]
        for key in [k for k in model_headers if k[0] == name]:
            del model_headers[key]
        for spec in config.models:
            if spec.headers:
                model_headers[(name, spec.id)] = dict(spec.headers)
        return kept + [_model(name, config, spec) for spec in config.models]
    if config.base_url:
        return [m.model_copy(update={"base_url": config.base_url}) if m.provider == name else m for m in models]
    return models


def drop_stream(registration: RegisteredProvider) -> None:
    """Take back a registration's stream function; a built-in API it had replaced gets its own back."""
    if registration.stream_simple is None:
        return
    unregister_api_providers(registration.source_id)
    if registration.config.api in BUILTIN_PROVIDER_MODULES:
        register_builtin_providers()
