"""User shell commands (``!cmd`` / ``!!cmd``): pi's ``executeBash`` (pi-reference §3.11).

Same runner as the ``bash`` tool (:mod:`pi_tui.coding.tools.shell`, same process-group policy), but
every chunk is decoded incrementally, ANSI-stripped, sanitised (control characters other than tab/LF
removed, U+FFF9..U+FFFB removed) and stripped of ``\\r`` before it reaches ``on_chunk`` and the result.
The result keeps the tail (2000 lines / 50 KB); once the output passes 50 KB everything (sanitised) is
also written to ``/tmp/pi-bash-<16 hex>.log``.
"""

from __future__ import annotations

import codecs
import os
import secrets
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO

from pi_tui.ai.abort import AbortSignal
from pi_tui.coding.tools.shell import (
    BashOperations,
    LocalBashOperations,
    ShellAborted,
    ShellTimedOut,
    get_shell_env,
    sanitize_binary_output,
    strip_ansi,
)
from pi_tui.coding.tools.truncate import DEFAULT_MAX_BYTES, truncate_tail


@dataclass
class BashResult:
    """``{output, exitCode (None if cancelled), cancelled, truncated, fullOutputPath?}``."""

    output: str
    exit_code: int | None
    cancelled: bool
    truncated: bool
    full_output_path: str | None = None


class _Spill:
    """The full-output file, opened on demand."""

    def __init__(self) -> None:
        self.path: str | None = None
        self._file: IO[str] | None = None

    def open(self, initial: str) -> None:
        if self.path is not None:
            return
        self.path = os.path.join(tempfile.gettempdir(), f"pi-bash-{secrets.token_hex(8)}.log")
        self._file = open(self.path, "w", encoding="utf-8")  # noqa: SIM115 - closed by close()
        self._file.write(initial)

    def write(self, text: str) -> None:
        if self._file is not None:
            self._file.write(text)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


async def execute_bash(
    command: str,
    cwd: str,
    *,
    on_chunk: Callable[[str], None] | None = None,
    signal: AbortSignal | None = None,
    command_prefix: str | None = None,
    operations: BashOperations | None = None,
    shell_path: str | None = None,
) -> BashResult:
    """Run a user command; never raises for a non-zero exit or an abort (``cancelled=True``).

    Raises the runner's errors (missing cwd, shell not found, spawn failure).
    """
    if command_prefix:
        command = f"{command_prefix}\n{command}"
    ops: BashOperations = operations or LocalBashOperations(shell_path)
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    chunks: list[str] = []
    kept_bytes = 0
    total_raw = 0
    spill = _Spill()

    def ensure_temp() -> None:
        spill.open("".join(chunks))

    def clean(text: str) -> str:
        return sanitize_binary_output(strip_ansi(text)).replace("\r", "")

    def on_data(data: bytes) -> None:
        nonlocal kept_bytes, total_raw
        total_raw += len(data)
        text = clean(decoder.decode(data))
        if total_raw > DEFAULT_MAX_BYTES:
            ensure_temp()
        spill.write(text)
        chunks.append(text)
        kept_bytes += len(text)
        while kept_bytes > DEFAULT_MAX_BYTES * 2 and len(chunks) > 1:
            kept_bytes -= len(chunks.pop(0))
        if on_chunk is not None and text:
            on_chunk(text)

    cancelled = False
    exit_code: int | None = None
    try:
        exit_info = await ops.exec(
            command, cwd, on_data=on_data, signal=signal, timeout_s=None, env=get_shell_env()
        )
        exit_code = exit_info.exit_code
    except (ShellAborted, ShellTimedOut):
        cancelled = True
    finally:
        tail = clean(decoder.decode(b"", final=True))
        if tail:
            chunks.append(tail)
    cancelled = cancelled or bool(signal is not None and signal.aborted)
    full = "".join(chunks)
    cut = truncate_tail(full)
    if cut.truncated:
        ensure_temp()
    spill.close()
    return BashResult(
        output=cut.content if cut.truncated else full,
        exit_code=None if cancelled else exit_code,
        cancelled=cancelled,
        truncated=cut.truncated,
        full_output_path=spill.path,
    )
