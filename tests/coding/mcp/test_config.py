"""mcp.json loading, merging, expansion and writing (pi 1.x docs/mcp.md "Configure servers", "Configuration rules")."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from pi_tui.ai.secret_redaction import redact_text
from pi_tui.coding.mcp.config import (
    add_server_entry,
    expand_vars,
    load_mcp_config,
    project_mcp_path,
    remove_server_entry,
    user_mcp_path,
)


def _write(path: Path, servers: dict[str, object]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")


@pytest.fixture
def dirs(tmp_path: Path) -> tuple[Path, Path]:
    agent, project = tmp_path / "agent", tmp_path / "project"
    agent.mkdir()
    project.mkdir()
    return agent, project


def test_stdio_and_http_entries_load_with_expansion(dirs: tuple[Path, Path]) -> None:
    agent, project = dirs
    _write(user_mcp_path(agent), {
        "fs": {"command": "~/bin/fs", "args": ["~/data", 3], "env": {"KEY": "${MY_KEY}"}, "cwd": "sub"},
        "docs": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}, "timeout": 5},
    })
    env = {"MY_KEY": "k-value", "TOKEN": "tok9secretvalue123456"}
    load = load_mcp_config(str(project), project_trusted=False, agent_dir=agent, env=env)
    assert load.errors == []
    fs, docs = load.servers["fs"], load.servers["docs"]
    assert fs.transport == "stdio" and fs.command == os.path.expanduser("~/bin/fs")
    assert fs.args == (os.path.expanduser("~/data"), "3")
    assert fs.env == {"KEY": "k-value"} and fs.cwd == str(project / "sub")
    assert docs.transport == "http" and docs.headers == {"Authorization": "Bearer tok9secretvalue123456"}
    assert docs.timeout == 5.0 and fs.timeout == 60.0
    # the expanded token is a known secret: it never reaches session files, logs or exports
    assert "tok9secretvalue123456" not in redact_text("header was tok9secretvalue123456")


def test_project_file_only_when_trusted_and_overrides_user_entry(dirs: tuple[Path, Path]) -> None:
    agent, project = dirs
    _write(user_mcp_path(agent), {"tools": {"command": "user-tools"}, "other": {"command": "other"}})
    _write(project_mcp_path(project), {"tools": {"command": "project-tools"}, "extra": {"url": "http://127.0.0.1:1/mcp"}})
    untrusted = load_mcp_config(str(project), project_trusted=False, agent_dir=agent, env={})
    assert sorted(untrusted.servers) == ["other", "tools"] and untrusted.servers["tools"].command == "user-tools"
    trusted = load_mcp_config(str(project), project_trusted=True, agent_dir=agent, env={})
    assert trusted.servers["tools"].command == "project-tools" and trusted.servers["tools"].source == "project"
    assert sorted(trusted.servers) == ["extra", "other", "tools"]


def test_project_override_only_changes_enabled(dirs: tuple[Path, Path]) -> None:
    agent, project = dirs
    _write(user_mcp_path(agent), {"internal-tools": {"command": "it", "env": {"A": "1"}}})
    _write(project_mcp_path(project), {"internal_tools": {"enabled": False}})
    load = load_mcp_config(str(project), project_trusted=True, agent_dir=agent, env={})
    server = load.servers["internal-tools"]
    assert server.enabled is False and server.command == "it" and server.env == {"A": "1"}


def test_invalid_entries_are_reported_and_skipped(dirs: tuple[Path, Path]) -> None:
    agent, project = dirs
    _write(user_mcp_path(agent), {
        "ok": {"command": "fine"},
        "bad name": {"command": "x"},
        "sse": {"type": "sse", "url": "http://h/sse"},
        "nothing": {"args": []},
        "both": {"command": "x", "url": "http://h"},
        "badargs": {"command": "x", "args": "not-a-list"},
        "dup-a": {"command": "a"},
        "dup_a": {"command": "b"},
        "badtimeout": {"command": "x", "timeout": -1},
        "missing": {"command": "x", "env": {"K": "${NOT_SET_ANYWHERE}"}},
    })
    load = load_mcp_config(str(project), project_trusted=False, agent_dir=agent, env={})
    assert sorted(load.servers) == ["dup-a", "missing", "ok"]
    text = "\n".join(load.errors)
    for fragment in ("bad name: server names", "sse: the SSE transport", "nothing: needs a command",
                     "both: give either", "badargs: args must", "dup_a: same server", "badtimeout: timeout",
                     "uses ${NOT_SET_ANYWHERE}, which is not set"):
        assert fragment in text


def test_unreadable_file_is_an_error_not_a_crash(dirs: tuple[Path, Path]) -> None:
    agent, project = dirs
    user_mcp_path(agent).write_text("{not json", encoding="utf-8")
    load = load_mcp_config(str(project), project_trusted=False, agent_dir=agent, env={})
    assert load.servers == {} and "invalid JSON" in load.errors[0]


def test_expand_vars_reports_missing() -> None:
    missing: list[str] = []
    assert expand_vars("a${X}b${Y}", {"X": "1"}, missing) == "a1b"
    assert missing == ["Y"]


def test_add_and_remove_keep_other_content(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text('{"other": 1, "mcpServers": {"keep": {"command": "k"}}}', encoding="utf-8")
    assert add_server_entry(path, "new", {"url": "http://x"}) is False
    assert add_server_entry(path, "new", {"url": "http://y"}) is True
    data = json.loads(path.read_text())
    assert data["other"] == 1 and data["mcpServers"] == {"keep": {"command": "k"}, "new": {"url": "http://y"}}
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert remove_server_entry(path, "new") is True and remove_server_entry(path, "new") is False
    assert json.loads(path.read_text())["mcpServers"] == {"keep": {"command": "k"}}


def test_broken_file_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text("{broken", encoding="utf-8")
    with pytest.raises(ValueError):
        add_server_entry(path, "x", {"command": "x"})
    assert path.read_text() == "{broken"
