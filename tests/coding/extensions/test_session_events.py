"""Extensions wired into a real AgentSession (issue 11 acceptance): a dropped-in extension's tool, command
and status work; tool_call blocking/mutation, tool_result override, context rewriting and
before_agent_start change what the model receives (request bodies on the loopback server); a handler that
raises at any event gives one error and the run goes on; extension events come before the app's
listeners."""

from __future__ import annotations

import asyncio
import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

from pi_tui.coding.extensions.setup import start_extensions

from .conftest import Env

TOOL_THEN_TEXT = [
    {"type": "tool", "calls": [{"id": "call_1", "name": "bash", "args": {"command": "echo original"}}]},
    {"type": "text", "text": "done"},
]


def _ext(env: Env, name: str, body: str, folder: str = "extensions") -> Path:
    path = env.agent_dir / folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


def _texts(body: Any) -> list[str]:
    out: list[str] = []
    for message in body.get("messages", []):
        content = message.get("content")
        if isinstance(content, str):
            out.append(content)
        elif isinstance(content, list):
            out.extend(part.get("text", "") for part in content if isinstance(part, dict))
    return out


def _read(path: str) -> str:
    return Path(path).read_text(encoding="utf-8")


def _errors(session: Any) -> list[str]:
    return [m.text for m in session.messages if getattr(m, "role", None) == "notification" and m.level == "error"]


@pytest.mark.anyio
async def test_a_dropped_in_extension_tool_command_and_status_work(env: Env) -> None:
    _ext(env, "demo.py", """
    from pydantic import BaseModel

    class GreetParams(BaseModel):
        name: str

    def activate(pi):
        async def greet(call_id, params, signal, on_update, ctx):
            return f"Hello, {params.name}!"
        pi.register_tool("greet", "Greet someone by name", GreetParams, greet, prompt_snippet="Greet a person")

        async def hello(args, ctx):
            ctx.ui.notify(f"Hello {args or 'world'}!")
            pi.append_entry("greeted", {"who": args})
        pi.register_command("hello", hello, "Say hello")
        pi.register_shortcut("ctrl+shift+g", lambda ctx: None, "Greet")
        pi.on("turn_end", lambda event, ctx: ctx.ui.set_status("demo", f"turns seen"))
    """)
    env.serve([{"type": "tool", "calls": [{"id": "c1", "name": "greet", "args": {"name": "Ann"}}]},
               {"type": "text", "text": "greeted"}])
    session = env.session()
    await start_extensions(session.extensions)
    runtime = session.extensions.runtime
    assert "greet" in [t.name for t in session.agent.state.tools]
    assert "- greet: Greet a person" in session.agent.state.system_prompt
    await session.prompt("/hello there")  # an extension command: no model request
    assert env.bodies() == []
    entries = [e for e in session.session_manager.get_entries() if e.type == "custom"]
    assert [(e.custom_type, e.data) for e in entries] == [("greeted", {"who": "there"})]
    await session.prompt("greet Ann")
    bodies = env.bodies()
    assert [t["function"]["name"] for t in bodies[0]["tools"]][-1] == "greet"
    tool_messages = [m for m in bodies[1]["messages"] if m["role"] == "tool"]
    assert tool_messages[0]["content"] in ("Hello, Ann!", [{"type": "text", "text": "Hello, Ann!"}])
    assert runtime.statuses == {"demo": "turns seen"}
    assert runtime.shortcuts.get("ctrl+shift+g") is not None
    assert _errors(session) == []


@pytest.mark.anyio
async def test_tool_call_block_and_mutation_change_what_runs_and_what_the_model_gets(env: Env) -> None:
    ext = _ext(env, "gate.py", """
    def activate(pi):
        def mutate(event):
            if event.tool_name == "bash":
                event.input["command"] = event.input["command"].replace("original", "mutated")
        def block(event):
            if "rm -rf" in event.input.get("command", ""):
                return {"block": True, "reason": "Blocked by the gate"}
        pi.on("tool_call", mutate)
        pi.on("tool_call", block)
    """, folder="cli")
    env.serve([
        {"type": "tool", "calls": [{"id": "call_1", "name": "bash", "args": {"command": "echo original"}}]},
        {"type": "tool", "calls": [{"id": "call_2", "name": "bash", "args": {"command": "rm -rf /tmp/nothing"}}]},
        {"type": "text", "text": "done"},
    ])
    session = env.session(extension_paths=[str(ext)])
    await start_extensions(session.extensions)
    await session.prompt("go")
    bodies = env.bodies()
    results = [m["content"] for m in bodies[-1]["messages"] if m["role"] == "tool"]
    flat = [json.dumps(r) for r in results]
    assert "mutated" in flat[0] and "original" not in flat[0]
    assert "Blocked by the gate" in flat[1]
    assert _errors(session) == []


