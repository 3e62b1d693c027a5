"""pi-tui beside the real pi 0.73.1, in one run: a wrapper around the shared vs-pi tool (issue 15).

``python bench/vs_pi.py [--quick] [--reps N] [--rates 2000,8000] [--key-reps N]`` finds pi 0.73.1, runs the
vs-pi benchmark (both programs full screen in a private tmux server at 120x40 against one loopback server
streaming the same 40 KB Markdown reply; see its README.md), and prints the ratios pi / pi-tui, median over
the paired repetitions, of: CPU seconds from send to the last line shown (per rate), last chunk -> last line
shown, peak RSS (VmHWM), reopening the session with ``-c`` (wall and CPU), and the keystroke -> input box
latency while streaming. It writes bench/results/vs_pi.json (ratios and the raw runs).

Where things come from:
- the tool: ``$VS_PI_DIR``, else ``shared/tools/vs-pi`` next to the repository (``/work/shared/tools/vs-pi`` for
  ``/work/main`` and ``/work/wt/NAME``);
- pi: ``$PI_BIN``, else ``$PI_REF_DIR/node_modules/.bin/pi`` (what .ci/run installs), else an ``npm ci`` of
  tests/fixtures/piref's lock file into ``~/.cache/pi-tui-bench/piref`` (once);
- pi-tui: ``$PITUI_BIN``, else the ``pi-tui`` next to this Python.

Skipped, with the reason printed and exit code 0, when node, npm, tmux or the tool is missing, when pi cannot be
installed, and with ``--quick`` (the run takes ~9 minutes with the defaults; the smoke test only checks that
this script runs).
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from _common import print_table, write_results  # noqa: E402

PIREF = ROOT / "tests" / "fixtures" / "piref"
CACHE = Path.home() / ".cache" / "pi-tui-bench" / "piref"


def find_tool() -> Path | None:
    """The vs-pi tool directory (holding bench.py), or None."""
    env = os.environ.get("VS_PI_DIR")
    candidates = [Path(env)] if env else []
    candidates += [ROOT.parent / "shared" / "tools" / "vs-pi", ROOT.parent.parent / "shared" / "tools" / "vs-pi"]
    return next((c for c in candidates if (c / "bench.py").is_file()), None)


def find_pi() -> tuple[Path | None, str]:
    """``(path of the pi 0.73.1 binary, "")`` or ``(None, reason)``; may run ``npm ci`` once (network)."""
    if os.environ.get("PI_BIN"):
        return Path(os.environ["PI_BIN"]), ""
    for base in [os.environ.get("PI_REF_DIR"), str(CACHE)]:
        if base and (Path(base) / "node_modules" / ".bin" / "pi").exists():
            return Path(base) / "node_modules" / ".bin" / "pi", ""
    if not shutil.which("npm"):
        return None, "npm not found (pi 0.73.1 cannot be installed)"
    CACHE.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(PIREF / name, CACHE / name)
    proc = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=CACHE,
                          capture_output=True, text=True, check=False, timeout=900)
    pi = CACHE / "node_modules" / ".bin" / "pi"
    if proc.returncode != 0 or not pi.exists():
        return None, f"npm ci of pi 0.73.1 failed: {proc.stderr.strip()[-300:]}"
    return pi, ""


def _median(xs: list[float]) -> float | None:
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def ratios(data: dict[str, Any]) -> dict[str, Any]:
    """Ratios pi / pi-tui from the tool's results: per rate, the median over repetitions run back to back."""
    out: dict[str, Any] = {}
    for rate in sorted({r["rate"] for r in data.get("stream", [])}):
        pairs: dict[str, list[float]] = {k: [] for k in ("cpu", "last_chunk_to_shown", "peak_rss", "reload",
                                                         "reload_cpu")}
        cpu_share = []
        for tag in sorted({r["tag"] for r in data["stream"] if r["rate"] == rate}):
            a = [r for r in data["stream"] if r["tag"] == tag and r["prog"] == "pi"]
            b = [r for r in data["stream"] if r["tag"] == tag and r["prog"] == "pitui"]
            if b:
                cpu_share.append(b[0]["cpu_send_to_shown_s"] / b[0]["wall_send_to_shown_s"])
            if not (a and b):
                continue
            a0, b0 = a[0], b[0]
            pairs["cpu"].append(a0["cpu_send_to_shown_s"] / b0["cpu_send_to_shown_s"])
            pairs["last_chunk_to_shown"].append(a0["lastchunk_to_shown_s"] / b0["lastchunk_to_shown_s"])
            pairs["peak_rss"].append(a0["mem_at_shown"]["main_hwm_mb"] / b0["mem_at_shown"]["main_hwm_mb"])
            pairs["reload"].append(a0["reload_to_last_line_s"] / b0["reload_to_last_line_s"])
            pairs["reload_cpu"].append(a0["reload_cpu_to_last_line_s"] / b0["reload_cpu_to_last_line_s"])
        out[str(int(rate))] = {k: _median(v) for k, v in pairs.items()} | {"pitui_cpu_share": _median(cpu_share)}
    keys: dict[str, Any] = {}
    for rate in sorted({r["rate"] for r in data.get("keys", [])}):
        med = {p: _median([x for r in data["keys"] if r["prog"] == p and r["rate"] == rate
                           for x in r["key_latency_s"]]) for p in ("pi", "pitui")}
        keys[str(int(rate))] = {"pi_ms": None if med["pi"] is None else med["pi"] * 1000,
                                "pitui_ms": None if med["pitui"] is None else med["pitui"] * 1000,
                                "ratio": med["pi"] / med["pitui"] if med["pi"] and med["pitui"] else None}
    out["keys"] = keys
    return out


