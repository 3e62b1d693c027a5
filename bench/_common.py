"""Shared helpers for the benchmarks in bench/: result tables and JSON output.

Every benchmark prints a table of figures and writes ``bench/results/<name>.json``. Benchmarks never
fail the test run; tests only run them at a tiny size (``--quick``) so they never rot.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import time
from pathlib import Path
from typing import Any

# ``PI_TUI_BENCH_RESULTS`` redirects the JSON (the smoke test uses a temp dir so real figures are not overwritten).
RESULTS_DIR = Path(os.environ.get("PI_TUI_BENCH_RESULTS") or Path(__file__).resolve().parent / "results")


def percentile(values: list[float], pct: float) -> float:
    """The ``pct`` percentile (0–100) of ``values`` by nearest rank; 0.0 for an empty list."""
    if not values:
        return 0.0
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1))))
    return ordered[k]


def median(values: list[float]) -> float:
    """Median of ``values`` (0.0 when empty)."""
    return statistics.median(values) if values else 0.0


def print_table(title: str, rows: list[tuple[str, Any, str]]) -> None:
    """Print ``rows`` of (figure, value, target/comment) under ``title``."""
    print(f"\n## {title}")
    width = max((len(r[0]) for r in rows), default=10)
    for name, value, note in rows:
        shown = f"{value:,.3f}" if isinstance(value, float) else str(value)
        print(f"  {name:<{width}}  {shown:>14}  {note}")


def write_results(name: str, data: dict[str, Any]) -> Path:
    """Write ``data`` (plus machine info and a timestamp) to ``bench/results/<name>.json``."""
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    payload = {
        "benchmark": name,
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "python": platform.python_version(),
        "machine": platform.machine(),
        **data,
    }
    path = RESULTS_DIR / f"{name}.json"
    path.write_text(json.dumps(payload, indent=2) + "\n")
    return path


def arg_value(argv: list[str], name: str, default: str) -> str:
    """The value of option ``name`` in ``argv``, given as ``name=VALUE`` or ``name VALUE``; ``default`` if absent
    (``--rates 2000`` was read as no option at all and ran the default rates)."""
    for i, a in enumerate(argv):
        if a.startswith(name + "="):
            return a.split("=", 1)[1]
        if a == name and i + 1 < len(argv):
            return argv[i + 1]
    return default
