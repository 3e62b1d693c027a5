"""bash tool: tools.test.ts "bash" list and case 21 (background children must not hang the tool)."""

from __future__ import annotations

import asyncio
import os
import signal
import time
import uuid
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

from pi_tui.agent.types import AgentToolResult
from pi_tui.ai.abort import AbortController, AbortSignal
from pi_tui.coding.tools.bash import BASH_DESCRIPTION, BashTool
from pi_tui.coding.tools.shell import LocalBashOperations, ShellExit

from .helpers import run, take_log, text_of

pytestmark = pytest.mark.anyio


def processes_with(marker: str) -> list[int]:
    """PIDs whose command line contains ``marker`` (Linux /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\x00", b" ").decode("utf-8", "replace")
            with open(f"/proc/{entry}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker in cmdline and state != "Z":
            found.append(int(entry))
    return found


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


async def wait_until(predicate: Callable[[], bool], seconds: float = 2.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        await asyncio.sleep(0.02)
    return predicate()


async def test_echo_and_update_shapes(tmp_path: Path) -> None:
    updates: list[AgentToolResult] = []
    result = await run(BashTool(str(tmp_path)), {"command": "echo hi"}, None, updates.append)
    assert text_of(result) == "hi\n" and result.details is None
    assert updates[0].content == [] and updates[0].details is None  # first an empty update
    assert updates[-1].to_json_dict() == {"content": [{"type": "text", "text": "hi\n"}], "details": {}}


async def test_runs_in_cwd_with_stderr_merged(tmp_path: Path) -> None:
    result = await run(BashTool(str(tmp_path)), {"command": "pwd; echo err >&2"})
    assert text_of(result) == f"{tmp_path}\nerr\n"


async def test_no_output(tmp_path: Path) -> None:
    assert text_of(await run(BashTool(str(tmp_path)), {"command": "true"})) == "(no output)"


async def test_exit_code_error(tmp_path: Path) -> None:
    with pytest.raises(Exception) as info:
        await run(BashTool(str(tmp_path)), {"command": "echo out; exit 3"})
    assert str(info.value) == "out\n\n\nCommand exited with code 3"


async def test_timeout_kills_group(tmp_path: Path) -> None:
    with pytest.raises(Exception) as info:
        await run(BashTool(str(tmp_path)), {"command": "echo $$; sleep 30", "timeout": 0.5})
    text = str(info.value)
    assert text.endswith("\n\n\nCommand timed out after 0.5 seconds")
    pgid = int(text.split("\n")[0])
    assert await wait_until(lambda: not group_alive(pgid))


async def test_full_output_path_on_timeout(tmp_path: Path) -> None:
    with pytest.raises(Exception) as info:
        await run(BashTool(str(tmp_path)), {"command": "seq 1 3000; sleep 30", "timeout": 1})
    text = str(info.value)
    assert "[Showing lines 1001-3000 of 3000. Full output: " in text  # 3,000 lines (DIFFERENCES D18)
    assert text.endswith("\n\nCommand timed out after 1 seconds")
    path = text.split("Full output: ")[1].split("]")[0]
    assert take_log(path) == "".join(f"{i}\n" for i in range(1, 3001))


async def test_abort_with_full_output_path(tmp_path: Path) -> None:
    controller = AbortController()
    updates: list[AgentToolResult] = []

    def on_update(update: AgentToolResult) -> None:
        updates.append(update)
        if update.content and "3000" in update.content[0].text:
            controller.abort()

    with pytest.raises(Exception) as info:
        await run(BashTool(str(tmp_path)), {"command": "seq 1 3000; sleep 30"}, controller.signal, on_update)
    text = str(info.value)
    assert text.endswith("\n\nCommand aborted") and "Full output: /" in text
    path = updates[-1].details["fullOutputPath"]
    assert take_log(path).startswith("1\n2\n3\n")


async def test_missing_cwd(tmp_path: Path) -> None:
    missing = tmp_path / "gone"
    with pytest.raises(Exception) as info:
        await run(BashTool(str(missing)), {"command": "echo hi"})
    assert str(info.value) == f"Working directory does not exist: {missing}\nCannot execute bash commands."


async def test_spawn_errors(tmp_path: Path) -> None:
    with pytest.raises(Exception, match=r"^Custom shell path not found: /no/such/shell$"):
        await run(BashTool(str(tmp_path), shell_path="/no/such/shell"), {"command": "echo hi"})
    not_executable = tmp_path / "shell.txt"
    not_executable.write_text("plain file")
    with pytest.raises(Exception, match=rf"^spawn {not_executable} EACCES$"):
        await run(BashTool(str(tmp_path), shell_path=str(not_executable)), {"command": "echo hi"})


async def test_shell_path_is_used_with_dash_c(tmp_path: Path) -> None:
    shell = tmp_path / "myshell"
    shell.write_text('#!/bin/sh\necho "custom $1 [$2]"\n')
    shell.chmod(0o755)
    result = await run(BashTool(str(tmp_path), shell_path=str(shell)), {"command": "echo hi"})
    assert text_of(result) == "custom -c [echo hi]\n"


async def test_command_prefix(tmp_path: Path) -> None:
    tool = BashTool(str(tmp_path), command_prefix="export PI_PREFIX_TEST=yes")
    assert text_of(await run(tool, {"command": "echo $PI_PREFIX_TEST"})) == "yes\n"


class FakeOps:
    """BashOperations double: emits scripted chunks synchronously, then exits."""

    def __init__(self, chunks: list[bytes], exit_code: int = 0) -> None:
        self.chunks = chunks
        self.exit_code = exit_code

    async def exec(
        self, command: str, cwd: str, *, on_data: Callable[[bytes], None], signal: AbortSignal | None,
        timeout_s: float | None, env: Mapping[str, str] | None,
    ) -> ShellExit:
        for chunk in self.chunks:
            on_data(chunk)
        return ShellExit(self.exit_code)


async def test_update_coalescing(tmp_path: Path) -> None:
    updates: list[AgentToolResult] = []
    ops = FakeOps([f"line {i}\n".encode() for i in range(200)])
    result = await run(BashTool(str(tmp_path), operations=ops), {"command": "x"}, None, updates.append)
    assert len(updates) <= 3  # the empty one, then at most one per 100 ms window, then the last one
    assert updates[-1].content[0].text == text_of(result)


async def test_split_utf8_chunks(tmp_path: Path) -> None:
    ops = FakeOps([b"caf\xc3", b"\xa9 \xe2\x82", b"\xac\n"])
    assert text_of(await run(BashTool(str(tmp_path), operations=ops), {"command": "x"})) == "café €\n"


async def test_line_truncation_persisted(tmp_path: Path) -> None:
    result = await run(BashTool(str(tmp_path)), {"command": "seq 1 3000"})
    text = text_of(result)
    path = result.details["fullOutputPath"]
    assert text.endswith(f"\n\n[Showing lines 1001-3000 of 3000. Full output: {path}]")
    assert text.startswith("1001\n")  # the last 2,000 of 3,000 lines (DIFFERENCES D18; pi: 1002-3001 of 3001)
    assert take_log(path) == "".join(f"{i}\n" for i in range(1, 3001))
    assert result.details["truncation"]["truncatedBy"] == "lines"


async def test_long_single_line_shows_tail(tmp_path: Path) -> None:
    result = await run(BashTool(str(tmp_path)), {"command": "head -c 60000 /dev/zero | tr '\\0' a"})
    text = text_of(result)
    path = result.details["fullOutputPath"]
    assert text.endswith(f"\n\n[Showing last 50.0KB of line 1 (line is 58.6KB). Full output: {path}]")
    assert text.startswith("a" * 51200 + "\n\n")
    assert take_log(path) == "a" * 60000


async def test_streams_partial_output(tmp_path: Path) -> None:
    updates: list[AgentToolResult] = []
    cmd = "for i in 1 2 3; do echo $i; sleep 0.15; done"
    result = await run(BashTool(str(tmp_path)), {"command": cmd}, None, updates.append)
    texts = [u.content[0].text for u in updates if u.content]
    assert texts[-1] == text_of(result) == "1\n2\n3\n"
    assert all("1\n2\n3\n".startswith(t) for t in texts)
    assert len(texts) >= 2  # output arrived in pieces and was streamed


def test_description_mentions_limits() -> None:
    assert "last 2000 lines or 50KB" in BASH_DESCRIPTION


# ----------------------------------------------------------------------------- case 21


async def test_case21_background_sleep_does_not_hang(tmp_path: Path) -> None:
    marker = f"5.{uuid.uuid4().int % 10**6:06d}"
    start = time.monotonic()
    result = await run(BashTool(str(tmp_path)), {"command": f"sleep {marker} & echo started", "timeout": 120})
    assert time.monotonic() - start < 3
    assert "started" in text_of(result)  # exit code 0: no error raised
    assert await wait_until(lambda: not processes_with(f"sleep {marker}"))  # killed with the group


async def test_case21_background_writer_is_killed(tmp_path: Path) -> None:
    tick = f"tick-{uuid.uuid4().hex}"
    cmd = f"(while true; do echo {tick}; sleep 0.2; done) & echo started"
    start = time.monotonic()
    result = await run(BashTool(str(tmp_path)), {"command": cmd, "timeout": 120})
    assert time.monotonic() - start < 3
    # the background writer may print its first tick before or after "started": the shell races them
    assert "started" in text_of(result).splitlines()
    assert await wait_until(lambda: not processes_with(tick))  # no tick writer left running


async def test_case21_setsid_child_is_detached_not_waited_for(tmp_path: Path) -> None:
    marker = f"5.{uuid.uuid4().int % 10**6:06d}"
    start = time.monotonic()
    try:
        result = await run(BashTool(str(tmp_path)), {"command": f"setsid sleep {marker} & echo started", "timeout": 120})
        assert time.monotonic() - start < 3
        assert "started" in text_of(result)
    finally:  # documented policy: a setsid child leaves the group and is left running; clean it up here
        for pid in processes_with(f"sleep {marker}"):
            os.kill(pid, signal.SIGKILL)


async def test_case21_quiet_failure_returns_at_once(tmp_path: Path) -> None:
    data: list[bytes] = []
    exit_info = await LocalBashOperations().exec(
        "test -e /nonexistent", str(tmp_path), on_data=data.append, signal=None, timeout_s=120, env=None
    )
    assert exit_info == ShellExit(1) and b"".join(data) == b""
    with pytest.raises(Exception) as info:
        await run(BashTool(str(tmp_path)), {"command": "test -e /nonexistent", "timeout": 120})
    assert str(info.value) == "(no output)\n\nCommand exited with code 1"


async def test_case21_abort_kills_group_quickly(tmp_path: Path) -> None:
    controller = AbortController()
    pgid_holder: list[int] = []
    aborted_at: list[float] = []

    def abort() -> None:
        aborted_at.append(time.monotonic())
        controller.abort()

    def on_update(update: AgentToolResult) -> None:
        if update.content and update.content[0].text.strip() and not pgid_holder:
            pgid_holder.append(int(update.content[0].text.split()[0]))
            asyncio.get_running_loop().call_later(0.5, abort)

    with pytest.raises(Exception) as info:
        await run(BashTool(str(tmp_path)), {"command": "echo $$; sleep 100"}, controller.signal, on_update)
    assert time.monotonic() - aborted_at[0] < 1
    assert str(info.value) == f"{pgid_holder[0]}\n\n\nCommand aborted"
    assert await wait_until(lambda: not group_alive(pgid_holder[0]))