@pytest.mark.anyio
async def test_tool_result_override_and_context_rewrite_reach_the_request(env: Env) -> None:
    ext = _ext(env, "rewrite.py", """
    def activate(pi):
        pi.on("tool_result", lambda e: {"content": [{"type": "text", "text": "REPLACED RESULT"}]})
        def context(event):
            for m in event.messages:
                if getattr(m, "role", None) == "user":
                    m.content[0].text = m.content[0].text.replace("secret", "[redacted]")
            return {"messages": event.messages}
        pi.on("context", context)
    """, folder="cli")
    env.serve(TOOL_THEN_TEXT)
    session = env.session(extension_paths=[str(ext)])
    await start_extensions(session.extensions)
    await session.prompt("my secret prompt")
    bodies = env.bodies()
    assert all("my [redacted] prompt" in _texts(b) for b in bodies)
    assert not any("secret" in json.dumps(b) for b in bodies)
    assert "REPLACED RESULT" in json.dumps(bodies[1])
    user = next(m for m in session.messages if getattr(m, "role", None) == "user")
    assert user.content[0].text == "my secret prompt"  # the rewrite is for the request only


@pytest.mark.anyio
async def test_input_and_before_agent_start(env: Env) -> None:
    ext = _ext(env, "prompting.py", """
    def activate(pi):
        pi.on("input", lambda e: {"action": "transform", "text": e.text.replace("?q ", "Briefly: ")})
        pi.on("input", lambda e: {"action": "handled"} if e.text == "ping" else None)
        pi.on("before_agent_start", lambda e: {
            "system_prompt": e.system_prompt + "\\nAlways answer like a pirate.",
            "message": {"custom_type": "rules", "content": "Rule: be brief", "display": False},
        })
    """, folder="cli")
    env.serve([{"type": "text", "text": "one"}, {"type": "text", "text": "two"}])
    session = env.session(extension_paths=[str(ext)])
    await start_extensions(session.extensions)
    base = session.agent.state.system_prompt
    await session.prompt("ping")
    assert env.bodies() == []  # handled: no run
    await session.prompt("?q why")
    body = env.bodies()[0]
    assert body["messages"][0]["role"] == "system" and body["messages"][0]["content"].endswith("like a pirate.")
    assert _texts(body)[-2:] == ["Briefly: why", "Rule: be brief"]
    assert session.agent.state.system_prompt == base and "pirate" not in base  # changed for that run only


@pytest.mark.anyio
@pytest.mark.parametrize("event", ["input", "before_agent_start", "agent_start", "turn_start", "context",
                                   "message_start", "message_update", "message_end", "tool_execution_start",
                                   "tool_call", "tool_execution_update", "tool_result", "tool_execution_end",
                                   "turn_end", "agent_end"])
async def test_a_handler_raising_on_any_event_gives_one_error_and_the_run_goes_on(env: Env, event: str) -> None:
    broken = _ext(env, "broken.py", f"""
    def activate(pi):
        def fail(e, ctx):
            raise RuntimeError("boom in {event}")
        pi.on({event!r}, fail)
    """, folder="cli")
    witness = _ext(env, "witness.py", """
    SEEN = []
    def activate(pi):
        for name in ("agent_start", "turn_end", "agent_end"):
            pi.on(name, lambda e, name=name: SEEN.append(name))
    """, folder="cli")
    env.serve(TOOL_THEN_TEXT)
    session = env.session(extension_paths=[str(broken), str(witness)])
    await start_extensions(session.extensions)
    await session.prompt("go")
    errors = _errors(session)
    assert len(errors) == 1, errors
    assert f'Extension "broken" failed on {event}: RuntimeError: boom in {event}' in errors[0]
    assert str(broken) in errors[0]
    witness_module = session.extensions.runtime.extensions[1].module
    assert witness_module.SEEN == ["agent_start", "turn_end", "turn_end", "agent_end"]
    assert len(env.bodies()) == 2  # the run went on to the model's final answer
    answer = [m for m in session.messages if getattr(m, "role", None) == "assistant"][-1]
    assert answer.content[0].text == "done" and answer.stop_reason == "stop"


@pytest.mark.anyio
async def test_extension_handlers_run_before_the_apps_listeners(env: Env) -> None:
    ext = _ext(env, "order.py", """
    ORDER = []
    def activate(pi):
        for name in ("agent_start", "message_end", "agent_end"):
            pi.on(name, lambda e, name=name: ORDER.append("ext:" + name))
    """, folder="cli")
    env.serve([{"type": "text", "text": "hi"}])
    session = env.session(extension_paths=[str(ext)])
    await start_extensions(session.extensions)
    order = session.extensions.runtime.extensions[0].module.ORDER
    session.subscribe(lambda e: order.append("app:" + e.type) if e.type in ("agent_start", "message_end",
                                                                             "agent_end") else None)
    await session.prompt("hello")
    assert order == ["ext:agent_start", "app:agent_start", "ext:message_end", "app:message_end",
                     "ext:message_end", "app:message_end", "ext:agent_end", "app:agent_end"]


