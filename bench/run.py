"""Run every benchmark in bench/ and print their tables: ``python bench/run.py [--quick]``.

Each benchmark is a script that prints a table and writes JSON to bench/results/. A benchmark that
fails is reported and the others still run; the exit code is non-zero if any failed. At the end, every figure an
issue sets a target for is printed again with its target and "met" / "NOT met" (bench/_targets.py).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

BENCHMARKS = [
    "stream_parse.py",
    "agent_loop.py",
    "session_io.py",
    "startup.py",
    "idle_cpu.py",
    "tui_stream.py",
    "tui_stream_cpu.py",
    "tui_long_session.py",
    "typing_burst.py",
    "mcp_client.py",
    "file_index.py",
    "extensions.py",
    "vs_pi.py",
    "resume_picker.py",
]


def main(argv: list[str]) -> int:
    """Run the benchmarks named in BENCHMARKS (or those given as arguments), forwarding ``--quick``."""
    here = Path(__file__).resolve().parent
    flags = [a for a in argv if a.startswith("--")]
    names = [a for a in argv if not a.startswith("--")] or BENCHMARKS
    failed: list[str] = []
    for name in names:
        script = here / name
        if not script.exists():
            print(f"\n## {name}: missing")
            failed.append(name)
            continue
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, str(script), *flags], check=False)
        print(f"  ({name} took {time.perf_counter() - t0:.1f} s, exit {proc.returncode})")
        if proc.returncode != 0:
            failed.append(name)
    sys.path.insert(0, str(here))
    from _common import RESULTS_DIR
    from _targets import summary

    print("\n".join(summary(RESULTS_DIR, {Path(n).stem for n in names})))
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
