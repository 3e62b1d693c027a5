"""User bash (``!cmd`` / ``!!cmd``): run a command for the user and record it (pi-reference §3.11).

The command runs in the session cwd through the bash tool's shell backend (own process group, killed on
abort). Output chunks go through :class:`~pi_tui.agent.terminal_text.TerminalOutputStream` and the final
output through :func:`~pi_tui.agent.terminal_text.sanitize_terminal_output` (the function the TUI
cleans tool output with: no escape sequence or control character reaches the screen, the session or the model;
a progress bar keeps its last frame; issue 10 class 7; pi strips ANSI from ``!cmd`` output for the model too). The result keeps the tail (2000 lines / 50 KB) and the full output goes to ``/tmp/pi-bash-<16hex>.log`` when larger.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pi_tui.agent.terminal_text import TerminalOutputStream, sanitize_terminal_output
from pi_tui.ai.abort import AbortSignal
from pi_tui.coding.tools.shell import (
    LocalBashOperations,
    OutputAccumulator,
    ShellAborted,
    ShellTimedOut,
    get_shell_env,
)


@dataclass
class BashResult:
    """``{output, exitCode (None if cancelled), cancelled, truncated, fullOutputPath?}``."""

    output: str
    exit_code: int | None
    cancelled: bool
    truncated: bool
    full_output_path: str | None = None

    def to_json_dict(self) -> dict[str, Any]:
        """pi's JSON form (``exitCode``/``fullOutputPath`` omitted when absent)."""
        data: dict[str, Any] = {"output": self.output, "cancelled": self.cancelled, "truncated": self.truncated}
        if self.exit_code is not None:
            data["exitCode"] = self.exit_code
        if self.full_output_path:
            data["fullOutputPath"] = self.full_output_path
        return data


async def run_user_bash(
    command: str,
    cwd: str,
    *,
    signal: AbortSignal | None = None,
    on_chunk: Callable[[str], None] | None = None,
    command_prefix: str | None = None,
    operations: Any = None,
) -> BashResult:
    """Run ``command`` (prefixed by ``command_prefix`` + newline when set) and return its :class:`BashResult`.

    Never raises for command failures: a spawn error becomes its message as output with exit code 1.
    """
    full_command = f"{command_prefix}\n{command}" if command_prefix else command
    accumulator = OutputAccumulator(temp_file_prefix="pi-bash")
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    stream = TerminalOutputStream()

    def on_data(data: bytes) -> None:
        accumulator.append(data)
        if on_chunk is not None:
            text = stream.feed(decoder.decode(data))
            if text:
                on_chunk(text)

    ops = operations or LocalBashOperations()
    cancelled = False
    exit_code: int | None = None
    try:
        result = await ops.exec(full_command, cwd, on_data=on_data, signal=signal, timeout_s=None, env=get_shell_env())
        exit_code = result.exit_code
    except (ShellAborted, ShellTimedOut):
        cancelled = True
    except Exception as exc:  # spawn failure: report, never crash the session
        accumulator.append(str(exc).encode("utf-8"))
        exit_code = 1
    accumulator.finish()
    if on_chunk is not None:
        rest = stream.feed(decoder.decode(b"", final=True)) + stream.finish()
        if rest:
            on_chunk(rest)
    content, truncation, full_path = accumulator.snapshot(persist_if_truncated=True)
    accumulator.close_temp_file()
    output = sanitize_terminal_output(content)
    return BashResult(
        output=output,
        exit_code=None if cancelled else exit_code,
        cancelled=cancelled,
        truncated=truncation.truncated,
        full_output_path=full_path if truncation.truncated else None,
    )
