"""User bash (``!cmd``): pi's executeBash (pi-reference §3.11)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.ai.abort import AbortController
from pi_tui.coding.tools.shell import sanitize_binary_output, strip_ansi
from pi_tui.coding.tools.user_bash import execute_bash

from .helpers import read_text

pytestmark = pytest.mark.anyio


async def test_output_is_cleaned_and_streamed(tmp_path: Path) -> None:
    chunks: list[str] = []
    result = await execute_bash(
        "printf '\\033[31mred\\033[0m\\r\\n\\001bell\\n'; exit 4", str(tmp_path), on_chunk=chunks.append
    )
    assert result.output == "red\nbell\n"
    assert "".join(chunks) == "red\nbell\n"
    assert result.exit_code == 4 and not result.cancelled and not result.truncated


async def test_abort_marks_cancelled(tmp_path: Path) -> None:
    controller = AbortController()

    def on_chunk(text: str) -> None:
        controller.abort()

    result = await execute_bash("echo go; sleep 30", str(tmp_path), on_chunk=on_chunk, signal=controller.signal)
    assert result.cancelled and result.exit_code is None and result.output == "go\n"


async def test_large_output_goes_to_file(tmp_path: Path) -> None:
    result = await execute_bash("seq 1 20000", str(tmp_path), command_prefix="set -e")
    assert result.truncated and result.full_output_path is not None
    assert result.output.endswith("20000\n")
    assert read_text(result.full_output_path) == "".join(f"{i}\n" for i in range(1, 20001))


def test_sanitisers() -> None:
    assert strip_ansi("\x1b[1;32mok\x1b[0m \x1b]0;title\x07x") == "ok x"
    assert sanitize_binary_output("a\x00b\tc\x1fd\ufff9e\r\n") == "ab\tcde\r\n"
