"""Child process for start-up measurements: start an app headless at 120x40 and report when it first painted.

``python bench/_first_paint.py minimal|cli [--until TEXT] [--limit S] [-- CLI ARGS...]``

- ``minimal``: the minimal Textual app (bench/_baselines.py).
- ``cli``: the real command line, ``pi_tui.cli.main(CLI ARGS)`` (e.g. ``--session PATH``), exactly as ``pi-tui``
  runs it; only ``App.run`` is wrapped to use the headless driver at 120x40 and to watch the screen.

Prints one JSON line on stdout: ``{"started": t, "first_paint": t, "until": t, "rss_mb": m}`` where every ``t``
is ``time.monotonic()`` (system-wide on Linux, so the parent can subtract its own spawn time); ``first_paint_cpu``
and ``until_cpu`` are the process's CPU seconds (``time.process_time()``, all threads) at those moments, a figure a
loaded machine changes less than the wall times. ``first_paint`` is
the first screen update (serialised to terminal bytes, as a real run does); ``until`` the first update whose text
contains ``TEXT`` (e.g. the last line of a resumed session: "interactive"). The app then exits. After ``--limit``
seconds without success the screen is written to stderr and the exit code is 1.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def _watch(app: Any, result: dict[str, Any], until: str | None, limit: float) -> None:
    """Hook ``app``'s screen updates: record first paint / ``until``, then exit the app."""
    from _tui_harness import ANSI, rss_mb

    original = app._display

    def display(screen: Any, renderable: Any) -> None:
        original(screen, renderable)
        if renderable is None:
            return
        render = getattr(renderable, "render_segments", None)
        text = render(app.console) if render is not None else ""
        now = time.monotonic()
        if "first_paint" not in result:
            result["first_paint"] = now
            result["first_paint_cpu"] = time.process_time()
        if until and "until" not in result and until in ANSI.sub("", text):
            result["until"] = now
            result["until_cpu"] = time.process_time()
        if (not until or "until" in result) and "done" not in result:
            result["done"] = now
            result["rss_mb"] = rss_mb()
            app.call_later(app.exit)

    def give_up() -> None:
        if "done" in result:
            return
        from _tui_harness import screen_lines

        sys.stderr.write(f"gave up after {limit} s waiting for {until!r}; screen:\n")
        sys.stderr.write("\n".join(screen_lines(app)) + "\n")
        app.exit()

    app._display = display
    app.call_later(lambda: app.set_timer(limit, give_up))


def main(argv: list[str]) -> int:
    """Run one measurement; see module docstring."""
    t_start = time.monotonic()
    cli_args: list[str] = []
    if "--" in argv:
        cli_args = argv[argv.index("--") + 1:]
        argv = argv[: argv.index("--")]
    kind = argv[0]
    until = argv[argv.index("--until") + 1] if "--until" in argv else None
    limit = float(argv[argv.index("--limit") + 1]) if "--limit" in argv else 60.0
    result: dict[str, Any] = {"started": t_start}
    if kind == "minimal":
        from _baselines import MinimalApp

        app = MinimalApp()
        _watch(app, result, until, limit)
        app.run(headless=True, size=(120, 40))
    elif kind == "cli":
        import os
        import pty

        if not sys.stdin.isatty():  # as launched from a shell (piped stdin would select print mode)
            _master, slave = pty.openpty()
            sys.stdin = os.fdopen(slave)
        from textual.app import App

        original_run = App.run

        def run(self: Any, *args: Any, **kwargs: Any) -> Any:
            _watch(self, result, until, limit)
            kwargs.update(headless=True, size=(120, 40))
            return original_run(self, *args, **kwargs)

        App.run = run  # type: ignore[method-assign]
        from pi_tui.cli import main as cli_main

        cli_main(cli_args)
    else:
        print(f"unknown kind {kind!r}", file=sys.stderr)
        return 2
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()
    return 0 if "done" in result else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
