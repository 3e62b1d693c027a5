"""The ``bash`` tool through the ACP client's terminals (``terminal/create``, ``terminal/output``,
``terminal/wait_for_exit``, ``terminal/kill``, ``terminal/release``; ACP "Terminals"), for clients that offer
``clientCapabilities.terminal`` in ``initialize`` (issue 14). It implements
:class:`~pi_tui.coding.tools.shell.BashOperations`, so the tool's output limits, spill file, error texts and
streaming stay those of the local run.

One call: ``terminal/create`` runs ``<shell> -c <command>`` (the shell of :func:`get_shell_config`) in the
tool's cwd with the variables that differ from pi-tui's own environment (``PATH`` with the tool's bin
directory; the whole environment is not sent); the output is polled every :data:`POLL_S` s and the new part
pushed to ``on_data`` while ``terminal/wait_for_exit`` waits. The abort signal and the timeout send
``terminal/kill`` and raise :class:`ShellAborted` / :class:`ShellTimedOut` with the output so far; the
terminal is always released (``terminal/release``), also when the client fails mid-call. ``on_terminal(id)``
is told each new terminal, so the session embeds it in the bash tool call (``UpdateMapper.terminal_created``).

A client that refuses ``terminal/create`` (an error response) leaves the command to the local shell, as
without the capability; a failure after the command started is the tool's error (the command may have run).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal as signal_mod
from collections.abc import Callable, Mapping
from typing import Any

from pi_tui.ai.abort import AbortSignal
from pi_tui.coding.tools.shell import (
    BashOperations,
    LocalBashOperations,
    ShellAborted,
    ShellExit,
    ShellTimedOut,
    get_shell_config,
)

log = logging.getLogger(__name__)

POLL_S = 0.1
"""Seconds between two ``terminal/output`` polls while the command runs."""
OUTPUT_BYTE_LIMIT = 1_000_000
"""``outputByteLimit`` asked of the client (it keeps the last bytes; the tool keeps less anyway)."""
RELEASE_TIMEOUT_S = 5.0


def _env_changes(env: Mapping[str, str] | None) -> list[dict[str, str]]:
    if not env:
        return []
    return [{"name": k, "value": v} for k, v in env.items() if os.environ.get(k) != v]


def _signal_number(name: str | None) -> int | None:
    if not name:
        return None
    text = name.upper()
    if not text.startswith("SIG"):
        text = "SIG" + text
    try:
        return int(signal_mod.Signals[text])
    except KeyError:
        return int(signal_mod.SIGTERM)


def new_part(previous: str, current: str) -> str:
    """The text ``current`` adds to ``previous`` (the client's output so far, both times). When the client
    dropped the start of its output (``outputByteLimit``), the new part starts after the longest tail of
    ``previous`` found in ``current``; with no overlap at all, all of ``current``."""
    if current.startswith(previous):
        return current[len(previous):]
    for size in (4096, 1024, 256, 64, 16):
        tail = previous[-size:]
        if len(tail) < size and size > 16:
            continue
        index = current.rfind(tail)
        if tail and index >= 0:
            return current[index + len(tail):]
    return current


class ClientTerminalOperations:
    """:class:`BashOperations` over one ACP session's client terminals (module docstring)."""

    def __init__(self, client: Any, session_id: str, *, shell_path: str | None = None,
                 fallback: BashOperations | None = None,
                 on_terminal: Callable[[str], None] | None = None) -> None:
        self.on_terminal = on_terminal  # told each terminal id once it exists (embedded in the tool call)
        self.client = client
        self.session_id = session_id
        self.shell_path = shell_path
        self.fallback: BashOperations = fallback or LocalBashOperations(shell_path)

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
        """Run ``command`` in a client terminal (see :class:`BashOperations` for the contract)."""
        if signal is not None and signal.aborted:
            raise ShellAborted()
        shell, args = get_shell_config(self.shell_path)
        try:
            created = await self.client.create_terminal(
                session_id=self.session_id, command=shell, args=[*args, command], env=_env_changes(env),
                cwd=cwd, output_byte_limit=OUTPUT_BYTE_LIMIT)
        except Exception as exc:
            log.info("terminal/create failed (%s); running the command locally", exc)
            return await self.fallback.exec(command, cwd, on_data=on_data, signal=signal, timeout_s=timeout_s,
                                            env=env)
        terminal_id = str(created.terminal_id)
        if self.on_terminal is not None:
            try:
                self.on_terminal(terminal_id)
            except Exception:  # showing the terminal is a nicety; the command goes on
                log.exception("terminal listener failed")
        try:
            return await self._follow(terminal_id, on_data, signal, timeout_s)
        finally:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(RELEASE_TIMEOUT_S):
                    await self.client.release_terminal(session_id=self.session_id, terminal_id=terminal_id)

    async def _follow(self, terminal_id: str, on_data: Callable[[bytes], None], signal: AbortSignal | None,
                      timeout_s: float | None) -> ShellExit:
        seen = ""

        async def pull() -> Any:
            nonlocal seen
            response = await self.client.terminal_output(session_id=self.session_id, terminal_id=terminal_id)
            output = str(response.output)
            part = new_part(seen, output)
            seen = output
            if part:
                on_data(part.encode("utf-8"))
            return response

        async def poll() -> None:
            while True:
                await asyncio.sleep(POLL_S)
                await pull()

        waits: dict[asyncio.Future[Any], str] = {
            asyncio.ensure_future(self.client.wait_for_terminal_exit(session_id=self.session_id,
                                                                     terminal_id=terminal_id)): "exit",
        }
        poller = asyncio.ensure_future(poll())
        waits[poller] = "poll"
        if signal is not None:
            waits[asyncio.ensure_future(signal.wait())] = "aborted"
        if timeout_s is not None and timeout_s > 0:
            waits[asyncio.ensure_future(asyncio.sleep(timeout_s))] = "timeout"
        try:
            done, _ = await asyncio.wait(set(waits), return_when=asyncio.FIRST_COMPLETED)
        except BaseException:
            for waiter in waits:
                waiter.cancel()
            raise
        priority = {"exit": 0, "aborted": 1, "timeout": 2, "poll": 3}
        first = min(done, key=lambda waiter: priority[waits[waiter]])
        for waiter in waits:
            if waiter is not first:
                waiter.cancel()
        reason = waits[first]
        if reason == "poll":
            first.result()  # terminal/output failed: raise it as the tool's error
        if reason in ("aborted", "timeout"):
            with contextlib.suppress(Exception):
                await self.client.kill_terminal(session_id=self.session_id, terminal_id=terminal_id)
            with contextlib.suppress(Exception):
                await pull()  # what it printed before it was stopped
            if reason == "aborted":
                raise ShellAborted()
            assert timeout_s is not None
            raise ShellTimedOut(timeout_s)
        status = first.result()
        final = await pull()
        exit_status = getattr(final, "exit_status", None) or status
        code = getattr(exit_status, "exit_code", None)
        return ShellExit(exit_code=code, signal=_signal_number(getattr(exit_status, "signal", None)))


def install_terminal(session: Any, operations: ClientTerminalOperations) -> int:
    """Give the session's ``bash`` tools (active and inactive) ``operations``; returns how many were changed."""
    tools = list(getattr(session, "all_tools", {}).values()) + list(session.agent.state.tools)
    changed = 0
    for tool in tools:
        if getattr(tool, "name", None) == "bash" and hasattr(tool, "operations"):
            if isinstance(tool.operations, ClientTerminalOperations):
                continue  # the same tool object in both lists
            operations.fallback = tool.operations
            operations.shell_path = getattr(tool.operations, "shell_path", None)
            tool.operations = operations
            changed += 1
    return changed
