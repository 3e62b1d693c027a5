"""Shell execution for the ``bash`` tool and user ``!cmd`` (pi-reference §3.13 ``bash``, §3.11, §6).

:class:`LocalBashOperations` runs ``<shell> -c <command>`` with stdin from ``/dev/null``, stdout and
stderr merged into one pipe, in its own session and process group (``start_new_session=True``), and
never blocks the event loop (asyncio subprocess protocol; data is pushed to ``on_data`` as it arrives).

Background-children policy (case 21). Waiting for EOF on the output pipe is wrong: a background child
that inherited stdout (``sleep 30 &``, a daemon, a ``while`` loop that keeps printing) keeps the pipe
open forever. So the command is finished when the SHELL exits, and then:

1. output that is already buffered is still read for a short grace period (:data:`EXIT_GRACE_S`,
   100 ms as in pi) or until EOF, whichever comes first;
2. if the pipe is still open after the grace period, some process still holds it: the whole process
   group is SIGKILLed (this removes ``sleep 30 &`` and the ``tick`` writer loop) and reading stops (our
   end of the pipe is closed). If EOF arrived, nothing is killed, so a background job whose output is
   redirected (``nohup server > log 2>&1 &``) keeps running, as in pi;
3. a child that left the process group (``setsid cmd &``) cannot be reached by the group kill: it is
   left running (detached) but its output is no longer read; its next write gets SIGPIPE/EPIPE.
   To keep a server running on purpose, start it with ``setsid`` or ``nohup`` and redirect its output.

On abort or timeout the whole process group is SIGKILLed at once (pi's ``killProcessTree``) and the
same bounded drain applies, so the call returns within about the grace period.

:class:`OutputAccumulator` keeps a bounded decoded tail of the output (incremental UTF-8 decoding, so
a multi-byte character split across reads is decoded correctly), counts lines and bytes, and once the
output exceeds 2000 lines / 50 KB spills everything (raw bytes) to ``/tmp/pi-bash-<16 hex>.log``.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import errno
import os
import secrets
import shutil
import signal as signal_mod
import subprocess
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import IO, Any, Protocol

from pi_tui.ai.abort import AbortSignal
from pi_tui.coding.tools.truncate import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_LINES,
    TruncationResult,
    byte_len,
    truncate_tail,
)

EXIT_GRACE_S = 0.1
"""How long buffered output is still read after the shell exits (pi: ``EXIT_STDIO_GRACE_MS``)."""


class ShellAborted(Exception):
    """The command was aborted through its signal (the process group was killed)."""

    def __init__(self) -> None:
        super().__init__("aborted")


class ShellTimedOut(Exception):
    """The command ran longer than ``timeout`` seconds (the process group was killed)."""

    def __init__(self, timeout: float) -> None:
        super().__init__(f"timeout:{timeout}")
        self.timeout = timeout


@dataclass
class ShellExit:
    """Result of one run: ``exit_code`` (None if unknown), ``signal`` number if the shell itself was
    killed by a signal that we did not send."""

    exit_code: int | None
    signal: int | None = None


class BashOperations(Protocol):
    """Pluggable execution backend (pi's ``BashOperations``: local, SSH, sandbox, tests)."""

    async def exec(
        self,
        command: str,
        cwd: str,
        *,
        on_data: Callable[[bytes], None],
        signal: AbortSignal | None,
        timeout_s: float | None,
        env: Mapping[str, str] | None,
    ) -> ShellExit:
        """Run ``command`` (``timeout_s`` in seconds, None = no limit); push raw output bytes to
        ``on_data``; raise :class:`ShellAborted`,
        :class:`ShellTimedOut`, or an exception whose message is the error text."""
        ...


def get_shell_config(shell_path: str | None = None) -> tuple[str, list[str]]:
    """``(shell, args)``: ``shell_path`` (must exist: else ``Custom shell path not found: <p>``), else
    ``/bin/bash``, else ``bash`` on PATH, else ``sh``; args are ``["-c"]``."""
    if shell_path:
        if os.path.exists(shell_path):
            return shell_path, ["-c"]
        raise Exception(f"Custom shell path not found: {shell_path}")
    if os.path.exists("/bin/bash"):
        return "/bin/bash", ["-c"]
    found = shutil.which("bash")
    if found:
        return found, ["-c"]
    return "sh", ["-c"]


def get_shell_env(bin_dir: str | None = None) -> dict[str, str]:
    """The process environment, with ``bin_dir`` (if given) prepended to ``PATH`` once."""
    env = dict(os.environ)
    if bin_dir:
        entries = [p for p in env.get("PATH", "").split(os.pathsep) if p]
        if bin_dir not in entries:
            env["PATH"] = os.pathsep.join([bin_dir, *entries])
    return env


def kill_process_group(pid: int) -> None:
    """SIGKILL the process group ``pid`` (falls back to the single process); never raises."""
    try:
        os.killpg(pid, signal_mod.SIGKILL)
    except (ProcessLookupError, PermissionError):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal_mod.SIGKILL)


