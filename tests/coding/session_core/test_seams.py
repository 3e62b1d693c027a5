"""The AgentSession's extension seams (``session.hooks``) and tool registry (``session.tools``), issue 11.

Each seam is driven through a real AgentSession on the faux provider: a hook set on ``session.hooks`` changes
what happens at exactly its place, and a session without hooks behaves as before (the rest of the suite).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.agent.types import BeforeToolCallResult
from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message, faux_tool_call
from pi_tui.coding.agent_session import CompactionError
from pi_tui.coding.agent_session.hooks import BeforeAgentStartOutcome, BeforeCompactOutcome, InputOutcome
from pi_tui.coding.user_bash import BashResult

from .helpers import EchoTool, Recorder, make_session, session_lines

pytestmark = pytest.mark.anyio


def _capture(seen: list[Any], reply: str = "ok") -> Any:
    def step(context: Any, *_: Any) -> Any:
        seen.append(context)
        return faux_assistant_message(reply)

    return step


async def test_input_hook_transforms_and_consumes_text(tmp_path: Path, faux: FauxProvider) -> None:
    seen: list[Any] = []
    faux.set_responses([_capture(seen)])
    session = make_session(tmp_path, faux.get_model())
    session.hooks.input = lambda text, images: (
        InputOutcome(text="", handled=True) if text == "swallow" else InputOutcome(text=text.upper(), images=images)
    )
    await session.prompt("swallow")
    assert seen == [] and session.messages == []
    await session.prompt("hello")
    assert [m.content[0].text for m in session.messages if m.role == "user"] == ["HELLO"]


async def test_before_agent_start_sets_the_prompt_for_one_run_and_adds_messages(
    tmp_path: Path, faux: FauxProvider
) -> None:
    from pi_tui.ai.types import TextContent, UserMessage, now_ms

    seen: list[Any] = []
    faux.set_responses([_capture(seen), _capture(seen)])
    session = make_session(tmp_path, faux.get_model(), system_prompt="base")
    calls: list[tuple[str, str]] = []

    async def before(text: str, images: list[Any], system_prompt: str) -> BeforeAgentStartOutcome | None:
        calls.append((text, system_prompt))
        if text != "first":
            return None
        extra = UserMessage(content=[TextContent(text="extra")], timestamp=now_ms())
        return BeforeAgentStartOutcome(messages=[extra], system_prompt="for this run")

    session.hooks.before_agent_start = before
    await session.prompt("first")
    await session.prompt("second")
    assert calls == [("first", "base"), ("second", "base")]
    assert [c.system_prompt for c in seen] == ["for this run", "base"]
    assert [m.content[0].text for m in seen[0].messages if m.role == "user"] == ["first", "extra"]
    assert session.agent.state.system_prompt == "base"


async def test_context_hook_rewrites_what_the_llm_sees_not_the_transcript(tmp_path: Path, faux: FauxProvider) -> None:
    seen: list[Any] = []
    faux.set_responses([_capture(seen)])
    session = make_session(tmp_path, faux.get_model())

    async def context(messages: list[Any]) -> list[Any]:
        return messages[-1:]

    session.notify("info", "ui only")
    session.hooks.context = context
    await session.prompt("hi")
    assert [m.role for m in seen[0].messages] == ["user"]
    assert [m.role for m in session.messages] == ["notification", "user", "assistant"]


async def test_tool_call_hook_blocks_and_tool_result_hook_overrides(tmp_path: Path, faux: FauxProvider) -> None:
    from pi_tui.agent.types import AfterToolCallResult
    from pi_tui.ai.types import TextContent

    faux.set_responses([
        faux_assistant_message([faux_tool_call("echo", {"text": "a"}, id="c1"), faux_tool_call("echo", {"text": "b"}, id="c2")],
                               stop_reason="toolUse"),
        faux_assistant_message("done"),
    ])
    session = make_session(tmp_path, faux.get_model(), tools=[EchoTool()])
    session.hooks.tool_call = lambda ctx, signal: (
        BeforeToolCallResult(block=True, reason="not b") if ctx.args["text"] == "b" else None
    )
    session.hooks.tool_result = lambda ctx, signal: AfterToolCallResult(content=[TextContent(text="replaced")])
    await session.prompt("go")
    results = {m.tool_call_id: m for m in session.messages if m.role == "toolResult"}
    assert results["c1"].content[0].text == "replaced"
    assert results["c2"].is_error and "not b" in results["c2"].content[0].text


async def test_agent_event_hook_runs_before_the_listeners(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([faux_assistant_message("hi")])
    session = make_session(tmp_path, faux.get_model())
    order: list[str] = []

    async def on_event(event: Any) -> None:
        order.append(f"hook:{event.type}")

    session.hooks.agent_event = on_event
    session.subscribe(lambda event: order.append(f"app:{event.type}"))
    await session.prompt("hi")
    agent_events = [o for o in order if o.split(":")[1] in ("agent_start", "agent_end")]
    assert agent_events == ["hook:agent_start", "app:agent_start", "hook:agent_end", "app:agent_end"]


async def test_model_and_thinking_select_hooks(tmp_path: Path, faux: FauxProvider) -> None:
    session = make_session(tmp_path, faux.get_model())
    selected: list[tuple[str, str | None, str]] = []
    levels: list[tuple[str, str]] = []
    session.hooks.model_select = lambda model, previous, source: selected.append(
        (model.id, previous.id if previous else None, source)
    )
    session.hooks.thinking_level_select = lambda level, previous: levels.append((level, previous))
    model = faux.get_model()
    session.set_model(model.model_copy(update={"reasoning": True}), announce=False)
    session.set_thinking_level("high")
    assert selected == [(model.id, model.id, "set")]
    assert levels[-1] == ("high", levels[-1][1]) and levels[-1][1] != "high"


async def test_user_bash_hook_supplies_the_result(tmp_path: Path, faux: FauxProvider) -> None:
    session = make_session(tmp_path, faux.get_model())
    session.hooks.user_bash = lambda command, exclude, cwd: BashResult(
        output=f"ran {command} in {Path(cwd).name}", exit_code=0, cancelled=False, truncated=False
    )
    result = await session.execute_bash("ls")
    assert result.output == f"ran ls in {tmp_path.name}"
    assert session.messages[-1].role == "bashExecution" and session.messages[-1].output == result.output


async def test_before_compact_hook_cancels_and_compact_hook_is_told(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([faux_assistant_message("one " * 400), faux_assistant_message("two " * 400)])
    session = make_session(tmp_path, faux.get_model())
    session.settings.compaction.keep_recent_tokens = 10
    await session.prompt("first " * 200)
    await session.prompt("second " * 200)
    told: list[Any] = []
    session.hooks.session_before_compact = lambda preparation, instructions, reason: BeforeCompactOutcome(cancel=True)
    session.hooks.session_compact = lambda result, from_hook: told.append(result)
    with pytest.raises(CompactionError, match="Compaction cancelled"):
        await session.compact()
    assert told == [] and not any(line["type"] == "compaction" for line in session_lines(session))


async def test_session_before_switch_and_fork_can_cancel(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([faux_assistant_message("hi")])
    session = make_session(tmp_path, faux.get_model())
    await session.prompt("hello")
    file_before = session.session_file
    reasons: list[str] = []
    forks: list[tuple[str, str]] = []
    session.hooks.session_before_switch = lambda reason, target: reasons.append(reason) or True
    session.hooks.session_before_fork = lambda entry_id, position: forks.append((entry_id, position)) or True
    await session.new_session()
    assert await session.clone() == {"cancelled": True}  # pi: clone is fork(leaf, {position: "at"})
    entry = session.get_fork_messages()[0]["entryId"]
    assert (await session.fork(entry))["cancelled"] is True
    assert reasons == ["new"] and session.session_file == file_before
    assert forks == [(session.session_manager.get_leaf_id(), "at"), (entry, "before")]
    assert [m.role for m in session.messages] == ["user", "assistant"]


async def test_session_start_after_a_switch(tmp_path: Path, faux: FauxProvider) -> None:
    session = make_session(tmp_path, faux.get_model())
    started: list[str] = []
    session.hooks.session_start = started.append
    await session.start()
    await session.new_session()
    assert started == ["startup", "new"]


def test_tool_registry_register_activate_and_rebuild_the_prompt(tmp_path: Path, faux: FauxProvider) -> None:
    session = make_session(tmp_path, faux.get_model(), tools=[EchoTool()])
    prompts: list[list[str]] = []
    from pi_tui.coding.agent_session import ToolRegistry

    def rebuild(active: list[Any]) -> str:
        prompts.append([t.name for t in active])
        return "tools: " + ",".join(t.name for t in active)

    registry = ToolRegistry(session.agent, session.tools.all.values(), rebuild)
    registry.register(EchoTool(name="shout"))
    assert registry.get_active() == ["echo"] and set(registry.all) == {"echo", "shout"}
    registry.register(EchoTool(name="whisper"), active=True)
    assert registry.get_active() == ["echo", "whisper"]
    assert session.agent.state.system_prompt == "tools: echo,whisper"
    registry.set_active(["shout", "echo"])
    assert [t.name for t in session.agent.state.tools] == ["shout", "echo"]
    with pytest.raises(ValueError, match="Unknown tool"):
        registry.set_active(["nope"])
    registry.unregister("shout")
    assert registry.get_active() == ["echo"] and "shout" not in registry.all
    assert prompts[-1] == ["echo"]


async def test_no_hooks_no_events_of_their_own(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([faux_assistant_message("hi")])
    session = make_session(tmp_path, faux.get_model())
    rec = Recorder(session)
    await session.prompt("hi")
    assert rec.types() == [
        "agent_start", "turn_start", "message_start:user", "message_end:user", "message_start:assistant",
        "message_end:assistant", "turn_end", "agent_end",
    ]