def _arg(argv: list[str], name: str, default: str) -> str:
    """``--name=VALUE`` or ``--name VALUE`` (the space form was ignored: ``--rates 2000`` ran both rates)."""
    for i, a in enumerate(argv):
        if a.startswith(f"--{name}="):
            return a.split("=", 1)[1]
        if a == f"--{name}" and i + 1 < len(argv):
            return argv[i + 1]
    return default


def main(argv: list[str]) -> int:
    """Find everything, run the tool, print the ratios (or why it was skipped)."""
    missing = [b for b in ("node", "npm", "tmux") if not shutil.which(b)]
    tool = find_tool()
    reason = ""
    if "--quick" in argv:
        reason = "--quick: the side-by-side run takes ~9 minutes"
    elif missing:
        reason = f"{', '.join(missing)} not found"
    elif tool is None:
        reason = "the vs-pi tool was not found (set VS_PI_DIR)"
    pi: Path | None = None
    if not reason:
        pi, reason = find_pi()
    if reason:
        print(f"\n## vs_pi: skipped ({reason})")
        write_results("vs_pi", {"quick": "--quick" in argv, "skipped": reason})
        return 0
    assert tool is not None and pi is not None
    pitui = os.environ.get("PITUI_BIN") or str(Path(sys.executable).parent / "pi-tui")
    out_file = Path(tempfile.mkdtemp(prefix="pi-tui-vs-pi-")) / "vs-pi.json"
    env = dict(os.environ, PI_BIN=str(pi), PITUI_BIN=pitui)
    cmd = [sys.executable, str(tool / "bench.py"), "--reps", _arg(argv, "reps", "1"),
           "--rates", _arg(argv, "rates", "2000,8000"), "--key-reps", _arg(argv, "key-reps", "1"),
           "--key-rates", _arg(argv, "rates", "2000,8000").split(",")[-1], "--out", str(out_file)]
    print("running:", " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, env=env, check=False)
    if proc.returncode != 0 or not out_file.exists():
        print(f"vs-pi tool failed (exit {proc.returncode})")
        return 1
    data = json.loads(out_file.read_text())
    r = ratios(data)
    rows: list[tuple[str, Any, str]] = []
    fmt = lambda x: "n/a" if x is None else f"{x:.2f}x"  # noqa: E731
    for rate, f in r.items():
        if rate == "keys":
            continue
        share = f["pitui_cpu_share"]
        rows.append((f"{rate}/s CPU pi / pi-tui", fmt(f["cpu"]),
                     "pi-tui share of a core " + ("n/a" if share is None else f"{share:.1%}")))
        rows.append((f"{rate}/s last chunk->shown pi / pi-tui", fmt(f["last_chunk_to_shown"]), ""))
        rows.append((f"{rate}/s peak RSS pi / pi-tui", fmt(f["peak_rss"]), ""))
        rows.append((f"{rate}/s reopen (-c) wall / CPU pi / pi-tui", fmt(f["reload"]), f"CPU {fmt(f['reload_cpu'])}"))
    for rate, k in r["keys"].items():
        rows.append((f"{rate}/s keystroke pi / pi-tui", fmt(k["ratio"]),
                     f"medians {k['pi_ms'] or 0:.0f} / {k['pitui_ms'] or 0:.0f} ms (tmux capture-pane polling)"))
    print_table(f"vs_pi (pi 0.73.1 vs pi-tui, {data.get('reply_chars', 0):,}-char reply, tmux 120x40)", rows)
    write_results("vs_pi", {"quick": False, "pi_bin": str(pi), "ratios": r, "runs": data})
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
