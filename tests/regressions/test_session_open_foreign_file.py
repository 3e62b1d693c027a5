"""pi 0.80.3: ``--session`` / ``SessionManager.open()`` on a non-empty file that is not a session (a typo, a notes
file, a package.json) replaced it with a new session. It is refused with a clear error and left byte-identical;
a damaged session of ours (a torn or NUL-zeroed header) is still recovered."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pi_tui.coding.session.session_manager import SessionFileError, SessionManager

FOREIGN = [
    b"my notes\nline two\n",
    b'{"name": "my-app", "version": "1.0.0"}\n',
    b"\xef\xbb\xbf# Title\n\nSome markdown.\n",
    b"\x00\x00garbage after zeros",
]


@pytest.mark.parametrize("content", FOREIGN)
def test_foreign_file_is_refused_and_left_unchanged(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_bytes(content)
    with pytest.raises(SessionFileError, match="Not a session file"):
        SessionManager.open(path)
    assert path.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.jsonl"]  # no side files either


@pytest.mark.parametrize("content", [b"", b"\n\n", b"\x00" * 64, b'{"type":"sess', b'{"type"'])
def test_empty_or_torn_session_start_is_still_opened(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(content)
    manager = SessionManager.open(path)
    assert manager.get_entries() == []


def test_cli_print_mode_refuses_and_exits_non_zero(tmp_path: Path) -> None:
    notes = tmp_path / "notes.jsonl"
    notes.write_bytes(FOREIGN[0])
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env["PI_TUI_DIR"] = str(tmp_path / "home")
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])  # this checkout's pi_tui, whatever is installed
    result = subprocess.run(
        [sys.executable, "-m", "pi_tui.cli", "-p", "hi", "--session", str(notes)],
        capture_output=True, text=True, timeout=60, env=env, cwd=tmp_path,
    )
    assert result.returncode != 0
    assert "Not a session file" in result.stderr
    assert notes.read_bytes() == FOREIGN[0]
