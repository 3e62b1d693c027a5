"""The runner (issue 11): load order, failure isolation (raise / timeout / garbage → one error naming the
extension and the event, the other handlers still run) and pi's result combination per event."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from pi_tui.coding.extensions.events import (
    BeforeAgentStartEvent,
    InputEvent,
    SessionBeforeSwitchEvent,
    ToolCallEvent,
    ToolResultEvent,
)
from pi_tui.coding.extensions.runner import LoadedExtension
from pi_tui.coding.extensions.runtime import ExtensionRuntime

from .fakes import FakeHost, ScriptedUI, make_runtime


def _ext(runtime: ExtensionRuntime, name: str, **handlers: Any) -> LoadedExtension:
    ext = LoadedExtension(name=name, path=f"/ext/{name}.py")
    for event, handler in handlers.items():
        for h in handler if isinstance(handler, list) else [handler]:
            ext.add_handler(event, h)
    runtime.runner.add(ext)
    return ext


def _errors(host: FakeHost) -> list[str]:
    return host.errors


def test_handlers_run_in_load_order_with_or_without_ctx(tmp_path: Path) -> None:
    runtime, _ = make_runtime(tmp_path)
    seen: list[str] = []

    async def async_handler(event: Any, ctx: Any) -> None:
        await asyncio.sleep(0)
        seen.append(f"a:{ctx.cwd.endswith('project')}")

    _ext(runtime, "first", agent_start=[lambda e: seen.append("first-1"), async_handler])
    _ext(runtime, "second", agent_start=lambda e, ctx: seen.append("second"))
    asyncio.run(runtime.runner.emit("agent_start", object()))
    assert seen == ["first-1", "a:True", "second"]


@pytest.mark.parametrize("failure", ["raise", "timeout", "async_raise"])
def test_a_failing_handler_is_one_error_and_the_others_still_run(tmp_path: Path, failure: str) -> None:
    runtime, host = make_runtime(tmp_path, timeout=0.05)
    seen: list[str] = []

    def raising(event: Any) -> None:
        raise RuntimeError("handler exploded")

    async def hanging(event: Any) -> None:
        await asyncio.sleep(60)

    async def async_raising(event: Any) -> None:
        raise ValueError("async exploded")

    bad = {"raise": raising, "timeout": hanging, "async_raise": async_raising}[failure]
    _ext(runtime, "broken", turn_end=bad)
    _ext(runtime, "fine", turn_end=lambda e: seen.append("fine"))

    async def scenario() -> None:
        for _ in range(3):  # the same failure three times in one prompt: reported once
            await runtime.runner.emit("turn_end", object())

    asyncio.run(scenario())
    assert seen == ["fine"] * 3
    assert len(_errors(host)) == 1
    text = _errors(host)[0]
    assert 'Extension "broken" failed on turn_end' in text and "/ext/broken.py" in text
    expected = {"raise": "RuntimeError: handler exploded", "timeout": "TimeoutError", "async_raise": "ValueError"}
    assert expected[failure] in text
    runtime.runner.new_prompt()
    asyncio.run(runtime.runner.emit("turn_end", object()))
    assert len(_errors(host)) == 1  # a later prompt only logs it again (tester3 #6: one copy per prompt)
    assert len(runtime.runner.errors) == 2


def test_dialog_time_does_not_count_against_the_timeout(tmp_path: Path) -> None:
    class SlowUI(ScriptedUI):
        async def confirm(self, title: str, message: str = "", *, timeout_ms: int | None = None) -> bool:
            await asyncio.sleep(0.3)  # the user thinks longer than the handler timeout
            return True

    runtime, host = make_runtime(tmp_path, ui=SlowUI(), timeout=0.1)
    answers: list[bool] = []

    async def gate(event: ToolCallEvent, ctx: Any) -> None:
        answers.append(await ctx.ui.confirm("Allow?", "rm -rf"))

    _ext(runtime, "gate", tool_call=gate)
    blocked, _ = asyncio.run(runtime.runner.emit_tool_call(ToolCallEvent("bash", "c1", {"command": "rm -rf /"})))
    assert answers == [True] and not blocked and host.errors == []


def test_ui_timeout_ms_gives_the_default(tmp_path: Path) -> None:
    class NeverUI(ScriptedUI):
        async def select(self, title: str, options: Any, *, timeout_ms: int | None = None) -> str | None:
            await asyncio.sleep(60)
            return "never"

    runtime, _ = make_runtime(tmp_path, ui=NeverUI())
    got = asyncio.run(runtime.context().ui.select("Pick", ["a", "b"], timeout_ms=20))
    assert got is None


def test_tool_call_mutation_chains_and_first_block_wins(tmp_path: Path) -> None:
    runtime, host = make_runtime(tmp_path)

    def prefix(event: ToolCallEvent) -> None:
        event.input["command"] = "set -e; " + event.input["command"]

    def block_rm(event: ToolCallEvent) -> Any:
        if "rm" in event.input["command"]:
            return {"block": True, "reason": f"no rm please ({event.input['command']})"}
        return None

    never: list[str] = []
    _ext(runtime, "prefix", tool_call=prefix)
    _ext(runtime, "gate", tool_call=block_rm)
    _ext(runtime, "after", tool_call=lambda e: never.append("ran"))
    event = ToolCallEvent("bash", "c1", {"command": "ls"})
    assert asyncio.run(runtime.runner.emit_tool_call(event)) == (False, None)
    assert event.input == {"command": "set -e; ls"} and never == ["ran"]
    blocked, reason = asyncio.run(runtime.runner.emit_tool_call(ToolCallEvent("bash", "c2", {"command": "rm x"})))
    assert blocked and reason == "no rm please (set -e; rm x)" and never == ["ran"]
    assert host.errors == []


def test_a_failing_tool_call_handler_blocks_the_call(tmp_path: Path) -> None:
    runtime, host = make_runtime(tmp_path)
    _ext(runtime, "broken", tool_call=lambda e: 1 / 0)
    blocked, reason = asyncio.run(runtime.runner.emit_tool_call(ToolCallEvent("bash", "c", {"command": "ls"})))
    assert blocked and 'extension "broken" failed' in (reason or "")
    assert len(host.errors) == 1 and "ZeroDivisionError" in host.errors[0]


def test_tool_result_patches_chain(tmp_path: Path) -> None:
    runtime, host = make_runtime(tmp_path)
    _ext(runtime, "one", tool_result=lambda e: {"content": "replaced", "details": {"n": 1}})
    _ext(runtime, "two", tool_result=lambda e: {"isError": True})  # pi's camelCase key is accepted
    _ext(runtime, "three", tool_result=lambda e: {"details": {"seen": e.content[0]["text"]}})
    event = ToolResultEvent("bash", "c", {}, [{"type": "text", "text": "orig"}])
    out = asyncio.run(runtime.runner.emit_tool_result(event))
    assert out.content == [{"type": "text", "text": "replaced"}]
    assert out.is_error is True and out.details == {"seen": "replaced"}
    assert host.errors == []


@pytest.mark.parametrize("event_name", ["tool_result", "context", "input", "before_agent_start", "tool_call",
                                        "session_before_switch"])
def test_garbage_results_are_reported_and_ignored(tmp_path: Path, event_name: str) -> None:
    runtime, host = make_runtime(tmp_path)
    _ext(runtime, "garbage", **{event_name: lambda e: 42})

    async def scenario() -> Any:
        runner = runtime.runner
        if event_name == "tool_result":
            return (await runner.emit_tool_result(ToolResultEvent("t", "c", {}, ["x"]))).content
        if event_name == "context":
            return await runner.emit_context(["m"])
        if event_name == "input":
            return await runner.emit_input(InputEvent("hi"))
        if event_name == "before_agent_start":
            return await runner.emit_before_agent_start(BeforeAgentStartEvent("p", system_prompt="S"))
        if event_name == "tool_call":
            return await runner.emit_tool_call(ToolCallEvent("t", "c", {}))
        return await runner.emit_cancellable("session_before_switch", SessionBeforeSwitchEvent())

    result = asyncio.run(scenario())
    unchanged = {"tool_result": ["x"], "context": None, "before_agent_start": ([], None),
                 "tool_call": (False, None), "session_before_switch": (False, None)}
    if event_name == "input":
        assert result[0] == "continue" and result[1].text == "hi"
    else:
        assert result == unchanged[event_name]
    assert len(host.errors) == 1 and f"failed on {event_name}" in host.errors[0] and "int 42" in host.errors[0]


def test_context_rewrite_gets_a_copy_and_chains(tmp_path: Path) -> None:
    runtime, _ = make_runtime(tmp_path)
    original = [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}]

    def drop_first(event: Any) -> Any:
        event.messages[0]["content"] = "mutated copy"
        return {"messages": event.messages[1:]}

    _ext(runtime, "one", context=drop_first)
    _ext(runtime, "two", context=lambda e: {"messages": [*e.messages, {"role": "user", "content": "c"}]})
    out = asyncio.run(runtime.runner.emit_context(original))
    assert [m["content"] for m in out or []] == ["b", "c"]
    assert original[0]["content"] == "a"  # the caller's list is untouched


def test_input_transform_chains_and_handled_stops(tmp_path: Path) -> None:
    runtime, _ = make_runtime(tmp_path)
    seen: list[str] = []
    _ext(runtime, "quick", input=lambda e: {"action": "transform", "text": e.text.replace("?q ", "Briefly: ")})
    _ext(runtime, "ping", input=lambda e: {"action": "handled"} if e.text == "ping" else {"action": "continue"})
    _ext(runtime, "last", input=lambda e: seen.append(e.text))
    action, event = asyncio.run(runtime.runner.emit_input(InputEvent("?q why")))
    assert (action, event.text, seen) == ("continue", "Briefly: why", ["Briefly: why"])
    action, _ = asyncio.run(runtime.runner.emit_input(InputEvent("ping")))
    assert action == "handled" and seen == ["Briefly: why"]


def test_before_agent_start_chains_the_system_prompt_and_collects_messages(tmp_path: Path) -> None:
    runtime, _ = make_runtime(tmp_path)
    _ext(runtime, "pirate", before_agent_start=lambda e: {"system_prompt": e.system_prompt + " Arr."})
    _ext(runtime, "rules", before_agent_start=lambda e: {
        "message": {"custom_type": "rules", "content": "follow rules"}, "systemPrompt": e.system_prompt + " Rules."
    })
    messages, prompt = asyncio.run(runtime.runner.emit_before_agent_start(
        BeforeAgentStartEvent("hi", system_prompt="Base.")))
    assert prompt == "Base. Arr. Rules."
    assert [m for _, m in messages] == [{"custom_type": "rules", "content": "follow rules"}]


def test_session_before_cancel_first_wins(tmp_path: Path) -> None:
    runtime, _ = make_runtime(tmp_path)
    later: list[str] = []
    _ext(runtime, "keep", session_before_switch=lambda e: None)
    _ext(runtime, "cancel", session_before_switch=lambda e: {"cancel": True})
    _ext(runtime, "never", session_before_switch=lambda e: later.append("x"))
    cancelled, _ = asyncio.run(runtime.runner.emit_cancellable("session_before_switch", SessionBeforeSwitchEvent()))
    assert cancelled and later == []


def test_dispatch_finishes_suspended_handlers_in_order_and_isolates_failures(tmp_path: Path) -> None:
    runtime, host = make_runtime(tmp_path)
    seen: list[str] = []

    async def slow(event: Any) -> None:
        seen.append("slow:start")
        await asyncio.sleep(0.01)
        seen.append("slow:end")

    async def slow_fail(event: Any) -> None:
        await asyncio.sleep(0)
        raise RuntimeError("late failure")

    _ext(runtime, "quick", message_update=lambda e: seen.append("quick"))
    _ext(runtime, "slow", message_update=slow)
    _ext(runtime, "fails", message_update=slow_fail)
    _ext(runtime, "last", message_update=lambda e: seen.append("last"))
    async def scenario() -> None:
        pending = runtime.runner.dispatch("message_update", object())
        assert pending is not None  # an async handler: the handler loop runs them, in order
        await pending

    asyncio.run(scenario())
    assert seen == ["quick", "slow:start", "slow:end", "last"]
    assert len(host.errors) == 1 and 'Extension "fails" failed on message_update: RuntimeError' in host.errors[0]
    seen.clear()
    runtime.runner.remove(runtime.extensions[1])
    runtime.runner.remove(runtime.extensions[1])
    assert runtime.runner.dispatch("message_update", object()) is None  # all finished at once
    assert seen == ["quick", "last"]


def test_a_failing_command_is_shown_each_time_it_is_run(tmp_path: Path) -> None:
    from pi_tui.coding.extensions.loaded import ExtensionError

    runtime, host = make_runtime(tmp_path)
    for _ in range(3):
        runtime.runner.new_prompt()
        runtime.runner.report(ExtensionError("x", "/ext/x.py", "command:go", "ValueError: bad"))
        runtime.runner.report(ExtensionError("x", "/ext/x.py", "message_end", "NameError: y"))
    assert [e.count("command:go") for e in _errors(host)].count(1) == 3
    assert sum("message_end" in e for e in _errors(host)) == 1
