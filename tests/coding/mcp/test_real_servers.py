"""Real third-party MCP servers from the registries, started by the tests (issue 13 acceptance): ``mcp-server-time``
and ``mcp-server-git`` (PyPI) over stdio, ``@modelcontextprotocol/server-everything`` (npm) over stdio and
streamable HTTP. A scripted faux model calls their tools through a real AgentSession; the assertions are on the
tool results the model receives in its next request."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import FauxProvider, register_faux_provider
from pi_tui.coding.mcp.config import McpServerConfig
from tests.coding.mcp.conftest import FIXTURES, server_binary
from tests.coding.mcp.helpers import fault, manager, result_text, script_calls, stdio
from tests.coding.session_core.helpers import make_session

pytestmark = pytest.mark.anyio


@pytest.fixture
def faux() -> Iterator[FauxProvider]:
    provider = register_faux_provider(token_size={"min": 64, "max": 64})
    yield provider
    provider.unregister()


def _everything_script() -> Path:
    base = Path(os.environ.get("PI_TUI_MCP_NODE_DIR", FIXTURES))
    script = base / "node_modules" / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"
    if shutil.which("node") is None:
        pytest.skip("node is not installed: @modelcontextprotocol/server-everything cannot run")
    if not script.exists():
        pytest.skip(f"@modelcontextprotocol/server-everything is not installed (npm ci in {FIXTURES}; .ci/run does it)")
    return script


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository with one commit and a modified file."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git = ["git", "-C", str(repo), "-c", "user.email=t@e.st", "-c", "user.name=T"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "a.txt").write_text("hello\n")
    subprocess.run([*git, "add", "a.txt"], check=True)
    subprocess.run([*git, "commit", "-qm", "first commit from the test"], check=True)
    (repo / "a.txt").write_text("hello\nchanged\n")
    return repo


@pytest.fixture
def http_everything(tmp_path: Path) -> Iterator[tuple[Path, int]]:
    """``server-everything`` serving streamable HTTP on a free loopback port: ``(script, port)``."""
    script = _everything_script()
    port = _free_port()
    log_path = tmp_path / "http-server.log"
    with open(log_path, "w") as log:
        http = subprocess.Popen(["node", str(script), "streamableHttp"], env={**os.environ, "PORT": str(port)},
                                stdout=log, stderr=subprocess.STDOUT)
        try:
            for _ in range(400):
                if "listening" in log_path.read_text():
                    break
                time.sleep(0.05)
            yield script, port
        finally:
            http.terminate()
            http.wait(10)


async def test_time_and_git_servers_through_a_session(tmp_path: Path, repo: Path, faux: FauxProvider) -> None:
    m = manager(
        tmp_path,
        stdio("time", server_binary("mcp-server-time"), "--local-timezone", "UTC"),
        stdio("git", server_binary("mcp-server-git"), "--repository", str(repo)),
        fault("broken", "--crash-at-start"),
    )
    m.start()
    await m.wait_ready(60)
    try:
        assert {r["name"]: r["state"] for r in m.status()} == {"time": "connected", "git": "connected", "broken": "failed"}
        sees = script_calls(faux, [
            ("mcp__time__convert_time", {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"}),
            ("mcp__git__git_status", {"repo_path": str(repo)}),
            ("mcp__git__git_log", {"repo_path": str(repo), "max_count": 1}),
            ("mcp__time__get_current_time", {"timezone": "Not/AZone"}),
        ])
        session = make_session(tmp_path, faux.get_model(), tools=list(m.tools()))
        await session.prompt("use the tools")
        assert [r["toolName"] for r in sees.results] == [
            "mcp__time__convert_time", "mcp__git__git_status", "mcp__git__git_log", "mcp__time__get_current_time"
        ]
        converted, status, log, bad = sees.results
        assert not converted["isError"] and '"datetime"' in result_text(converted) and "+09:00" in result_text(converted)
        assert not status["isError"] and "a.txt" in result_text(status) and "modified" in result_text(status)
        assert not log["isError"] and "first commit from the test" in result_text(log)
        assert bad["isError"] and "Not/AZone" in result_text(bad)  # the server's error reaches the model as an error
        assert session.messages[-1].content[0].text == "done"
    finally:
        await m.close()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_everything_server_over_stdio_and_streamable_http(
    tmp_path: Path, faux: FauxProvider, http_everything: tuple[Path, int]
) -> None:
    script, port = http_everything
    m = manager(
        tmp_path,
        stdio("every", "node", str(script), "stdio"),
        McpServerConfig(name="web", transport="http", url=f"http://127.0.0.1:{port}/mcp"),
    )
    m.start()
    await m.wait_ready(60)
    try:
        assert {r["name"]: r["state"] for r in m.status()} == {"every": "connected", "web": "connected"}
        sees = script_calls(faux, [
            ("mcp__every__echo", {"message": "over stdio"}),
            ("mcp__web__get_sum", {"a": 2, "b": 40}),
            ("mcp__every__get_tiny_image", {}),
            ("mcp__web__get_resource_reference", {"resourceType": "Text", "resourceId": 3}),
        ])
        session = make_session(tmp_path, faux.get_model(), tools=list(m.tools()))
        await session.prompt("use the tools")
        echo, total, image, resource = sees.results
        assert result_text(echo) == "Echo: over stdio"
        assert "42" in result_text(total)
        assert [b["type"] for b in image["content"]] == ["text", "image", "text"]
        assert image["content"][1]["mimeType"] == "image/png" and len(image["content"][1]["data"]) > 100
        assert "Resource demo://resource/dynamic/text/3:" in result_text(resource)
        assert "simple-prompt" in [p.name for p in m.connections["web"].prompts]
    finally:
        await m.close()


def test_test_servers_are_installed_from_the_test_extras() -> None:
    """``pip install -e '.[test]'`` brings the two PyPI servers (pyproject.toml test extras)."""
    for name in ("mcp-server-time", "mcp-server-git"):
        assert (Path(sys.executable).parent / name).exists() or shutil.which(name), name
