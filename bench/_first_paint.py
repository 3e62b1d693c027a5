"""Child process for start-up measurements: start an app headless at 120x40 and report when it first painted.

``python bench/_first_paint.py minimal|pitui [--session PATH] [--until TEXT] [--hold SECONDS]``

Prints one JSON line on stdout: ``{"imported": t, "first_paint": t, "until": t, ...}`` where every ``t`` is
``time.monotonic()`` (system-wide on Linux, so the parent can subtract its own spawn time). ``first_paint`` is the
first screen update; ``until`` the first update whose text contains ``TEXT`` (e.g. the last message of a resumed
session: "interactive"). With ``--hold`` the app stays up that long after painting, idle (for CPU measurements:
``cpu_s`` and ``wall_s`` of the idle period are then reported). The app then exits.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def _cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main(argv: list[str]) -> int:
    """Run one measurement; see module docstring."""
    parser = argparse.ArgumentParser()
    parser.add_argument("kind", choices=("minimal", "pitui"))
    parser.add_argument("--session")
    parser.add_argument("--until")
    parser.add_argument("--hold", type=float, default=0.0)
    parser.add_argument("--limit", type=float, default=60.0, help="give up (exit 1, screen on stderr) after this")
    args = parser.parse_args(argv)
    t_start = time.monotonic()
    from _tui_harness import ANSI

    app: Any
    if args.kind == "minimal":
        from _baselines import MinimalApp

        app = MinimalApp()
    else:
        from _pi_app import make_pi_app

        app = make_pi_app(os.getcwd(), session_path=args.session)
    result: dict[str, Any] = {"started": t_start, "imported": time.monotonic()}
    original = app._display

    def display(screen: Any, renderable: Any) -> None:
        original(screen, renderable)
        if renderable is None:
            return
        render = getattr(renderable, "render_segments", None)
        text = render(app.console) if render is not None else ""
        now = time.monotonic()
        result.setdefault("first_paint", now)
        if args.until and "until" not in result and args.until in ANSI.sub("", text):
            result["until"] = now
        if "first_paint" in result and (not args.until or "until" in result) and "done" not in result:
            result["done"] = now
            app.call_later(finish)

    async def finish() -> None:
        if args.hold:
            result["rss_mb"] = _rss_mb()
            cpu0, wall0 = _cpu_s(), time.monotonic()
            import asyncio

            await asyncio.sleep(args.hold)
            result["cpu_s"] = _cpu_s() - cpu0
            result["wall_s"] = time.monotonic() - wall0
        result["rss_mb"] = max(result.get("rss_mb", 0.0), _rss_mb())
        app.exit()

    def give_up() -> None:
        if "done" in result:
            return
        from _tui_harness import screen_lines

        sys.stderr.write(f"gave up after {args.limit} s waiting for {args.until!r}; state: "
                         f"session_ready={getattr(app, 'session_ready', None)}; screen:\n")
        sys.stderr.write("\n".join(screen_lines(app)) + "\n")
        app.exit()

    app._display = display
    app.call_later(lambda: app.set_timer(args.limit, give_up))
    app.run(headless=True, size=(120, 40))
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()
    return 0 if "done" in result else 1


def _rss_mb() -> float:
    from _tui_harness import rss_mb

    return rss_mb()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
