"""Read-only helpers over an AgentSession for the UI (footer data, queues, names), tolerant of shapes.

The session API (``pi_tui.coding.agent_session``) returns pydantic models or dicts; these helpers read both and
never raise, so a missing figure shows as absent rather than crashing the UI.
"""

from __future__ import annotations

import inspect
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pi_tui.tui.log_setup import log
from pi_tui.tui.widgets.footer import FooterData, tilde
from pi_tui.tui.widgets.transcript_items import field

if TYPE_CHECKING:
    from pi_tui.tui.session_protocol import TuiSession


async def maybe_await(value: Any) -> Any:
    """Await ``value`` when it is awaitable (session methods may be sync or async)."""
    if inspect.isawaitable(value):
        return await value
    return value


def _get(obj: Any, *names: str, default: Any = None) -> Any:
    for n in names:
        v = field(obj, n)
        if v is not None:
            return v
    return default


_failed_calls: set[str] = set()


def _call(session: Any, name: str) -> Any:
    """``session.<name>()``, or None when it fails (the footer then shows the figure as absent); the first
    failure of each method is logged with its traceback (the footer refreshes often: once is enough)."""
    fn = getattr(session, name, None)
    if not callable(fn):
        return None
    try:
        return fn()
    except Exception as exc:
        if name not in _failed_calls:
            _failed_calls.add(name)
            log.warning("session.%s() failed; the footer leaves its figures out", name, exc_info=exc)
        return None


def git_branch(cwd: str) -> str | None:
    """Current git branch of ``cwd`` (``None`` outside a repository or without git). Reads .git/HEAD."""
    path = Path(cwd).resolve()
    for d in (path, *path.parents):
        head = d / ".git" / "HEAD"
        if head.is_file():
            try:
                text = head.read_text(encoding="utf-8").strip()
            except OSError:
                return None
            if text.startswith("ref: refs/heads/"):
                return text[len("ref: refs/heads/"):]
            return text[:8] or None
        if (d / ".git").is_file():  # worktree / submodule: ask git
            try:
                out = subprocess.run(["git", "-C", str(d), "branch", "--show-current"], capture_output=True,
                                     text=True, timeout=1, check=False)
                return out.stdout.strip() or None
            except (OSError, subprocess.SubprocessError):
                return None
    return None


def footer_data(session: TuiSession | None, cwd_display: str, branch: str | None,
                multi_provider: bool = False, starting: bool = True) -> FooterData:
    """Footer figures from ``get_session_totals()`` (else ``get_session_stats()``), ``get_context_usage()``,
    ``model``, ``thinking_level``. With no session, ``starting`` (it is still being built) shows the model as
    loading; False (it could not be built) shows none."""
    d = FooterData(cwd=cwd_display, branch=branch, multi_provider=multi_provider)
    if session is None:
        d.loading = starting
        return d
    d.session_name = session.session_name
    ownership = getattr(session, "ownership", None)
    d.read_only = ownership is not None and not getattr(ownership, "saving", True)
    totals = _call(session, "get_session_totals")  # the whole session's, compacted turns included (pi)
    stats = {"tokens": totals, "cost": totals.get("cost", 0)} if isinstance(totals, dict) else \
        _call(session, "get_session_stats")
    tokens = _get(stats, "tokens", default={}) if stats is not None else {}
    d.input = int(_get(tokens, "input", default=0) or 0)
    d.output = int(_get(tokens, "output", default=0) or 0)
    d.cache_read = int(_get(tokens, "cache_read", "cacheRead", default=0) or 0)
    d.cache_write = int(_get(tokens, "cache_write", "cacheWrite", default=0) or 0)
    cost = _get(stats, "cost", default=0) if stats is not None else 0
    d.cost = float(_get(cost, "total", default=0) if not isinstance(cost, int | float) else cost)
    usage = _call(session, "get_context_usage")
    if usage is not None:
        d.context_window = int(_get(usage, "context_window", "contextWindow", default=0) or 0)
        pct = _get(usage, "percent")
        d.context_percent = float(pct) if pct is not None else None
    model = session.model
    if model is not None:
        d.model_id = model.id
        d.provider = model.provider
        d.reasoning = bool(model.reasoning)
        if not d.context_window:
            d.context_window = int(model.context_window or 0)
    d.thinking_level = session.thinking_level
    d.auto_compact = bool(session.settings.compaction.enabled)
    link = getattr(session, "mcp", None)  # McpSessionLink (issue 13): a failed server shows in the footer
    manager = getattr(link, "manager", None) if link is not None and getattr(link, "enabled", False) else None
    d.mcp_state = manager.short_state() if manager is not None else None
    return d


def cwd_display(cwd: str, home: str | None = None) -> str:
    """``cwd`` with ``$HOME`` shown as ``~``."""
    return tilde(cwd, home)


def queued_texts(result: Any) -> tuple[list[str], list[str]]:
    """``(steering, follow_up)`` texts from ``clear_queue()``'s return (dict, model or tuple)."""
    if result is None:
        return [], []
    if isinstance(result, tuple) and len(result) == 2:
        return list(result[0] or []), list(result[1] or [])
    steering = _get(result, "steering", default=[]) or []
    follow = _get(result, "follow_up", "followUp", default=[]) or []
    return [_text(m) for m in steering], [_text(m) for m in follow]


def _text(m: Any) -> str:
    if isinstance(m, str):
        return m
    from pi_tui.tui.widgets.transcript_items import message_text

    return message_text(field(m, "content", ""))
