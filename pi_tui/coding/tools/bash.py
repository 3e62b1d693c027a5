"""The ``bash`` tool (pi-reference §3.13 ``bash``, case 21).

Runs the command through :class:`~pi_tui.coding.tools.shell.LocalBashOperations` (or any
:class:`~pi_tui.coding.tools.shell.BashOperations`), in the tool's cwd, with an optional command prefix
(settings ``shellCommandPrefix``, joined with a newline). See :mod:`pi_tui.coding.tools.shell` for the
process-group and background-child policy.

Streaming: ``on_update`` first gets an empty result ``{content: []}``, then at most one update per
100 ms with the current tail ``{content: [text], details: {truncation?, fullOutputPath?}}``, and a last
one when output arrived since the previous update.

Result text: the tail (2000 lines / 50 KB) or ``(no output)``; when truncated, the full output is in
``/tmp/pi-bash-<hex>.log`` and a notice is appended. Errors (exception messages): output followed by
``\\n\\nCommand exited with code <n>``, ``Command timed out after <t> seconds``, ``Command aborted``;
``Working directory does not exist: <cwd>\\nCannot execute bash commands.``. A shell killed by a signal
nobody sent through the tool gives ``Command was killed by signal <NAME>`` (pi reports success there;
deliberate deviation). The result text is not ANSI-stripped.
"""

from __future__ import annotations

import asyncio
import logging
import math
import signal as signal_mod
import time
from typing import Any

from pydantic import Field

from pi_tui.agent.types import AgentTool, AgentToolResult, AgentToolUpdateCallback
from pi_tui.ai.abort import AbortSignal
from pi_tui.ai.types import TextContent
from pi_tui.coding.tools.common import emit_update, text_result
from pi_tui.coding.tools.shell import (
    BashOperations,
    LocalBashOperations,
    OutputAccumulator,
    ShellAborted,
    ShellTimedOut,
    get_shell_env,
)
from pi_tui.coding.tools.truncate import DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, format_size

log = logging.getLogger(__name__)

BASH_DESCRIPTION = (
    "Execute a bash command in the current working directory. Returns stdout and stderr. Output is "
    f"truncated to last {DEFAULT_MAX_LINES} lines or {DEFAULT_MAX_BYTES // 1024}KB (whichever is hit "
    "first). If truncated, full output is saved to a temp file. Optionally provide a timeout in seconds."
)

BASH_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "required": ["command"],
    "properties": {
        "command": {"type": "string", "description": "Bash command to execute"},
        "timeout": {"type": "number", "description": "Timeout in seconds (optional, no default timeout)"},
    },
}

UPDATE_THROTTLE_S = 0.1


MAX_TIMEOUT_S = 2_147_483  # the largest timer pi's runtime can arm (2^31 - 1 ms), in whole seconds


def bash_timeout(raw: Any) -> float | None:
    """The ``timeout`` argument in seconds, or None for no timeout.

    Raises ``Exception`` with a clear text for a value that is not a positive number of seconds or is larger
    than :data:`MAX_TIMEOUT_S` (pi 0.80.4: such values were clamped into an immediate timeout; pi-tui 0.1
    silently ran them with no timeout at all)."""
    if raw is None:
        return None
    try:
        timeout = float(raw)
    except (TypeError, ValueError):
        raise Exception(f"Invalid timeout: {raw!r} is not a number of seconds") from None
    if not math.isfinite(timeout) or timeout <= 0:
        raise Exception(f"Invalid timeout: {_format_timeout(timeout)} (must be a positive number of seconds)")
    if timeout > MAX_TIMEOUT_S:
        raise Exception(f"Invalid timeout: {_format_timeout(timeout)} seconds is more than the maximum of {MAX_TIMEOUT_S}")
    return timeout


def _format_timeout(timeout: float) -> str:
    return str(int(timeout)) if float(timeout).is_integer() else str(timeout)


def _with_status(text: str, status: str) -> str:
    return f"{text}\n\n{status}" if text else status


