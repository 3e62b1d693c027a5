"""Timeouts of awaited handlers (clock.py): an ``async def`` handler on a streamed event is awaited without
a timer, yet one that hangs is stopped by the watchdog (one TimeoutError naming it, the next handlers run,
the caller's task is not left cancelled); dialog time does not count; a cancel from outside (Esc) is not
taken for a timeout."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from pi_tui.coding.extensions.events import ToolCallEvent

from .fakes import ScriptedUI, make_runtime
from .test_runner import _ext


def test_a_hanging_streamed_handler_times_out_and_the_rest_run(tmp_path: Path) -> None:
    runtime, host = make_runtime(tmp_path, timeout=0.1)
    seen: list[str] = []

    async def hangs(event: Any) -> None:
        await asyncio.sleep(30)

    async def fine(event: Any) -> None:
        seen.append("fine")

    _ext(runtime, "stuck", message_update=hangs)
    _ext(runtime, "fine", message_update=fine)

    async def scenario() -> bool:
        pending = runtime.runner.dispatch("message_update", object())
        assert pending is not None
        await asyncio.wait_for(pending, 5)
        task = asyncio.current_task()
        assert task is not None
        await asyncio.sleep(0)  # the task is not left with a cancel request
        return task.cancelling() == 0

    assert asyncio.run(scenario())
    assert seen == ["fine"]
    assert len(host.errors) == 1
    assert 'Extension "stuck" failed on message_update: TimeoutError: no answer within 0.1s' in host.errors[0]


def test_dialog_time_does_not_count_for_an_awaited_handler(tmp_path: Path) -> None:
    class SlowUI(ScriptedUI):
        async def confirm(self, title: str, message: str = "", *, timeout_ms: int | None = None) -> bool:
            await asyncio.sleep(0.4)  # longer than the timeout
            return True

    runtime, host = make_runtime(tmp_path, ui=SlowUI(), timeout=0.1)
    answers: list[bool] = []

    async def asks(event: Any, ctx: Any) -> None:
        answers.append(await ctx.ui.confirm("Keep going?"))

    _ext(runtime, "asks", turn_end=asks)
    asyncio.run(runtime.runner.emit_notification("turn_end", object()))
    assert answers == [True] and host.errors == []


@pytest.mark.parametrize("where", ["dispatch", "tool_call"])
def test_an_outside_cancel_is_not_a_timeout(tmp_path: Path, where: str) -> None:
    runtime, host = make_runtime(tmp_path, timeout=5)
    started = asyncio.Event()

    async def waits(event: Any) -> None:
        started.set()
        await asyncio.sleep(30)

    _ext(runtime, "waits", **{"message_update" if where == "dispatch" else "tool_call": waits})

    async def run() -> Any:
        if where == "dispatch":
            return await runtime.runner.dispatch("message_update", object())
        return await runtime.runner.emit_tool_call(ToolCallEvent("bash", "c", {"command": "ls"}))

    async def scenario() -> None:
        task = asyncio.ensure_future(run())
        await started.wait()
        task.cancel()  # the user pressed Esc
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(scenario())
    assert host.errors == []


def test_the_watchdog_rearms_on_each_event_loop_and_disarms_when_idle(tmp_path: Path) -> None:
    """No per-loop watch object any more: the watchdog finds the handler loops in the tasks' await chains, is
    armed again on a new event loop (each ``asyncio.run``), and stops looking once no loop runs."""
    runtime, host = make_runtime(tmp_path, timeout=0.08)

    async def hangs(event: Any) -> None:
        await asyncio.sleep(30)

    _ext(runtime, "stuck", turn_end=hangs)
    clock = runtime.runner.clock

    async def scenario() -> bool:
        await asyncio.wait_for(runtime.runner.emit_notification("turn_end", object()), 5)
        for _ in range(100):  # the next look finds no handler loop and does not look again
            if clock.armed_on is None:
                return True
            await asyncio.sleep(0.02)
        return False

    assert asyncio.run(scenario())
    runtime.runner.new_prompt()  # the same failure is recorded again (shown only the first time)
    assert asyncio.run(scenario())  # a second event loop: armed there too, the hang is stopped again
    assert len(runtime.runner.errors) == 2 and len(host.errors) == 1
    assert all("TimeoutError: no answer within 0.08s" in e.text for e in runtime.runner.errors)
