"""Shell runner pieces: output accumulator, sanitisers, shell selection (pi-reference §3.11, §3.13)."""

from __future__ import annotations

import pytest

from pi_tui.agent.terminal_text import sanitize_terminal_output
from pi_tui.coding.tools.shell import (
    OutputAccumulator,
    get_shell_config,
    get_shell_env,
)

from .helpers import take_log


def test_sanitisers() -> None:
    assert sanitize_terminal_output("\x1b[1;32mok\x1b[0m \x1b]0;title\x07x") == "ok x"
    assert sanitize_terminal_output("a\x00b\tc\x1fd\ufff9e\r\n") == "ab\tcde\n"


def test_accumulator_small_output_stays_in_memory() -> None:
    acc = OutputAccumulator()
    acc.append(b"hello\n")
    acc.finish()
    content, truncation, path = acc.snapshot(persist_if_truncated=True)
    assert content == "hello\n" and not truncation.truncated and path is None
    assert acc.total_lines == 2 and acc.total_bytes == 6


def test_accumulator_spills_raw_bytes_and_keeps_bounded_tail() -> None:
    acc = OutputAccumulator(max_lines=10, max_bytes=100)
    for i in range(1000):
        acc.append(f"row {i}\n".encode())
    acc.finish()
    content, truncation, path = acc.snapshot(persist_if_truncated=True)
    acc.close_temp_file()
    assert content.split("\n")[-2] == "row 999" and truncation.output_lines == 10
    assert truncation.total_lines == 1000 and truncation.truncated_by == "lines"  # 1,000 rows (DIFFERENCES D18)
    assert path is not None and take_log(path) == "".join(f"row {i}\n" for i in range(1000))
    assert len(acc._tail.encode()) <= 4 * 100 + 10  # bounded memory


def test_accumulator_incomplete_trailing_character() -> None:
    acc = OutputAccumulator()
    acc.append(b"ok \xe2\x82")
    acc.finish()
    assert acc.snapshot()[0] == "ok \ufffd"


def test_shell_config_and_env(monkeypatch: pytest.MonkeyPatch) -> None:
    assert get_shell_config() == ("/bin/bash", ["-c"])
    with pytest.raises(Exception, match="^Custom shell path not found: /nope$"):
        get_shell_config("/nope")
    env = get_shell_env("/opt/pi-bin")
    assert env["PATH"].split(":")[0] == "/opt/pi-bin"
    monkeypatch.setenv("PATH", "/usr/bin:/opt/pi-bin")
    assert get_shell_env("/opt/pi-bin")["PATH"] == "/usr/bin:/opt/pi-bin"  # already there: unchanged
