"""Where a streamed reply's CPU goes, without a profiler's distortion (issue 15).

``python bench/tui_stream_breakdown.py [--rate=2000] [--chars=40000]`` streams ``bench/_content.py``'s reply
through the real app (the ``tui_stream_cpu.py`` harness; ``--rate=0``: unthrottled) with a few functions
wrapped in CPU-time counters (``time.thread_time``, nested calls counted once at the outermost): the
transcript flush (rendering changed items), the screen refresh (Textual's compositor and the screen update),
the session listener (agent event -> UI), the agent's event processing (session, extension hooks, fan-out), the
headless screen serialisation, and the rest (agent loop, provider, event loop, Textual's message pumps). cProfile
inflates Rich's deep call trees several times over; these counters do not. A diagnostic tool, not a target figure.
"""

from __future__ import annotations

import asyncio
import functools
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from _common import arg_value, print_table  # noqa: E402
from _content import markdown_reply  # noqa: E402
from _pi_app import isolate_config  # noqa: E402
from _tui_harness import AbsolutePacer  # noqa: E402
from tui_stream import run_pi  # noqa: E402


class Counters:
    """CPU seconds and calls per name. A call of a name inside another call of the same name is not counted again;
    names starting with spaces are parts of others (shown, not added to the total of the counted ones), and a
    top-level name's call inside another top-level one's is not counted either."""

    def __init__(self) -> None:
        self.cpu: dict[str, float] = {}
        self.calls: dict[str, int] = {}
        self._active: dict[str, int] = {}
        self._top = 0
        self.enabled = False  # counting only between enable() and disable() (submit -> agent_end in run_pi)
        self._undo: list[Callable[[], None]] = []

    def wrap(self, owner: Any, attr: str, name: str | Callable[..., str]) -> None:
        """Count calls of ``owner.attr`` (a sync function) as ``name`` (or ``name(*args)``, decided per call)."""
        original = getattr(owner, attr)
        counters = self
        namer = name if callable(name) else None

        @functools.wraps(original)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            name = namer(*args) if namer is not None else wrapped_name
            part = name.startswith(" ")
            if not counters.enabled or counters._active.get(name) or (not part and counters._top):
                return original(*args, **kwargs)
            counters._active[name] = 1
            if not part:
                counters._top += 1
            t0 = time.thread_time()
            try:
                return original(*args, **kwargs)
            finally:
                counters._active[name] = 0
                if not part:
                    counters._top -= 1
                counters.cpu[name] = counters.cpu.get(name, 0.0) + time.thread_time() - t0
                counters.calls[name] = counters.calls.get(name, 0) + 1

        wrapped_name = name if isinstance(name, str) else ""
        setattr(owner, attr, wrapper)
        self._undo.append(lambda: setattr(owner, attr, original))

    def enable(self) -> None:
        """Start counting (``run_pi`` calls this at submit, as it would a profiler's)."""
        self.enabled = True

    def disable(self) -> None:
        """Stop counting (at ``agent_end``)."""
        self.enabled = False

    def undo(self) -> None:
        """Put every wrapped function back."""
        for undo in reversed(self._undo):
            undo()
        self._undo.clear()


def install(counters: Counters) -> None:
    """Wrap the functions of the streaming path."""
    from textual.screen import Screen

    from pi_tui.tui.session_view import SessionView
    from pi_tui.tui.widgets import markdown_incremental
    from pi_tui.tui.widgets.footer import Footer
    from pi_tui.tui.widgets.status_line import StatusLine
    from pi_tui.tui.widgets.transcript import Transcript

    counters.wrap(Transcript, "flush", "transcript flush (render changed items)")
    counters.wrap(Transcript, "_ensure_visible_rendered", "transcript render in view (scroll, stale paint)")
    counters.wrap(Transcript, "item_changed", "transcript item_changed (per delta)")
    counters.wrap(markdown_incremental, "block_strips", "  of which Markdown block renders")
    counters.wrap(Transcript, "_place", "  of which transcript _place (virtual size, scroll)")
    def frame_kind(screen: Any) -> str:
        dirty = {type(w).__name__ for w in screen._dirty_widgets}
        if "Transcript" in dirty:
            return "screen refresh with the transcript (compositor + update)"
        return "screen refresh without it: " + ",".join(sorted(dirty))[:40]

    counters.wrap(Screen, "_compositor_refresh", frame_kind)
    counters.wrap(SessionView, "handle", "session listener (event -> UI)")
    counters.wrap(StatusLine, "_tick", "spinner tick")
    counters.wrap(Footer, "set_data", "footer set_data")


def main(argv: list[str]) -> int:
    """Stream once with the counters and print the table."""
    rate = float(arg_value(argv, "--rate", "2000"))
    chars = int(arg_value(argv, "--chars", "40000"))
    isolate_config()
    cwd = tempfile.mkdtemp(prefix="pi-tui-bench-cwd-")
    text = markdown_reply(chars, seed=1)
    counters = Counters()

    async def run() -> dict[str, Any]:
        pacer = AbsolutePacer()
        pacer.install()
        install(counters)
        try:
            return await run_pi(text, cwd, tokens_per_second=rate / 4 if rate else None, probe_lag=False,
                                profiler=counters)
        finally:
            counters.undo()
            pacer.uninstall()

    from pi_tui.tui.widgets.painted_lines import PaintedLines

    painted: list[PaintedLines] = []
    original_init = PaintedLines.__init__

    def init(self: PaintedLines, *args: Any, **kwargs: Any) -> None:
        original_init(self, *args, **kwargs)
        painted.append(self)

    PaintedLines.__init__ = init  # type: ignore[method-assign]
    try:
        r = asyncio.run(run())
    finally:
        PaintedLines.__init__ = original_init  # type: ignore[method-assign]
    wall = r["agent_end"] - r["t0"]
    total = r["cpu_s"]
    rows: list[tuple[str, Any, str]] = [
        ("wall s (submit -> agent_end)", wall, f"{len(text):,} chars at {rate:,.0f}/s (0: unthrottled)"),
        ("CPU s (all threads)", total, f"{total / wall:.1%} of a core; {r['updates']} screen updates, "
                                       f"{r['deltas']} deltas"),
    ]
    counted = 0.0
    for name, cpu in sorted(counters.cpu.items(), key=lambda kv: -kv[1]):
        if not name.startswith(" "):
            counted += cpu
        rows.append((name, cpu, f"{counters.calls[name]} calls, {1000 * cpu / max(1, counters.calls[name]):.2f} ms "
                                f"each, {cpu / total:.0%}"))
    rows.append(("headless screen serialisation", r["serialise_s"], "bench harness (a terminal run writes bytes)"))
    hits, misses = sum(p.hits for p in painted), sum(p.misses for p in painted)
    rows.append(("transcript rows painted from finished lines", hits, f"{misses} rows styled by Textual"))
    rest = total - counted - r["serialise_s"]
    rows.append(("rest (agent loop, provider, session, event loop)", rest, f"{rest / total:.0%}"))
    print_table("tui_stream_breakdown (CPU seconds)", rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