class BashTool(AgentTool):
    """``bash(command, timeout?)``; see the module docstring."""

    cwd: str = Field(default=".", exclude=True)
    operations: Any = Field(default=None, exclude=True)
    command_prefix: str | None = Field(default=None, exclude=True)
    bin_dir: str | None = Field(default=None, exclude=True)

    def __init__(
        self,
        cwd: str,
        *,
        shell_path: str | None = None,
        command_prefix: str | None = None,
        operations: BashOperations | None = None,
        bin_dir: str | None = None,
        **data: Any,
    ) -> None:
        super().__init__(
            name="bash",
            label="bash",
            description=BASH_DESCRIPTION,
            parameters=BASH_PARAMETERS,
            cwd=cwd,
            operations=operations or LocalBashOperations(shell_path),
            command_prefix=command_prefix,
            bin_dir=bin_dir,
            **data,
        )

    async def execute(
        self,
        tool_call_id: str,
        params: Any,
        signal: AbortSignal | None = None,
        on_update: AgentToolUpdateCallback | None = None,
    ) -> AgentToolResult:
        """Run the command; see the module docstring for streaming, results and errors."""
        data = params.model_dump(by_alias=True) if hasattr(params, "model_dump") else params
        command = str(data["command"])
        timeout = bash_timeout(data.get("timeout"))
        if self.command_prefix:
            command = f"{self.command_prefix}\n{command}"
        output = OutputAccumulator(temp_file_prefix="pi-bash")
        streamer = _UpdateStreamer(output, on_update)
        await streamer.start()
        ops: BashOperations = self.operations
        try:
            exit_info = await ops.exec(
                command,
                self.cwd,
                on_data=streamer.on_data,
                signal=signal,
                timeout_s=timeout,
                env=get_shell_env(self.bin_dir),
            )
        except (ShellAborted, ShellTimedOut) as exc:
            text, _ = await streamer.finish(output, empty_text="")
            if isinstance(exc, ShellAborted):
                raise Exception(_with_status(text, "Command aborted")) from None
            raise Exception(
                _with_status(text, f"Command timed out after {_format_timeout(exc.timeout)} seconds")
            ) from None
        except BaseException:
            await streamer.finish(output, empty_text="")
            raise
        text, details = await streamer.finish(output)
        if exit_info.signal is not None:
            name = signal_mod.Signals(exit_info.signal).name if exit_info.signal in _SIGNALS else str(
                exit_info.signal
            )
            raise Exception(_with_status(text, f"Command was killed by signal {name}"))
        if exit_info.exit_code not in (0, None):
            raise Exception(_with_status(text, f"Command exited with code {exit_info.exit_code}"))
        return text_result(text, details)


_SIGNALS = {s.value for s in signal_mod.Signals}


class _UpdateStreamer:
    """Feeds output into the accumulator and sends throttled partial results (100 ms)."""

    def __init__(self, output: OutputAccumulator, on_update: AgentToolUpdateCallback | None) -> None:
        self.output = output
        self.on_update = on_update
        self.dirty = False
        self.last_emit = 0.0
        self.wake = asyncio.Event()
        self.stopping = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        if self.on_update is None:
            return
        await self._send(AgentToolResult(content=[], details=None))
        self.task = asyncio.create_task(self._run())

    def on_data(self, data: bytes) -> None:
        self.output.append(data)
        if self.on_update is not None:
            self.dirty = True
            self.wake.set()

    async def _run(self) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            if self.stopping.is_set():
                return
            delay = UPDATE_THROTTLE_S - (time.monotonic() - self.last_emit)
            if delay > 0:
                try:
                    await asyncio.wait_for(self.stopping.wait(), delay)
                    return
                except TimeoutError:
                    pass
            await self._emit()

    async def _emit(self) -> None:
        if not self.dirty:
            return
        self.dirty = False
        self.last_emit = time.monotonic()
        content, truncation, path = self.output.snapshot(persist_if_truncated=True)
        details: dict[str, Any] = {}
        if truncation.truncated:
            details["truncation"] = truncation.to_dict()
        if path is not None:
            details["fullOutputPath"] = path
        await self._send(AgentToolResult(content=[TextContent(text=content)], details=details))

    async def _send(self, result: AgentToolResult) -> None:
        try:
            await emit_update(self.on_update, result)
        except Exception:  # a broken listener must not break the command
            log.exception("bash on_update failed")

    async def finish(self, output: OutputAccumulator, empty_text: str = "(no output)") -> tuple[str, Any]:
        """Stop streaming, send the last update, and format the final ``(text, details)``."""
        output.finish()
        if self.task is not None:
            self.stopping.set()
            self.wake.set()
            await self.task
            self.task = None
        await self._emit()
        content, truncation, path = output.snapshot(persist_if_truncated=True)
        output.close_temp_file()
        text = content or empty_text
        if not truncation.truncated:
            return text, None
        details = {"truncation": truncation.to_dict(), "fullOutputPath": path}
        start = truncation.total_lines - truncation.output_lines + 1
        end = truncation.total_lines
        if truncation.last_line_partial:
            text += (
                f"\n\n[Showing last {format_size(truncation.output_bytes)} of line {end} (line is "
                f"{format_size(output.last_line_bytes)}). Full output: {path}]"
            )
        elif truncation.truncated_by == "lines":
            text += f"\n\n[Showing lines {start}-{end} of {truncation.total_lines}. Full output: {path}]"
        else:
            text += (
                f"\n\n[Showing lines {start}-{end} of {truncation.total_lines} "
                f"({format_size(DEFAULT_MAX_BYTES)} limit). Full output: {path}]"
            )
        return text, details