@pytest.mark.anyio
async def test_send_message_delivery_and_send_user_message(env: Env) -> None:
    ext = _ext(env, "sender.py", """
    def activate(pi):
        async def note(args, ctx):
            pi.send_message({"custom_type": "note", "content": "idle note", "display": True})
            pi.send_message({"custom_type": "later", "content": "next-turn context"}, deliver_as="next_turn")
        pi.register_command("note", note, "Add notes")
        pi.register_command("ask", lambda args, ctx: pi.send_user_message("from extension: " + args), "Ask")
        def record(e):
            open({log!r}, "a").write(e.source + "\\n")
        pi.on("input", record)
    """.replace("{log!r}", repr(str(env.root / "sources.txt"))), folder="cli")
    env.serve([{"type": "text", "text": "one"}, {"type": "text", "text": "two"}])
    session = env.session(extension_paths=[str(ext)], session_dir=str(env.root / "sessions"), no_session=False)
    await session.start()
    await session.prompt("/note")
    custom = [m for m in session.messages if getattr(m, "role", None) == "custom"]
    assert [m.content for m in custom] == ["idle note"]  # appended at once (idle, no trigger_turn)
    await session.prompt("hello")
    first = env.bodies()[0]
    assert _texts(first)[-3:] == ["idle note", "hello", "next-turn context"]
    await session.prompt("/ask question")
    for _ in range(200):  # send_user_message starts the run in the background (pi: not awaited)
        if len(env.bodies()) == 2 and not session.is_streaming:
            break
        await asyncio.sleep(0.02)
    await session.wait_for_idle()
    second = env.bodies()[1]
    assert _texts(second)[-1] == "from extension: question"
    assert _read(str(env.root / "sources.txt")).split() == ["interactive", "extension"]
    saved = _read(session.session_file)
    assert "idle note" in saved and "next-turn context" in saved


@pytest.mark.anyio
async def test_session_before_switch_can_cancel_and_start_shutdown_follow_a_switch(env: Env) -> None:
    ext = _ext(env, "guard.py", """
    LOG = []
    ALLOW = []
    def activate(pi):
        pi.on("session_before_switch", lambda e: None if ALLOW else {"cancel": True})
        pi.on("session_shutdown", lambda e: LOG.append("shutdown:" + e.reason))
        pi.on("session_start", lambda e: LOG.append("start:" + e.reason))
    """, folder="cli")
    env.serve([{"type": "text", "text": "one"}])
    session = env.session(extension_paths=[str(ext)])
    await session.start()
    await session.prompt("hello")
    module = session.extensions.runtime.extensions[0].module
    await session.new_session()
    assert [getattr(m, "role", None) for m in session.messages if getattr(m, "role", None) != "notification"] == [
        "user", "assistant"]  # cancelled: the conversation is still there
    module.ALLOW.append(True)
    await session.new_session()
    assert [m for m in session.messages if getattr(m, "role", None) in ("user", "assistant")] == []
    assert module.LOG == ["start:startup", "shutdown:new", "start:new"]


@pytest.mark.anyio
async def test_session_before_compact_can_supply_the_summary(env: Env) -> None:
    ext = _ext(env, "compactor.py", """
    def activate(pi):
        def compact(event):
            return {"compaction": {"summary": "EXTENSION SUMMARY of " + str(len(event.branch_entries)) + " entries"}}
        pi.on("session_before_compact", compact)
        pi.on("session_compact", lambda e: pi.notify("compacted by extension: " + str(e.from_extension)))
    """, folder="cli")
    env.serve([{"type": "text", "text": "answer " * 50}, {"type": "text", "text": "second " * 50},
               {"type": "text", "text": "after"}])
    session = env.session(extension_paths=[str(ext)])
    await session.start()
    await session.prompt("first question " * 20)
    await session.prompt("second question " * 20)
    session.settings.compaction.keep_recent_tokens = 1
    result = await session.compact()
    assert result["summary"].startswith("EXTENSION SUMMARY of ")
    assert len(env.bodies()) == 2  # no summariser request: the extension wrote the summary
    await session.prompt("go on")
    assert "EXTENSION SUMMARY" in json.dumps(env.bodies()[-1])
    notices = [m.text for m in session.messages if getattr(m, "role", None) == "notification"]
    assert "compacted by extension: True" in notices


@pytest.mark.anyio
async def test_user_bash_result_from_an_extension_replaces_running_the_command(env: Env) -> None:
    ext = _ext(env, "remote.py", """
    def activate(pi):
        def user_bash(event):
            if event.command.startswith("remote "):
                return {"result": {"output": "ran remotely: " + event.command[7:], "exit_code": 0}}
        pi.on("user_bash", user_bash)
    """, folder="cli")
    env.serve([])
    session = env.session(extension_paths=[str(ext)])
    await session.start()
    marker = env.root / "marker"
    result = await session.execute_bash(f"remote touch {marker}")
    assert (result.output, result.exit_code, marker.exists()) == ("ran remotely: touch " + str(marker), 0, False)
    local = await session.execute_bash("echo local")
    assert local.output.strip() == "local"
