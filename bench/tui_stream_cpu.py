"""CPU cost of streaming (issue 15): the whole app's share of one core while a 40 KB reply arrives at a fixed rate.

``python bench/tui_stream_cpu.py [--quick] [--rates 2000,8000]`` prints and writes
bench/results/tui_stream_cpu.json. The reply of bench/_content.py (40 KB; 8 KB with ``--quick``) streams through
the faux provider, the real agent loop, ``AgentSession`` and ``PiApp`` (headless 120x40, every screen update also
serialised to terminal bytes, as a real terminal run does), paced against an absolute clock
(``AbsolutePacer``) at each rate. Figures per rate:

- CPU share: CPU seconds of the process (``time.process_time``: every thread) from submit to ``agent_end``,
  divided by the wall time of the same span. No lag probe runs (it would cost CPU itself).
- at the highest rate, a second run types one unique character every 100 ms into the prompt meanwhile:
  keystroke -> first screen update showing it, p50/p95/max.
- the final screen equals the screen of the same reply arriving in one chunk (``tui_stream.py``'s check).
- the 1-minute load average at the start and the end (the machine is shared).

``--rates 2000`` or ``--rates=2000,8000`` picks the rates (the keystroke run uses the highest).

Targets (issue 15): <= 10 % of a core at 2,000 chars/s, <= 25 % at 8,000 chars/s; keystroke p95 <= 20 ms at
8,000 chars/s.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from _common import arg_value, median, percentile, print_table, write_results  # noqa: E402
from _content import markdown_reply  # noqa: E402
from _pi_app import isolate_config  # noqa: E402
from _tui_harness import AbsolutePacer  # noqa: E402
from tui_stream import _diff_rows, run_pi  # noqa: E402

TARGETS = {2000: 0.10, 8000: 0.25}  # chars/s -> max share of one core (issue 15)
KEY_TARGET_MS = 20.0


async def _paced(text: str, cwd: str, rate: float, type_interval: float | None) -> dict[str, Any]:
    pacer = AbsolutePacer()
    pacer.install()
    try:
        return await run_pi(text, cwd, tokens_per_second=rate / 4, type_interval=type_interval, probe_lag=False)
    finally:
        pacer.uninstall()


async def main_async(quick: bool, rates: list[int]) -> dict[str, Any]:
    """Stream at each rate (CPU share), then type at the highest rate; returns the results dict."""
    isolate_config()
    cwd = tempfile.mkdtemp(prefix="pi-tui-bench-cwd-")
    text = markdown_reply(8_000 if quick else 40_000, seed=1)
    one = await run_pi(text, cwd, tokens_per_second=None, token_size=(10**9, 10**9), probe_lag=False)
    out: dict[str, Any] = {"quick": quick, "reply_chars": len(text), "rates": {}}
    for rate in rates:
        r = await _paced(text, cwd, rate, None)
        wall = r["agent_end"] - r["t0"]
        out["rates"][str(rate)] = {
            "arrival_chars_per_s": len(text) / wall, "wall_s": wall, "cpu_s": r["cpu_s"],
            "cpu_share": r["cpu_s"] / wall, "screen_updates": r["updates"], "deltas": r["deltas"],
            "screen_identical": not _diff_rows(r["screen"], one["screen"]),
        }
    top = max(rates)
    typed = await _paced(text, cwd, top, 0.1)
    keys = typed["keys"]
    out.update(key_rate=top, keys=len(keys), key_p50_ms=median(keys), key_p95_ms=percentile(keys, 95),
               key_max_ms=max(keys, default=0.0))
    return out


def main(argv: list[str]) -> int:
    """Run and print the table."""
    rates = [int(x) for x in arg_value(argv, "--rates", "2000,8000").split(",") if x.strip()]
    load0 = os.getloadavg()[0]
    r = asyncio.run(main_async("--quick" in argv, rates))
    r["load_1min"] = [load0, os.getloadavg()[0]]
    met = lambda ok: "met" if ok else "NOT met"  # noqa: E731
    rows: list[tuple[str, Any, str]] = []
    for rate, f in r["rates"].items():
        target = TARGETS.get(int(rate))
        note = f"{f['cpu_s']:.2f} CPU s / {f['wall_s']:.2f} s at {f['arrival_chars_per_s']:,.0f} chars/s"
        if target is not None:
            note += f"; target <= {target:.0%}: {met(f['cpu_share'] <= target)}"
        rows.append((f"CPU share at {int(rate):,} chars/s", f"{f['cpu_share']:.1%}", note))
        rows.append((f"  final screen == one-chunk ({int(rate):,}/s)", "yes" if f["screen_identical"] else "NO",
                     f"{f['screen_updates']} screen updates, {f['deltas']} deltas"))
    rows.append((f"keystroke->screen p50 ms at {r['key_rate']:,}/s", r["key_p50_ms"], f"{r['keys']} keys"))
    rows.append((f"keystroke->screen p95 ms at {r['key_rate']:,}/s", r["key_p95_ms"],
                 f"target <= {KEY_TARGET_MS:.0f}: {met(r['key_p95_ms'] <= KEY_TARGET_MS)}"))
    rows.append((f"keystroke->screen max ms at {r['key_rate']:,}/s", r["key_max_ms"], ""))
    rows.append(("load average (1 min), start / end", f"{r['load_1min'][0]:.2f} / {r['load_1min'][1]:.2f}",
                 "2 cores shared: compare runs made under the same load"))
    print_table(f"tui_stream_cpu ({r['reply_chars']:,}-char Markdown reply, 120x40, headless)", rows)
    write_results("tui_stream_cpu", r)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
