"""Smoke test of the benchmarks in bench/: each runs at a tiny size (``--quick``) so they never rot.

Only that they finish, exit 0, print a table and write well-formed JSON is asserted: never a timing, and never a
benchmark's measured outcome (benchmarks never fail the test run). JSON goes to a temp dir
(``PI_TUI_BENCH_RESULTS``) so real figures in bench/results/ are not overwritten.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"

# script -> (results file written through bench/_common.py, keys it must hold); None: the script writes its own.
EXPECTED: dict[str, tuple[str, set[str]] | None] = {
    "stream_parse.py": ("stream_parse.json", set()),
    "agent_loop.py": ("agent_loop.json", {"direct_stream_simple", "agent_three_listeners", "agent_tool_loop"}),
    "session_io.py": None,
    "startup.py": ("startup.json", {"version_s", "version_imports", "first_paint_pitui_s",
                                    "first_paint_minimal_s", "first_paint_ratio"}),
    "idle_cpu.py": ("idle_cpu.json", {"pi_tui", "minimal"}),
    "tui_stream.py": ("tui_stream.json", {"a_pi_chars_per_s", "a_textual_chars_per_s", "a_ratio", "b_lag_p95_ms",
                                          "b_key_p95_ms", "b_keys", "c_screen_identical", "c_lines_equal_one_shot"}),
    "tui_stream_cpu.py": ("tui_stream_cpu.json", {"reply_chars", "rates", "key_p95_ms", "keys"}),
    "tui_long_session.py": ("tui_long_session.json", {"process_to_interactive_s", "page_p95_ms", "append_median_ms",
                                                      "rss_peak_mb", "markers_expected", "markers_missing_count",
                                                      "base_app_to_interactive_s", "ratio_page"}),
    "typing_burst.py": ("typing_burst.json", {"chars", "seconds", "chars_per_s", "cpu_s", "whole_and_in_order"}),
    "vs_pi.py": ("vs_pi.json", set()),
    "mcp_client.py": ("mcp_client.json", {"tti_no_servers_s", "tti_three_servers_s", "tti_ratio", "manager_start_s",
                            "all_connected_s", "call_mcp_ms", "call_builtin_read_ms", "call_overhead_ms"}),
    "file_index.py": ("file_index.json", {"files", "auto_first_index_s", "auto_query_p95_ms", "python_first_index_s",
                                          "python_query_p95_ms"}),
    "extensions.py": ("extensions.json", {"events_per_s_0_extensions", "events_per_s_5_sync_noop_extensions",
                                          "slowdown_percent_sync", "events_per_s_5_async_noop_extensions",
                                          "slowdown_percent_async", "startup_10_extensions_ms",
                                          "handler_cost_percent_sync", "handler_cost_percent_async"}),
    "resume_picker.py": ("resume_picker.json", {"sessions", "listing_ms", "preview_ms", "open_ms", "move_ms",
                                                "filter_ms", "baseline_move_ms", "move_ratio"}),
}


def _repo_results() -> dict[str, bytes]:
    """Every file under the repository's bench/results/ with its bytes."""
    root = BENCH / "results"
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_run_py_lists_every_benchmark() -> None:
    """bench/run.py runs every benchmark script, and every script it lists exists."""
    sys.path.insert(0, str(BENCH))
    try:
        import run
    finally:
        sys.path.remove(str(BENCH))
    assert set(run.BENCHMARKS) == set(EXPECTED)
    for name in run.BENCHMARKS:
        assert (BENCH / name).is_file(), name


@pytest.mark.slow
@pytest.mark.parametrize("script", list(EXPECTED))
def test_benchmark_runs_quick(script: str, tmp_path: Path) -> None:
    """``python bench/<script> --quick`` exits 0, prints figures and writes its JSON."""
    env = dict(os.environ)
    env["PI_TUI_BENCH_RESULTS"] = str(tmp_path)
    before = _repo_results()
    proc = subprocess.run([sys.executable, str(BENCH / script), "--quick"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=180, check=False)
    assert _repo_results() == before, f"{script} wrote into bench/results/ (no test writes into the repo)"
    assert proc.returncode == 0, f"{script} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    assert proc.stdout.strip(), f"{script} printed nothing"
    expected = EXPECTED[script]
    if expected is None:
        return
    name, keys = expected
    data = json.loads((tmp_path / name).read_text())
    if "quick" in data:
        assert data["quick"] is True
    missing = keys - set(data)
    assert not missing, f"{script}: JSON lacks {sorted(missing)}"
