"""``pi.register_provider`` / ``pi.unregister_provider`` (pi 0.73 docs/extensions.md "pi.registerProvider",
docs/custom-provider.md): :class:`ProviderRegistrations` of one extension runtime.

While extensions load (``activate``), calls are queued and applied once every extension has loaded, in call
order (pi flushes ``pendingProviderRegistrations`` when the runner is bound); a config that the model registry
refuses then is one error naming the extension and ``register_provider``. After that a call takes effect at
once (no ``/reload``), and an invalid config raises ``ValueError`` from the call. The session's model registry
(``session.models.registry``, :class:`~pi_tui.coding.config.model_registry.ModelRegistry`) does the work, so
the models show in ``/model``, Ctrl+P scopes, ``--model`` (resolved again once extensions loaded:
``pending_model.py``) and RPC ``get_available_models`` / ``set_model``.

pi-tui addition: a registration belongs to the extension that made it, so unloading that extension (``/reload``
or a failed ``activate``) unregisters it and restores what it had overridden.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from pi_tui.coding.extensions.runner import ExtensionRunner, LoadedExtension

log = logging.getLogger(__name__)


def refresh_current_model(host: Any) -> None:
    """pi's ``_refreshCurrentModelFromRegistry``: the session's model is replaced by the registry's model of
    the same provider/id when a registration changed it (a new ``baseUrl``); a removed one stays as it is."""
    session = getattr(host, "session", None)
    model = getattr(session, "model", None)
    if session is None or model is None:
        return
    refreshed = session.models.find(model.provider, model.id)
    if refreshed is not None and refreshed != model:
        session.agent.state.model = refreshed


class ProviderRegistrations:
    """Provider registrations of one runtime. ``registry``: returns the session's model registry (an object
    with ``register_provider(name, config)`` and ``unregister_provider(name)``), or None when it has none."""

    def __init__(self, registry: Callable[[], Any], runner: ExtensionRunner) -> None:
        self._registry = registry
        self._runner = runner
        self._pending: list[tuple[LoadedExtension, str, Any]] = []
        self._owners: dict[str, str] = {}  # provider name -> owning extension path
        self.loading = True
        self.listeners: list[Callable[[], None]] = []
        """Called after the registered providers changed (the session re-resolves a pending ``--model``)."""

    def register(self, extension: LoadedExtension, name: str, config: Any) -> None:
        """``pi.register_provider(name, config)`` from ``extension``."""
        if self.loading:
            self._pending.append((extension, name, config))
            return
        self._apply(extension, name, config)
        self._changed()

    def unregister(self, extension: LoadedExtension, name: str) -> None:
        """``pi.unregister_provider(name)``: a queued registration of ``name`` is dropped; after loading the
        provider is removed at once (no-op when it was never registered)."""
        if self.loading:
            self._pending = [p for p in self._pending if p[1] != name]
            return
        registry = self._registry()
        if registry is not None:
            registry.unregister_provider(name)
        self._owners.pop(name, None)
        self._changed()

    def begin_loading(self) -> None:
        """Queue from now on (a load or reload starts)."""
        self.loading = True

    def flush(self) -> None:
        """Apply the queued registrations (each failure reported once), then apply calls at once."""
        pending, self._pending = self._pending, []
        self.loading = False
        for extension, name, config in pending:
            try:
                self._apply(extension, name, config)
            except ValueError as exc:
                self._runner.fail(extension, "register_provider", str(exc))
        if pending:
            self._changed()

    def remove_owner(self, owner: str) -> None:
        """Unregister every provider the extension at ``owner`` registered; drop its queued calls."""
        self._pending = [p for p in self._pending if p[0].path != owner]
        names = [name for name, path in self._owners.items() if path == owner]
        registry = self._registry() if names else None
        for name in names:
            del self._owners[name]
            if registry is not None:
                registry.unregister_provider(name)
        if names:
            self._changed()

    def _apply(self, extension: LoadedExtension, name: str, config: Any) -> None:
        registry = self._registry()
        if registry is None:
            raise ValueError(f"Provider {name}: this session has no model registry")
        registry.register_provider(name, config)
        self._owners[name] = extension.path

    def _changed(self) -> None:
        for listener in list(self.listeners):
            try:
                listener()
            except Exception:
                log.exception("provider listener failed")
