"""Test helpers: a real AgentSession on a scripted faux provider, and a deterministic PiApp around it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from pi_tui.ai.providers.faux import FauxProvider, register_faux_provider
from pi_tui.coding.agent_session.factory import create_agent_session
from pi_tui.tui.app import PiApp

CWD_LABEL = "~/projects/demo"


def make_session(cwd: Path, steps: list[Any] | None = None, reasoning: bool = False,
                 tokens_per_second: float | None = None, tools: list[str] | None = None,
                 **options: Any) -> tuple[Any, FauxProvider]:
    """An in-memory session in ``cwd`` switched to a faux model serving ``steps`` (``options``: more
    ``create_agent_session`` arguments, e.g. ``extension_paths``)."""
    faux = register_faux_provider(
        provider="faux",
        models=[{"id": "faux-1", "name": "Faux One", "reasoning": reasoning, "context_window": 200000}],
        tokens_per_second=tokens_per_second,
    )
    faux.set_responses(steps or [])
    session = create_agent_session(str(cwd), tools=tools, **{"no_session": True, **options})
    model = faux.get_model()
    assert model is not None
    session.models.allow(faux.provider, model.id, model)
    session.set_model(model)
    return session, faux


SNAPSHOT_CWD = Path("/tmp/pi-tui-snapshot-cwd")


def snapshot_session(steps: list[Any] | None = None, reasoning: bool = False,
                     tools: list[str] | None = None, **options: Any) -> tuple[Any, FauxProvider]:
    """A faux session with a fixed cwd and system prompt, so token figures are the same on every run."""
    SNAPSHOT_CWD.mkdir(parents=True, exist_ok=True)
    session, faux = make_session(SNAPSHOT_CWD, steps, reasoning=reasoning, tools=tools, **options)
    session.agent.state.system_prompt = "You are a helpful coding assistant (snapshot test)."
    session.agent.state.messages = []  # drop set_model's "Model: faux/faux-1" notice: the screen starts clean
    return session, faux


def offline_session(cwd: Path) -> Any:
    """The session exactly as ``pi-tui`` builds it with no keys (the built-in offline model)."""
    return create_agent_session(str(cwd), no_session=True)


def make_app(session: Any = None, theme: str = "dark", **kwargs: Any) -> PiApp:
    """A deterministic app: fixed cwd label and branch, no spinner, no timing text, no network probe."""
    opts: dict[str, Any] = dict(cwd_label=CWD_LABEL, branch="main", probe_local=False, spin=False,
                                show_timing=False, escape_delay=0.0, agent_dir_label="~/.pi-tui/agent")
    opts.update(kwargs)
    return PiApp(session=session, theme=theme, **opts)


async def wait_until(pilot: Any, predicate: Any, limit: float = 10.0) -> None:
    """Pump the app until ``predicate()`` is true (raises ``AssertionError`` on timeout)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + limit
    while not predicate():
        if loop.time() > end:
            raise AssertionError("condition not reached in time")
        await pilot.pause(0.02)


async def settle(pilot: Any) -> None:
    """Let workers finish and the transcript flush (deterministic snapshots)."""
    app = pilot.app
    await wait_until(pilot, lambda: app.session_ready)
    if app.session is not None and hasattr(app.session, "wait_for_idle"):
        await app.session.wait_for_idle()
    await pilot.pause(0.1)
    app.transcript.flush()
    await pilot.pause()


def transcript_text(app: PiApp) -> str:
    """Every transcript line as plain text (renders all items at the current width)."""
    t = app.transcript
    width = t._width or t.content_width
    lines: list[str] = []
    for item in t.items:
        lines.extend(s.text.rstrip() for s in item.strips(t.ctx, width))
    return "\n".join(lines)
