"""A ``--model``/``--provider`` that names a provider an extension registers (``pi.register_provider``).

pi loads extensions before it resolves ``--model`` (its registered providers are flushed first). pi-tui
creates the session first and loads extensions when the mode starts it, so a pattern that matches no known
model is kept as :class:`PendingModel` (when extensions will load) and resolved again once they have loaded
(:func:`resolve_pending_model`, called by the extension side right after loading). Until then the session
holds the model it would have had without ``--model``; a new session records its first ``model_change`` only
after the resolution, so its file never names that stand-in. A pattern that still matches nothing is the
same error text as before (``session.model_error``): print mode prints it and exits 1, the TUI and RPC mode
show it as an error notification.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pi_tui.ai.models import clamp_thinking_level


@dataclass
class PendingModel:
    """``provider``/``pattern`` as given; ``error``: why they matched nothing at start-up; ``thinking``: an
    explicit ``--thinking``; ``default_level``: the level the session would take otherwise (before clamping
    to the stand-in model); ``record_initial``: the session is new and has not recorded its model yet."""

    provider: str | None
    pattern: str | None
    error: str
    thinking: str | None = None
    default_level: str | None = None
    record_initial: bool = False


def resolve_pending_model(session: Any) -> str | None:
    """Resolve ``session.pending_model`` against the models known now; returns (and sets
    ``session.model_error`` to) the error text when it still matches nothing, else None."""
    pending: PendingModel | None = getattr(session, "pending_model", None)
    if pending is None:
        return None
    session.pending_model = None
    error: str | None = None
    try:
        model, level, _warning = session.models.resolve_pattern(pending.provider, pending.pattern)
    except ValueError as exc:
        model, level, error = None, None, str(exc)
    if model is None:
        session.model_error = error or pending.error
    else:
        state = session.agent.state
        state.model = model
        state.thinking_level = clamp_thinking_level(model, pending.thinking or level or pending.default_level or state.thinking_level)
    if pending.record_initial:
        session.record_initial_settings()
    if model is None:
        session.notify("error", session.model_error)
        return str(session.model_error)
    return None
