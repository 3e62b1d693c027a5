"""What the runner runs: :class:`LoadedExtension` (one extension and its handlers), :class:`ExtensionError`
(one failure, as shown to the user) and the handler conventions (pi docs/extensions.md "Events").

Handlers are ``handler(event, ctx)`` or ``handler(event)``; either may be ``async`` (a second parameter with a
default, other than ``ctx``/``context``, is not given the context: ``lambda event, name=name: ...``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from pi_tui.coding.extensions.events import EXTENSION_EVENTS

DEFAULT_HANDLER_TIMEOUT = 30.0
"""Seconds an async handler may run (dialog time excluded) before it is abandoned and reported."""

Handler = Callable[..., Any]


@dataclass
class ExtensionError:
    """One failure of an extension: ``extension`` (its name), ``path`` (its file), ``event`` (the event
    name, or ``"activate"``, ``"load"``, ``"command:NAME"``, ``"shortcut:KEY"``, ``"tool:NAME"``), ``error``
    (one line). ``text`` is the message shown to the user."""

    extension: str
    path: str
    event: str
    error: str

    @property
    def text(self) -> str:
        """``Extension "name" failed on event: error (path)``."""
        return f'Extension "{self.extension}" failed on {self.event}: {self.error} ({self.path})'


@dataclass
class LoadedExtension:
    """One extension: ``name`` (file stem or folder name), ``path``, its handlers per event (load order
    within the extension), the imported ``module`` and its ``pi`` API object."""

    name: str
    path: str
    handlers: dict[str, list[tuple[Handler, bool]]] = field(default_factory=dict)
    module: ModuleType | None = None
    api: Any = None

    def add_handler(self, event: str, handler: Handler) -> None:
        """Subscribe ``handler`` to ``event``; raises ``ValueError`` for an unknown event name and
        ``TypeError`` for something that is not callable."""
        if event not in EXTENSION_EVENTS:
            raise ValueError(f"Unknown event {event!r}; known: {', '.join(EXTENSION_EVENTS)}")
        if not callable(handler):
            raise TypeError(f"Handler for {event} is not callable: {handler!r}")
        self.handlers.setdefault(event, []).append((handler, takes_context(handler)))


def takes_context(handler: Handler) -> bool:
    """Whether ``handler`` wants ``ctx``: a second positional parameter without a default, or one named
    ``ctx``/``context`` (``lambda event, name=name: ...``, the loop-variable idiom, gets only the event)."""
    try:
        params = list(inspect.signature(handler).parameters.values())
    except (TypeError, ValueError):
        return True
    if any(p.kind is p.VAR_POSITIONAL for p in params):
        return True
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(positional) < 2:
        return False
    second = positional[1]
    return second.default is second.empty or second.name.lstrip("_") in ("ctx", "context")


def error_text(exc: BaseException) -> str:
    """``Type: first line of the message`` (``Type`` alone without one)."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
