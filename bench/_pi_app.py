"""Build the real pi-tui app for the benchmarks: ``PiApp`` with a session from ``create_agent_session``.

``make_pi_app(cwd, session_path=None, faux=None)`` mirrors ``pi_tui.tui.app.run_app``: the app paints first and
creates the session (the real factory, resuming ``session_path`` when given) right after. With ``faux`` (a
``FauxProvider`` handle from ``register_faux_provider``) the session is switched to the faux model through the
real ``set_model`` path, so replies stream through the real agent loop, session and UI listener.
The local-server probe is off (it talks to localhost ports and is not part of what is measured).
"""

from __future__ import annotations

import os
import tempfile
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # not imported at run time: start-up figures must not pay for the agent core before first paint
    from pi_tui.ai.providers.faux import FauxProvider


def isolate_config() -> str:
    """Point PI_TUI_DIR at a fresh temp dir (no user config, keys or sessions leak into a benchmark)."""
    path = tempfile.mkdtemp(prefix="pi-tui-bench-")
    os.environ["PI_TUI_DIR"] = path
    os.environ.setdefault("PI_TUI_OFFLINE_TPS", "0")
    return path


def make_session(cwd: str, session_path: str | None = None, faux: FauxProvider | None = None) -> Any:
    """The real ``AgentSession`` for ``cwd`` (resuming ``session_path``), switched to ``faux``'s model if given."""
    from pi_tui.coding.agent_session.factory import create_agent_session

    session = create_agent_session(cwd, session_path=session_path)
    if faux is not None:
        model = faux.get_model()
        assert model is not None
        session.models.allow(model.provider, model.id, model)
        session.set_model(model)
    return session


def make_pi_app(cwd: str, session_path: str | None = None, faux: FauxProvider | None = None,
                spin: bool = True) -> Any:
    """A ``PiApp`` that creates its session after the first paint and shows the end of ``session_path`` meanwhile,
    with the collector tuned, like ``run_app``."""
    from pi_tui.tui.app import PiApp
    from pi_tui.tui.launch import space_full_collections

    space_full_collections()
    app = PiApp(session_factory=lambda: make_session(cwd, session_path, faux), cwd=cwd, probe_local=False, spin=spin)
    if session_path:
        app.startup.preview.locate = lambda: session_path
    return app
