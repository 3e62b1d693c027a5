"""``pi-tui -p`` / ``--mode json`` / ``--version`` as subprocesses (pi-reference §3.17–§3.18)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from pi_tui.cli import parse_args

from .helpers import CLI, clean_env, write_models_json
from .helpers import load_mock_server as _load

MockLlmServer = _load()


def test_print_hello_offline_without_key_or_network(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    run = subprocess.run([*CLI, "-p", "hello"], cwd=tmp_path / "project", env=env, stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "offline demo model" in run.stdout
    assert "ANTHROPIC_API_KEY" in run.stdout and "auth.json" in run.stdout and "models.json" in run.stdout
    sessions = list((tmp_path / "agent" / "sessions").glob("*/*.jsonl"))
    assert len(sessions) == 1


def test_version_is_light(tmp_path: Path) -> None:
    code = ("import sys; from pi_tui.cli import main; main(['--version']); "
            "print(sorted(m for m in sys.modules if m.startswith(('textual', 'pi_tui.ai.providers', 'httpx'))))")
    run = subprocess.run([sys.executable, "-c", code], env=clean_env(tmp_path), capture_output=True, text=True, timeout=30)
    from pi_tui import __version__

    assert run.stdout.splitlines() == [__version__, "[]"]


def test_json_mode_header_then_events(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    run = subprocess.run([*CLI, "--mode", "json", "-p", "list the files"], cwd=tmp_path / "project", env=env,
                         stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert lines[0]["type"] == "session" and lines[0]["version"] == 3
    types = [line["type"] for line in lines[1:]]
    assert types[0] == "agent_start" and types[-1] == "agent_end"
    assert "tool_execution_start" in types  # the offline model really runs a tool on the project dir


def test_print_mode_error_exit_code(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    script = [{"type": "http_error", "status": 400, "body": {"error": {"message": "bad request here"}}}]
    with MockLlmServer(script) as server:
        write_models_json(tmp_path, server.port)
        run = subprocess.run([*CLI, "--provider", "mock", "--model", "mock-model", "-p", "hi"],
                             cwd=tmp_path / "project", env=env, stdin=subprocess.DEVNULL, capture_output=True,
                             text=True, timeout=60)
    assert run.returncode == 1
    assert "400" in run.stderr and run.stdout == ""


def test_unknown_model_is_a_clear_error(tmp_path: Path) -> None:
    run = subprocess.run([*CLI, "--provider", "nope", "--model", "x", "-p", "hi"], cwd=tmp_path,
                         env=clean_env(tmp_path), stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and 'Unknown provider "nope"' in run.stderr


def test_parse_args_flags() -> None:
    args = parse_args(["--provider", "anthropic", "--model", "sonnet:high", "-c", "--tools", "read,bash",
                       "--append-system-prompt", "A", "--append-system-prompt", "B", "--no-session", "@f.txt", "go"])
    assert (args.provider, args.model, args.thinking) == ("anthropic", "sonnet", "high")
    assert args.continue_recent and args.no_session and args.tools == ["read", "bash"]
    assert args.file_args == ["f.txt"] and args.messages == ["go"]
    options = args.session_options("/w")
    assert options["append_system_prompt"] == "A\n\nB" and options["tools"] == ["read", "bash"]
    bad = parse_args(["--thinking", "huge"])
    assert bad.thinking is None and "Invalid thinking level" in bad.warnings[0]
