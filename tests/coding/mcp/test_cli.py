"""``pi-tui mcp add|list|remove`` (pi 1.x docs/mcp.md "Quick setup")."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from pi_tui.cli import main as pi_main
from pi_tui.coding.mcp.cli import main
from tests.coding.mcp.conftest import FAULT_SERVER


def _run(args: list[str], agent: Path, cwd: Path, trusted: bool = False) -> tuple[int, str]:
    out = io.StringIO()
    code = main(args, cwd=str(cwd), agent_dir=agent, project_trusted=lambda _cwd: trusted, out=out)
    return code, out.getvalue()


def test_add_stdio_and_url_servers_then_remove(tmp_path: Path) -> None:
    agent, cwd = tmp_path / "agent", tmp_path / "proj"
    cwd.mkdir()
    assert _run(["add", "fs", "--env", "K=${TOKEN}", "--", "npx", "-y", "server-fs", "."], agent, cwd)[0] == 0
    assert _run(["add", "docs", "--url", "https://e.com/mcp", "--header", "Authorization=Bearer ${T}"], agent, cwd)[0] == 0
    data = json.loads((agent / "mcp.json").read_text())["mcpServers"]
    assert data["fs"] == {"command": "npx", "args": ["-y", "server-fs", "."], "env": {"K": "${TOKEN}"}}
    assert data["docs"] == {"url": "https://e.com/mcp", "headers": {"Authorization": "Bearer ${T}"}}
    assert _run(["add", "loc", "-l", "--", "tool"], agent, cwd)[0] == 0
    assert json.loads((cwd / ".pi-tui" / "mcp.json").read_text())["mcpServers"] == {"loc": {"command": "tool", "args": []}}
    code, out = _run(["remove", "fs"], agent, cwd)
    assert code == 0 and "Removed MCP server fs" in out
    assert _run(["remove", "fs"], agent, cwd)[0] == 1
    assert "fs" not in json.loads((agent / "mcp.json").read_text())["mcpServers"]


def test_add_does_not_replace_a_server_without_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """New-user run #41: ``mcp add time -- /bin/true`` silently replaced a working ``time`` server."""
    agent, cwd = tmp_path / "agent", tmp_path / "proj"
    cwd.mkdir()
    assert _run(["add", "time", "--env", "TOKEN=s3cr3t-value", "--", "mcp-server-time"], agent, cwd)[0] == 0
    code, _ = _run(["add", "time", "--", "/bin/true"], agent, cwd)
    err = capsys.readouterr().err
    assert code == 1 and "is there already" in err and "--force" in err and "s3cr3t-value" not in err
    assert json.loads((agent / "mcp.json").read_text())["mcpServers"]["time"]["command"] == "mcp-server-time"
    code, out = _run(["add", "time", "--force", "--", "/bin/true"], agent, cwd)
    assert code == 0 and "Updated MCP server time" in out
    assert json.loads((agent / "mcp.json").read_text())["mcpServers"]["time"]["command"] == "/bin/true"


@pytest.mark.parametrize(
    "args",
    [["add", "bad name", "--", "x"], ["add", "x"], ["add", "x", "--url", "http://h", "--", "cmd"],
     ["add", "x", "--header", "novalue", "--url", "http://h"], ["list", "--", "x"], [],
     ["add", "web", "--url", "not-a-url"], ["add", "web", "--url", "ftp://h/mcp"]],
)
def test_bad_arguments_exit_2(tmp_path: Path, args: list[str]) -> None:
    assert _run(args, tmp_path / "agent", tmp_path)[0] == 2
    assert not (tmp_path / "agent" / "mcp.json").exists()


def test_list_connects_and_reports_state_and_tool_count(tmp_path: Path) -> None:
    agent, cwd = tmp_path / "agent", tmp_path / "proj"
    cwd.mkdir()
    _run(["add", "fault", "--", sys.executable, str(FAULT_SERVER)], agent, cwd)
    _run(["add", "dead", "--", sys.executable, str(FAULT_SERVER), "--crash-at-start"], agent, cwd)
    code, out = _run(["list"], agent, cwd)
    lines = out.splitlines()
    assert code == 1  # an enabled server is not connected
    assert lines[0].split()[:4] == ["fault", "connected", "9", "tools"]
    assert lines[1].split()[:2] == ["dead", "failed"]
    assert "cannot start (missing FAULT_TOKEN)" in lines[2]  # the tail of its stderr
    _run(["remove", "dead"], agent, cwd)
    assert _run(["list"], agent, cwd)[0] == 0
    assert (agent / "mcp-logs" / "dead.log").exists()  # stderr went to the log, not the terminal


def test_list_reads_project_file_only_when_trusted(tmp_path: Path) -> None:
    agent, cwd = tmp_path / "agent", tmp_path / "proj"
    cwd.mkdir()
    _run(["add", "-l", "nope", "--", str(tmp_path / "missing-binary")], agent, cwd)
    code, out = _run(["list"], agent, cwd, trusted=False)
    assert code == 0 and "No MCP servers configured" in out
    code, out = _run(["list"], agent, cwd, trusted=True)
    assert code == 1 and "command not found" in out


def test_pi_tui_dispatches_the_mcp_subcommand(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("PI_TUI_DIR", str(tmp_path / "agent"))
    monkeypatch.chdir(tmp_path)
    assert pi_main(["mcp", "add", "t", "--", "echo"]) == 0
    assert "Added MCP server t" in capsys.readouterr().out
    assert json.loads((tmp_path / "agent" / "mcp.json").read_text())["mcpServers"]["t"]["command"] == "echo"


def test_list_uses_the_project_trust_decision(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pi_tui.coding.resources import trust

    agent, cwd = tmp_path / "agent", tmp_path / "proj"
    cwd.mkdir()
    monkeypatch.setenv("PI_TUI_DIR", str(agent))
    main(["add", "-l", "nope", "--", str(tmp_path / "missing-binary")], cwd=str(cwd), agent_dir=agent, out=io.StringIO())
    trust.reset_process_decisions()
    try:
        out = io.StringIO()
        assert main(["list"], cwd=str(cwd), agent_dir=agent, out=out) == 0  # not trusted: the file is not read
        assert "No MCP servers configured" in out.getvalue()
        trust.set_override(True)
        out = io.StringIO()
        assert main(["list"], cwd=str(cwd), agent_dir=agent, out=out) == 1
        assert "command not found" in out.getvalue()
    finally:
        trust.reset_process_decisions()
