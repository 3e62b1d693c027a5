"""The figures the issues set targets for, read back from bench/results/*.json: ``python bench/run.py`` prints them
after the benchmarks' own tables, each with its target and "met" / "NOT met" (issue 15).

``MAIN_BEFORE_RATIO``: ``tui_stream.py`` (a)'s ratio pi-tui / Textual ``get_stream`` (both unthrottled, the 40 KB
reply, same run) measured on main before the streaming work of issue 15's second round (68e003f); the target is
twice that ratio, so the comparison holds on a loaded machine where absolute characters/s do not. (Before the
first round, 9bf03ea, the ratio was 2.976: 771.7 vs 259.3 chars/s.)
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

MAIN_BEFORE_RATIO = 15.305  # measured 2026-12-01 20:19 UTC on 68e003f: 11,920 vs 778.9 chars/s (load 5.0)


def _at_8000(d: dict[str, Any]) -> Any:
    """The keystroke p95 of a run that typed at 8,000 chars/s (a ``--rates 2000`` run typed at 2,000: not it)."""
    if d.get("key_rate") != 8000:
        raise KeyError("key_rate")
    return d["key_p95_ms"]

# (results file, figure, how to read it, target text, test); a missing figure is reported as not measured.
Target = tuple[str, str, Callable[[dict[str, Any]], Any], str, Callable[[Any], bool]]
TARGETS: list[Target] = [
    ("tui_stream_cpu", "streaming CPU share at 2,000 chars/s", lambda d: d["rates"]["2000"]["cpu_share"],
     "<= 10 % of a core", lambda v: v <= 0.10),
    ("tui_stream_cpu", "streaming CPU share at 8,000 chars/s", lambda d: d["rates"]["8000"]["cpu_share"],
     "<= 25 % of a core", lambda v: v <= 0.25),
    ("tui_stream_cpu", "keystroke -> screen p95 at 8,000 chars/s (ms)", _at_8000, "<= 20",
     lambda v: v <= 20),
    ("tui_stream_cpu", "streamed final screen == one-chunk screen",
     lambda d: all(r["screen_identical"] for r in d["rates"].values()), "identical", bool),
    ("tui_stream", "unthrottled 40 KB render, ratio to Textual get_stream", lambda d: d["a_ratio"],
     f">= 2x main's {MAIN_BEFORE_RATIO:.2f}", lambda v: v >= 2 * MAIN_BEFORE_RATIO),
    ("tui_stream", "final screen == one-chunk screen, lines == one-shot",
     lambda d: d["c_screen_identical"] and d["c_lines_equal_one_shot"], "identical", bool),
    ("tui_long_session", "long session: process start -> interactive (s)", lambda d: d["process_to_interactive_s"],
     "<= 1.0 (10,000 messages)", lambda v: v <= 1.0),
    ("tui_long_session", "long session: start -> interactive, CPU s (all threads)",
     lambda d: d["process_to_interactive_cpu_s"], "<= 1.0 (the wall target's load-free part)", lambda v: v <= 1.0),
    ("tui_long_session", "long session: page scroll p95 (ms)", lambda d: d["page_p95_ms"], "<= 16",
     lambda v: v <= 16),
    ("tui_long_session", "long session: peak RSS (MB)", lambda d: d["rss_peak_mb"], "<= 120", lambda v: v <= 120),
    ("tui_long_session", "long session: messages not reachable", lambda d: d["markers_missing_count"], "0",
     lambda v: v == 0),
    ("tui_long_session", "long session: resize re-wrap, visible part (ms)", lambda d: d["resize_max_ms"], "<= 100",
     lambda v: v <= 100),
    ("extensions", "5 no-op sync extensions: handler cost per event (%)", lambda d: d["handler_cost_percent_sync"],
     "< 5", lambda v: v < 5),
    ("extensions", "5 no-op async extensions: handler cost per event (%)", lambda d: d["handler_cost_percent_async"],
     "< 5", lambda v: v < 5),
    ("extensions", "start-up with 10 extensions (ms, median)", lambda d: d["startup_10_extensions_ms"], "< 50",
     lambda v: v < 50),
]


def _show(figure: str, value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if "share" in figure:
        return f"{value:.1%}"
    if isinstance(value, float):
        return f"{value:,.2f}"
    return str(value)


def summary(results_dir: Path, names: set[str] | None = None) -> list[str]:
    """Lines of the targets table for the results in ``results_dir`` (only benchmarks in ``names`` if given)."""
    lines = ["", "## targets (issues 6 and 15)"]
    for bench, figure, read, target, ok in TARGETS:
        if names is not None and bench not in names:
            continue
        path = results_dir / f"{bench}.json"
        try:
            data = json.loads(path.read_text())
            value = read(data)
        except (OSError, KeyError, ValueError, TypeError):
            lines.append(f"  {figure:<58} {'not measured':>14}  target {target}")
            continue
        quick = " (--quick run)" if data.get("quick") else ""
        verdict = "met" if ok(value) else "NOT met"
        lines.append(f"  {figure:<58} {_show(figure, value):>14}  target {target}: {verdict}{quick}")
    vs = results_dir / "vs_pi.json"
    if (names is None or "vs_pi" in names) and vs.exists():
        data = json.loads(vs.read_text())
        if data.get("skipped"):
            lines.append(f"  {'vs pi 0.73.1':<58} {'skipped':>14}  {data['skipped']}")
        else:
            for rate, f in data.get("ratios", {}).items():
                if rate != "keys" and f.get("cpu"):
                    lines.append(f"  {f'vs pi 0.73.1 at {rate}/s: CPU pi / pi-tui':<58} {f['cpu']:>13.2f}x")
    return lines