class _Protocol(asyncio.SubprocessProtocol):
    def __init__(self, on_data: Callable[[bytes], None], exited: asyncio.Future[None],
                 eof: asyncio.Future[None]) -> None:
        self._on_data = on_data
        self._exited = exited
        self._eof = eof
        self.closed = False

    def pipe_data_received(self, fd: int, data: bytes | str) -> None:
        if self.closed:
            return
        self._on_data(data if isinstance(data, bytes) else data.encode())

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        if fd == 1 and not self._eof.done():
            self._eof.set_result(None)

    def process_exited(self) -> None:
        if not self._exited.done():
            self._exited.set_result(None)


class LocalBashOperations:
    """Local execution; see the module docstring for the process-group and background-child policy."""

    def __init__(self, shell_path: str | None = None, grace_s: float = EXIT_GRACE_S) -> None:
        self.shell_path = shell_path
        self.grace_s = grace_s

    async def exec(
        self,
        command: str,
        cwd: str,
        *,
        on_data: Callable[[bytes], None],
        signal: AbortSignal | None,
        timeout_s: float | None,
        env: Mapping[str, str] | None,
    ) -> ShellExit:
        """Run ``command`` in ``cwd``; see :class:`BashOperations`.

        Errors: ``Custom shell path not found: <p>``, ``Working directory does not exist: <cwd>\\nCannot
        execute bash commands.``, ``spawn <shell> <CODE>`` when the shell cannot be started.
        """
        shell, args = get_shell_config(self.shell_path)
        if not os.path.exists(cwd):  # noqa: ASYNC240 - one stat
            raise Exception(f"Working directory does not exist: {cwd}\nCannot execute bash commands.")
        if signal is not None and signal.aborted:
            raise ShellAborted()  # never start a command that is already aborted
        loop = asyncio.get_running_loop()
        exited: asyncio.Future[None] = loop.create_future()
        eof: asyncio.Future[None] = loop.create_future()
        protocol = _Protocol(on_data, exited, eof)
        try:
            transport, _ = await loop.subprocess_exec(
                lambda: protocol,
                shell,
                *args,
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                cwd=cwd,
                env=dict(env) if env is not None else get_shell_env(),
                start_new_session=True,
            )
        except OSError as exc:
            raise Exception(f"spawn {shell} {errno.errorcode.get(exc.errno or 0, 'EIO')}") from None
        pid = transport.get_pid()
        state = {"aborted": False, "timed_out": False}

        def on_abort() -> None:
            state["aborted"] = True
            kill_process_group(pid)

        def on_timeout() -> None:
            state["timed_out"] = True
            kill_process_group(pid)

        remove_listener = signal.add_listener(on_abort) if signal is not None else None
        timer = loop.call_later(timeout_s, on_timeout) if timeout_s is not None and timeout_s > 0 else None
        try:
            await asyncio.shield(exited)
            try:
                await asyncio.wait_for(asyncio.shield(eof), self.grace_s)
            except TimeoutError:
                kill_process_group(pid)  # something still holds the pipe: policy step 2
        except asyncio.CancelledError:
            kill_process_group(pid)
            raise
        finally:
            if timer is not None:
                timer.cancel()
            if remove_listener is not None:
                remove_listener()
            protocol.closed = True
            transport.close()
        if state["aborted"]:
            raise ShellAborted()
        if state["timed_out"]:
            raise ShellTimedOut(timeout_s or 0)
        code = transport.get_returncode()
        if code is not None and code < 0:
            return ShellExit(None, -code)
        return ShellExit(code)


