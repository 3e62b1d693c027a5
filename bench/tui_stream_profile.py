"""Profile the streaming path (issue 15): cProfile over the whole app while the 40 KB reply streams at a rate.

``python bench/tui_stream_profile.py [--rate=2000] [--chars=40000] [--top=40] [--sort=tottime] [--out=FILE]``
streams ``bench/_content.py``'s reply through the faux provider, the agent loop, ``AgentSession`` and ``PiApp``
(headless 120x40, the same harness as ``tui_stream_cpu.py``) under ``cProfile`` (from submit to ``agent_end``) and prints the top functions,
the screen updates and deltas, and the CPU seconds per screen update and per delta. ``--out`` keeps the stats
file (``python -m pstats``). A tool for finding where the time goes, not a figure with a target.
"""

from __future__ import annotations

import asyncio
import cProfile
import pstats
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from _common import arg_value  # noqa: E402
from _content import markdown_reply  # noqa: E402
from _pi_app import isolate_config  # noqa: E402
from _tui_harness import AbsolutePacer  # noqa: E402
from tui_stream import run_pi  # noqa: E402


def main(argv: list[str]) -> int:
    """Stream once under the profiler and print the top of the profile."""
    rate = float(arg_value(argv, "--rate", "2000"))
    chars = int(arg_value(argv, "--chars", "40000"))
    top = int(arg_value(argv, "--top", "40"))
    sort = arg_value(argv, "--sort", "tottime")
    out = arg_value(argv, "--out", "")
    isolate_config()
    cwd = tempfile.mkdtemp(prefix="pi-tui-bench-cwd-")
    text = markdown_reply(chars, seed=1)
    profiler = cProfile.Profile()

    async def run() -> dict[str, object]:
        pacer = AbsolutePacer()
        pacer.install()
        try:
            return await run_pi(text, cwd, tokens_per_second=rate / 4 if rate else None, probe_lag=False,
                                profiler=profiler)
        finally:
            pacer.uninstall()

    r = asyncio.run(run())
    wall = float(r["agent_end"]) - float(r["t0"])  # type: ignore[arg-type]
    cpu = float(r["cpu_s"])  # type: ignore[arg-type]
    updates, deltas = int(r["updates"]), int(r["deltas"])  # type: ignore[call-overload]
    print(f"{len(text):,} chars at {rate:,.0f}/s: {cpu:.2f} CPU s (profiled; --rate=0: unthrottled) over {wall:.2f} s; {updates} screen "
          f"updates ({1000 * cpu / max(1, updates):.1f} ms each), {deltas} deltas ({1000 * cpu / max(1, deltas):.2f} ms "
          "each)")
    stats = pstats.Stats(profiler)
    if out:
        stats.dump_stats(out)
    stats.sort_stats(sort).print_stats(top)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
