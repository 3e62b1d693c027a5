"""Start-up: ``pi-tui --version`` and app start to first paint, each beside a baseline measured in the same run.

``python bench/startup.py [--quick]`` prints and writes bench/results/startup.json:

- ``pi-tui --version`` wall time (the installed console script, median of N runs) beside ``python -c pass``
  (the interpreter floor), and whether the ``--version`` path imported Textual or any provider (it must not).
- process start to first paint at 120x40 (headless driver, every frame also serialised to terminal bytes) of
  the real ``pi-tui`` command line (``pi_tui.cli.main([])``: the app paints, then creates the session) and of a
  minimal Textual app (one ``Static`` + one ``Input``), runs interleaved, medians and their ratio.

Targets (issue 6): --version < 0.2 s without Textual/provider imports; first paint <= 1.3x the minimal app.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from _common import median, print_table, write_results  # noqa: E402

HERE = Path(__file__).resolve().parent


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PI_TUI_DIR"] = tempfile.mkdtemp(prefix="pi-tui-bench-")
    env.pop("TEXTUAL", None)
    return env


def _pi_tui_command() -> list[str]:
    script = Path(sys.executable).parent / "pi-tui"
    if script.exists():
        return [str(script)]
    found = shutil.which("pi-tui")
    return [found] if found else [sys.executable, "-m", "pi_tui.cli"]


def _wall(cmd: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"{cmd} failed: {proc.stderr.strip()[-500:]}")
    return elapsed


def version_imports(env: dict[str, str]) -> dict[str, Any]:
    """Run the --version path in a child and report which heavy modules it imported."""
    code = (
        "import sys, io, contextlib\n"
        "from pi_tui.cli import main\n"
        "buf = io.StringIO()\n"
        "with contextlib.redirect_stdout(buf):\n"
        "    rc = main(['--version'])\n"
        "mods = sorted(sys.modules)\n"
        "import json\n"
        "print(json.dumps({'rc': rc, 'version': buf.getvalue().strip(),"
        " 'textual': [m for m in mods if m == 'textual' or m.startswith('textual.')][:5],"
        " 'providers': [m for m in mods if m.startswith('pi_tui.ai.providers')],"
        " 'httpx': 'httpx' in mods, 'pydantic': 'pydantic' in mods, 'modules': len(mods)}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def first_paint(kind: str, env: dict[str, str], cwd: str) -> float:
    """Seconds from spawning ``_first_paint.py kind`` to its first screen update."""
    t0 = time.monotonic()
    proc = subprocess.run([sys.executable, str(HERE / "_first_paint.py"), kind], env=env, cwd=cwd,
                          capture_output=True, text=True, check=False, timeout=120)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"first paint of {kind} failed: {proc.stderr.strip()[-800:]}")
    data = json.loads(lines[-1])
    return float(data["first_paint"]) - t0


def main(argv: list[str]) -> int:
    """Run the start-up benchmark (``--quick``: fewer repetitions)."""
    quick = "--quick" in argv
    runs = 2 if quick else 10
    paint_runs = 1 if quick else 7
    env = _env()
    cwd = tempfile.mkdtemp(prefix="pi-tui-bench-cwd-")
    cmd = _pi_tui_command()
    _wall(cmd + ["--version"], env)  # warm the file cache
    version_times = [_wall(cmd + ["--version"], env) for _ in range(runs)]
    floor_times = [_wall([sys.executable, "-c", "pass"], env) for _ in range(runs)]
    imports = version_imports(env)
    first_paint("minimal", env, cwd)  # warm-up (bytecode, file cache)
    first_paint("cli", env, cwd)
    minimal: list[float] = []
    pitui: list[float] = []
    for _ in range(paint_runs):
        minimal.append(first_paint("minimal", env, cwd))
        pitui.append(first_paint("cli", env, cwd))
    v, floor = median(version_times), median(floor_times)
    m, p = median(minimal), median(pitui)
    ratio = p / m if m else 0.0
    clean = not imports["textual"] and not imports["providers"]
    print_table("startup (seconds, medians)", [
        ("pi-tui --version", v, f"target < 0.2 s: {'met' if v < 0.2 else 'NOT met'}"),
        ("python -c pass (floor)", floor, "same run"),
        ("--version imports Textual/providers", "no" if clean else "YES",
         f"target: no ({imports['modules']} modules loaded)"),
        ("first paint: pi-tui app", p, f"120x40 headless, {paint_runs} runs"),
        ("first paint: minimal Textual app", m, "Static + Input, same run"),
        ("first paint ratio pi-tui / minimal", ratio, f"target <= 1.3x: {'met' if ratio <= 1.3 else 'NOT met'}"),
    ])
    write_results("startup", {
        "quick": quick,
        "version_s": v, "version_runs_s": version_times, "python_floor_s": floor,
        "version_imports": imports, "version_target_met": v < 0.2 and clean,
        "first_paint_pitui_s": p, "first_paint_minimal_s": m, "first_paint_ratio": ratio,
        "first_paint_pitui_runs_s": pitui, "first_paint_minimal_runs_s": minimal,
        "first_paint_target_met": ratio <= 1.3,
    })
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
