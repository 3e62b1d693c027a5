"""The offline demo model calls tools only when told to, and reports what really happened (issue 9).

``pi-tui -p 'What does `touch pwned_marker` do? Just explain, do not run it.'`` created the file: any
back-ticked text was run as a shell command. Now only an explicit imperative (``run `ls```, ``read notes.md``,
``list the files``) calls a tool, and the summary gives real line counts, the exit code and errors.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pi_tui.coding.offline_model import plan_tool

TOOLS = {"bash", "read", "ls", "edit", "write", "grep", "find"}


@pytest.mark.parametrize("text", [
    "What does `touch pwned_marker` do? Just explain, do not run it.",
    "Is `rm -rf /` dangerous?",
    "I ran `make` yesterday and it failed",
    "Explain `git status` to me",
    "Don't run `ls`",
    "what is in README.md?",
    "Why does notes.txt exist",
    "How do I list files in Python?",
])
def test_no_tool_without_an_explicit_imperative(text: str) -> None:
    assert plan_tool(text, TOOLS, []) is None


@pytest.mark.parametrize(("text", "expected"), [
    ("run `ls -la`", ("bash", {"command": "ls -la"})),
    ("Please run `echo hi`", ("bash", {"command": "echo hi"})),
    ("run git status", ("bash", {"command": "git status"})),
    ("execute `pwd`", ("bash", {"command": "pwd"})),
    ("read notes.md", ("read", {"path": "notes.md"})),
    ("show README.md", ("read", {"path": "README.md"})),
    ("list the files", ("ls", {"path": "."})),
    ("ls", ("ls", {"path": "."})),
])
def test_explicit_imperatives_call_the_tool(text: str, expected: tuple[str, dict[str, str]]) -> None:
    assert plan_tool(text, TOOLS, []) == expected


def _print_mode(cwd: Path, prompt: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.update(PI_TUI_DIR=str(cwd / ".home"), PI_TUI_OFFLINE_TPS="0")
    return subprocess.run([sys.executable, "-m", "pi_tui.cli", "-p", prompt], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)


def test_a_question_about_a_command_does_not_run_it(tmp_path: Path) -> None:
    out = _print_mode(tmp_path, "What does `touch pwned_marker` do? Just explain, do not run it.")
    assert out.returncode == 0, out.stderr
    assert not (tmp_path / "pwned_marker").exists()


def test_the_summary_reports_what_really_happened(tmp_path: Path) -> None:
    out = _print_mode(tmp_path, "run `touch made_it`")
    assert (tmp_path / "made_it").exists()
    assert "printed nothing" in out.stdout and "exit code 0" in out.stdout and "1 line" not in out.stdout
    out = _print_mode(tmp_path, "run `printf 'a\\nb\\n'`")
    assert "printed 2 lines" in out.stdout and "exit code 0" in out.stdout
    out = _print_mode(tmp_path, "run `echo oops >&2; exit 3`")
    assert "exit code 3" in out.stdout and "oops" in out.stdout
    out = _print_mode(tmp_path, "run `echo one`")
    assert "printed 1 line:" in out.stdout


def test_a_truncated_output_reports_the_real_total(tmp_path: Path) -> None:
    out = _print_mode(tmp_path, "run `seq 1 5000`")
    assert "printed 5000 lines (the last 2000 below" in out.stdout and "2003" not in out.stdout