class OutputAccumulator:
    """Streaming output with bounded memory (see the module docstring).

    ``append(bytes)`` while running, ``finish()`` at the end, ``snapshot()`` at any time for the current
    tail-truncated text. Totals: ``total_lines`` (1 + number of ``\\n``), ``line_count`` (a final newline does not
    start a line), ``total_bytes`` (decoded UTF-8).
    """

    def __init__(self, max_lines: int = DEFAULT_MAX_LINES, max_bytes: int = DEFAULT_MAX_BYTES,
                 temp_file_prefix: str = "pi-output") -> None:
        self.max_lines = max_lines
        self.max_bytes = max_bytes
        self._rolling = max(max_bytes * 2, 1)
        self._prefix = temp_file_prefix
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._raw_chunks: list[bytes] = []
        self._tail = ""
        self._tail_bytes = 0
        self._tail_at_line_start = True
        self.total_raw_bytes = 0
        self.total_bytes = 0
        self.total_lines = 1
        self.last_line_bytes = 0
        self.finished = False
        self.temp_file_path: str | None = None
        self._temp_file: IO[bytes] | None = None

    def append(self, data: bytes) -> None:
        """Add raw output bytes."""
        if self.finished:
            raise RuntimeError("Cannot append to a finished output accumulator")
        self.total_raw_bytes += len(data)
        self._append_text(self._decoder.decode(data))
        if self._temp_file is not None or self._needs_temp_file():
            self._ensure_temp_file()
            assert self._temp_file is not None
            self._temp_file.write(data)
        elif data:
            self._raw_chunks.append(data)

    def finish(self) -> None:
        """Flush the decoder (an incomplete trailing character becomes U+FFFD)."""
        if self.finished:
            return
        self.finished = True
        self._append_text(self._decoder.decode(b"", final=True))
        if self._needs_temp_file():
            self._ensure_temp_file()

    def snapshot(self, persist_if_truncated: bool = False) -> tuple[str, TruncationResult, str | None]:
        """``(content, truncation, full_output_path)``: the tail within the limits, with the overall
        totals in ``truncation``."""
        tail = truncate_tail(self._snapshot_text(), self.max_lines, self.max_bytes)
        truncated = self.line_count > self.max_lines or self.total_bytes > self.max_bytes
        by = None
        if truncated:
            by = tail.truncated_by or ("bytes" if self.total_bytes > self.max_bytes else "lines")
        result = TruncationResult(
            tail.content, truncated, by, self.line_count, self.total_bytes, tail.output_lines,
            tail.output_bytes, tail.last_line_partial, False, self.max_lines, self.max_bytes,
        )
        if persist_if_truncated and truncated:
            self._ensure_temp_file()
        return tail.content, result, self.temp_file_path

    @property
    def line_count(self) -> int:
        """Lines of the output so far; a final newline ends the last line rather than starting one (issue 9)."""
        return self.total_lines - 1 if self.total_lines > 1 and self.last_line_bytes == 0 else self.total_lines

    def close_temp_file(self) -> None:
        """Flush and close the full-output file (if any)."""
        if self._temp_file is not None:
            self._temp_file.close()
            self._temp_file = None

    def _append_text(self, text: str) -> None:
        if not text:
            return
        n = byte_len(text)
        self.total_bytes += n
        self._tail += text
        self._tail_bytes += n
        if self._tail_bytes > self._rolling * 2:
            self._trim_tail()
        newlines = text.count("\n")
        if newlines == 0:
            self.last_line_bytes += n
        else:
            self.total_lines += newlines
            self.last_line_bytes = byte_len(text[text.rfind("\n") + 1 :])

    def _trim_tail(self) -> None:
        raw = self._tail.encode("utf-8", "surrogatepass")
        start = len(raw) - self._rolling
        while start < len(raw) and (raw[start] & 0xC0) == 0x80:
            start += 1
        if start > 0:
            self._tail_at_line_start = raw[start - 1] == 0x0A
        self._tail = raw[start:].decode("utf-8", "replace")
        self._tail_bytes = len(raw) - start

    def _snapshot_text(self) -> str:
        if self._tail_at_line_start:
            return self._tail
        nl = self._tail.find("\n")
        return self._tail if nl == -1 else self._tail[nl + 1 :]

    def _needs_temp_file(self) -> bool:
        return (
            self.total_raw_bytes > self.max_bytes
            or self.total_bytes > self.max_bytes
            or self.line_count > self.max_lines
        )

    def _ensure_temp_file(self) -> None:
        if self.temp_file_path is not None:
            return
        path = os.path.join(tempfile.gettempdir(), f"{self._prefix}-{secrets.token_hex(8)}.log")
        self.temp_file_path = path
        self._temp_file = open(path, "wb")  # noqa: SIM115 - closed by close_temp_file()
        for chunk in self._raw_chunks:
            self._temp_file.write(chunk)
        self._raw_chunks = []


def any_dict(**items: Any) -> dict[str, Any]:
    """``dict`` of the items whose value is not None (pi drops ``undefined`` keys from JSON)."""
    return {k: v for k, v in items.items() if v is not None}
