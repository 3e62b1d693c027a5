"""MCP: start-up with three stdio servers configured, and the per-call overhead of an MCP tool.

``python bench/mcp_client.py [--quick] [--wait-quiet LOAD]`` prints and writes bench/results/mcp_client.json (not ``mcp.py``: that
name would shadow the SDK package):

- ``tti_*``: process start until the real ``pi-tui`` command line at 120x40 is interactive: its footer names the
  offline model, i.e. the session is attached and the MCP servers were started (bench/_first_paint.py ``--until``),
  with an empty agent dir and with three stdio servers in ``mcp.json`` (``mcp-server-time``,
  ``mcp-server-git`` and tests/fixtures/mcp/fault_server.py), runs interleaved, medians and their ratio. The
  servers connect in the background, so the ratio should stay near 1 (issue 13: "the servers must not delay it").
- ``manager_start_s``: how long ``McpManager.start()`` blocks (it only schedules tasks); ``all_connected_s``: until
  the three servers are connected (spawn + initialize + tools/list), in one process.
- ``call_*``: median wall time of one ``execute`` of an MCP tool (``echo`` of the fault server over stdio) and of
  the built-in ``read`` tool on a small file, N calls each, and the difference (the MCP round trip).
- ``loadavg_before``/``loadavg_after``: the 1-minute load average around the run (the machine is shared: figures
  taken above ~2 on its 2 cores are noisy). ``--wait-quiet LOAD`` first waits (up to 15 min) until it is below
  LOAD and records whether it got there (``quiet``).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from _common import median, print_table, write_results  # noqa: E402

INTERACTIVE = "offline-demo"  # the footer names the model once the session is attached (and MCP started)
FAULT_SERVER = ROOT / "tests" / "fixtures" / "mcp" / "fault_server.py"
BIN = Path(sys.executable).parent


def _servers(repo: Path) -> dict[str, Any]:
    return {
        "time": {"command": str(BIN / "mcp-server-time")},
        "git": {"command": str(BIN / "mcp-server-git"), "args": ["--repository", str(repo)]},
        "fault": {"command": sys.executable, "args": [str(FAULT_SERVER)]},
    }


def _repo() -> Path:
    repo = Path(tempfile.mkdtemp(prefix="pi-tui-bench-git-"))
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    return repo


def _first_paint(agent_dir: Path, cwd: Path) -> float:
    env = dict(os.environ, PI_TUI_DIR=str(agent_dir))
    env.pop("TEXTUAL", None)
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "_first_paint.py"), "cli", "--until", INTERACTIVE, "--limit", "60", "--"],
        env=env, cwd=cwd, capture_output=True, text=True, check=False, timeout=120,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"_first_paint failed: {proc.stderr[-1000:]}")
    data = json.loads(proc.stdout.strip().splitlines()[-1])
    return float(data["until"]) - started


async def _in_process(repo: Path, calls: int) -> dict[str, float]:
    from pi_tui.coding.mcp.config import load_mcp_config
    from pi_tui.coding.mcp.manager import McpManager
    from pi_tui.coding.tools.read import ReadTool

    agent_dir = Path(tempfile.mkdtemp(prefix="pi-tui-bench-mcp-"))
    (agent_dir / "mcp.json").write_text(json.dumps({"mcpServers": _servers(repo)}))
    config = load_mcp_config(str(repo), project_trusted=False, agent_dir=agent_dir)
    manager = McpManager(config, log_dir=agent_dir / "mcp-logs")
    t0 = time.perf_counter()
    manager.start()
    start_s = time.perf_counter() - t0
    await manager.wait_ready(120)
    connected_s = time.perf_counter() - t0
    states = {row["name"]: row["state"] for row in manager.status()}
    if set(states.values()) != {"connected"}:
        raise RuntimeError(f"servers not connected: {manager.status()}")
    echo = next(t for t in manager.tools() if t.server == "fault" and t.server_tool == "echo")
    sample = repo / "sample.txt"
    sample.write_text("one line\n" * 20)
    read = ReadTool(str(repo))
    mcp_times: list[float] = []
    read_times: list[float] = []
    for index in range(calls):
        t = time.perf_counter()
        await echo.execute(f"m{index}", {"text": "hello"})
        mcp_times.append(time.perf_counter() - t)
        t = time.perf_counter()
        await read.execute(f"r{index}", {"path": str(sample)})
        read_times.append(time.perf_counter() - t)
    await manager.close()
    return {
        "manager_start_s": start_s,
        "all_connected_s": connected_s,
        "call_mcp_ms": median(mcp_times) * 1000,
        "call_builtin_read_ms": median(read_times) * 1000,
    }


def _wait_quiet(limit: float, max_wait_s: float = 900.0) -> bool:
    """Wait until the 1-minute load average is below ``limit`` (at most ``max_wait_s``); True when it is."""
    deadline = time.monotonic() + max_wait_s
    while os.getloadavg()[0] >= limit:
        if time.monotonic() > deadline:
            return False
        time.sleep(5)
    return True


def main(argv: list[str]) -> int:
    """Run the measurements (``--quick``: fewer runs and calls) and print/write them."""
    quick = "--quick" in argv
    quiet: bool | None = None
    if "--wait-quiet" in argv:
        quiet = _wait_quiet(float(argv[argv.index("--wait-quiet") + 1]))
    load_before = os.getloadavg()[0]
    runs, calls = (1, 5) if quick else (5, 200)
    repo = _repo()
    figures = asyncio.run(_in_process(repo, calls))
    empty = Path(tempfile.mkdtemp(prefix="pi-tui-bench-empty-"))
    configured = Path(tempfile.mkdtemp(prefix="pi-tui-bench-3mcp-"))
    (configured / "mcp.json").write_text(json.dumps({"mcpServers": _servers(repo)}))
    without: list[float] = []
    with_servers: list[float] = []
    for _ in range(runs):
        without.append(_first_paint(empty, repo))
        with_servers.append(_first_paint(configured, repo))
    figures.update(
        tti_no_servers_s=median(without),
        tti_three_servers_s=median(with_servers),
        tti_ratio=median(with_servers) / median(without) if median(without) else 0.0,
        call_overhead_ms=figures["call_mcp_ms"] - figures["call_builtin_read_ms"],
        runs=runs,
        calls=calls,
        quick=quick,
        loadavg_before=load_before,
        loadavg_after=os.getloadavg()[0],
        quiet=quiet,
    )
    print_table("MCP (issue 13)", [
        ("tti_no_servers_s", figures["tti_no_servers_s"], f"start to interactive, median of {runs}"),
        ("tti_three_servers_s", figures["tti_three_servers_s"], "same, three stdio servers in mcp.json"),
        ("tti_ratio", figures["tti_ratio"], "target ~1: servers connect in the background"),
        ("manager_start_s", figures["manager_start_s"], "McpManager.start() blocking time"),
        ("all_connected_s", figures["all_connected_s"], "until time, git and fault servers are connected"),
        ("call_mcp_ms", figures["call_mcp_ms"], f"median of {calls} MCP echo calls (stdio)"),
        ("call_builtin_read_ms", figures["call_builtin_read_ms"], "median of the built-in read tool"),
        ("call_overhead_ms", figures["call_overhead_ms"], "MCP minus built-in"),
        ("loadavg_before", figures["loadavg_before"], "1-min load average at the start (2 cores)"),
        ("loadavg_after", figures["loadavg_after"], "and at the end"),
    ])
    write_results("mcp_client", figures)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
