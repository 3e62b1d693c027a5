"""The ``pi`` API object (pi docs/extensions.md "ExtensionAPI Methods", Python names)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

from pi_tui.coding.extensions.registries import CommandSpec
from pi_tui.coding.extensions.tools import ExtensionTool

from .fakes import ScriptedUI, make_runtime, sources, write_ext


def _load(tmp_path: Path, body: str, ui: Any = None, name: str = "ext.py", **kw: Any) -> Any:
    runtime, host = make_runtime(tmp_path, ui=ui)
    write_ext(tmp_path / "agent" / "extensions", name, body)
    asyncio.run(runtime.load(sources(tmp_path, **kw)))
    return runtime, host


def test_register_tool_with_a_pydantic_model_runs_with_validated_params(tmp_path: Path) -> None:
    runtime, host = _load(tmp_path, """
    from pydantic import BaseModel, Field
    class Greet(BaseModel):
        name: str = Field(description="who")
    async def greet(call_id, params, signal, on_update, ctx):
        return {"content": f"Hello, {params.name}! ({ctx.cwd.rsplit('/', 1)[-1]})", "details": {"n": 1}}
    def activate(pi):
        pi.register_tool("greet", "Greet someone", Greet, greet, prompt_snippet="Greet a person",
                         prompt_guidelines=["Use greet to say hello."])
    """)
    assert host.errors == []
    tool = host.tools["greet"]
    assert isinstance(tool, ExtensionTool) and "greet" in host.active
    assert tool.parameters["properties"]["name"]["description"] == "who"
    assert (tool.prompt_snippet, tool.prompt_guidelines) == ("Greet a person", ["Use greet to say hello."])
    params = tool.params_model(name="Ann")  # type: ignore[misc]
    result = asyncio.run(tool.execute("c1", params))
    assert result.content[0].text == "Hello, Ann! (project)" and result.details == {"n": 1}


def test_register_tool_json_schema_short_execute_and_result_shapes(tmp_path: Path) -> None:
    runtime, host = _load(tmp_path, """
    def activate(pi):
        schema = {"type": "object", "properties": {"x": {"type": "integer"}}}
        pi.register_tool("echo", "Echo", schema, lambda call_id, params: str(params["x"]))
        pi.register_tool("bad", "Returns garbage", schema, lambda call_id, params: 42)
        pi.register_tool("read", "My read", schema, lambda call_id, params: "overridden")
    """)
    assert asyncio.run(host.tools["echo"].execute("c", {"x": 3})).content[0].text == "3"
    with pytest.raises(TypeError, match="returned int"):
        asyncio.run(host.tools["bad"].execute("c", {"x": 3}))
    assert asyncio.run(host.tools["read"].execute("c", {})).content[0].text == "overridden"
    assert ("warning", 'Extension "ext" overrides the built-in tool read') in host.notices
    assert [t["source"] for t in runtime.extensions[0].api.get_all_tools()] == ["ext", "ext", "ext"]


def test_commands_run_with_a_command_context_and_failures_are_reported(tmp_path: Path) -> None:
    runtime, host = _load(tmp_path, """
    CALLS = []
    async def hello(args, ctx):
        await ctx.wait_for_idle()
        CALLS.append((args, type(ctx).__name__))
    def activate(pi):
        pi.register_command("hello", hello, "Say hello", completions=lambda p: ["world"])
        pi.register_command("boom", lambda args, ctx: 1 / 0, "Fails")
    """)
    spec = runtime.commands.get("hello")
    assert spec.source == "extension" and spec.get_argument_completions("w") == ["world"]
    asyncio.run(spec.handler("there", None))
    asyncio.run(runtime.commands.get("boom").handler("", None))
    assert runtime.extensions[0].module.CALLS == [("there", "ExtensionCommandContext")]
    assert len(host.errors) == 1 and "failed on command:boom: ZeroDivisionError" in host.errors[0]


def test_same_command_from_two_extensions_gets_suffixes_and_builtins_win(tmp_path: Path) -> None:
    runtime, host = make_runtime(tmp_path)
    runtime.commands.register(CommandSpec("model", "built-in", lambda a, c: None))
    body = """
    def activate(pi):
        pi.register_command("review", lambda a, c: None, "review from {n}")
        pi.register_command("model", lambda a, c: None, "clash")
    """
    for n in ("a", "b", "c"):
        write_ext(tmp_path / "agent" / "extensions", f"{n}.py", body.format(n=n))
    asyncio.run(runtime.load(sources(tmp_path)))
    assert runtime.commands.names() == ["model", "review:1", "review:2", "review:3"]
    assert [runtime.commands.get(f"review:{i}").description for i in (1, 2, 3)] == [  # type: ignore[union-attr]
        "review from a", "review from b", "review from c"]
    assert len(host.errors) == 3 and all("/model is a builtin command" in e for e in host.errors)
    assert [r["source"] for r in runtime.invocable_commands()] == ["extension"] * 3


def test_messages_entries_notifications_artifacts_and_status(tmp_path: Path) -> None:
    ui = ScriptedUI()
    runtime, host = _load(tmp_path, """
    def activate(pi):
        pi.send_message({"customType": "todo", "content": "list"}, deliver_as="followUp", trigger_turn=True)
        pi.send_user_message("go on", deliver_as="steer")
        pi.append_entry("state", {"count": 1})
        pi.notify("note", "warning")
        pi.post_artifact("Todo", "- [ ] x", "markdown")
        pi.set_status("todo", "1 open")
        pi.set_session_name("named")
    """, ui=ui)
    assert host.errors == []
    message, delivery, trigger = host.sent[0]
    assert (message.role, message.custom_type, message.content, delivery, trigger) == (
        "custom", "todo", "list", "follow_up", True)
    assert host.user_messages == [("go on", "steer")]
    entries = [e for e in host.session_manager.get_entries() if e.type == "custom"]
    assert [(e.custom_type, e.data) for e in entries] == [("state", {"count": 1})]
    assert ("warning", "note") in host.notices and host.artifacts == [("Todo", "markdown", "- [ ] x")]
    assert ui.statuses == {"todo": "1 open"} and runtime.statuses == {"todo": "1 open"} and host.name == "named"


def test_send_message_rejects_bad_delivery_and_missing_type(tmp_path: Path) -> None:
    runtime, host = _load(tmp_path, """
    def activate(pi):
        pi.send_message({"content": "no type"})
    """)
    assert len(host.errors) == 1 and "custom_type" in host.errors[0]


def test_exec_runs_without_a_shell_and_reports_failures(tmp_path: Path) -> None:
    runtime, host = _load(tmp_path, "def activate(pi): pass\n")
    pi = runtime.extensions[0].api
    done = asyncio.run(pi.exec(sys.executable, ["-c", "import os,sys; print(os.getcwd()); sys.exit(3)"]))
    assert done.code == 3 and done.stdout.strip() == str(tmp_path / "project") and not done.killed
    missing = asyncio.run(pi.exec("no-such-command-pi-tui"))
    assert missing.code == -1 and "no-such-command-pi-tui" in missing.stderr
    slow = asyncio.run(pi.exec(sys.executable, ["-c", "import time; time.sleep(30)"], timeout_ms=100))
    assert slow.killed


def test_flags_shortcuts_and_the_event_bus(tmp_path: Path) -> None:
    runtime, host = make_runtime(tmp_path)
    rest = runtime.flags.set_unparsed(["--plan", "--ssh=host", "message", "--level=3"])
    write_ext(tmp_path / "agent" / "extensions", "a.py", """
    GOT = []
    def activate(pi):
        pi.register_flag("plan", "Start in plan mode")
        pi.register_flag("ssh", "Remote host", type="string")
        pi.register_flag("unset", "Has a default", default="d")
        pi.register_shortcut("Ctrl+Shift+P", lambda ctx: GOT.append(("key", ctx.is_idle())), "Toggle")
        pi.events.on("ping", lambda data: GOT.append(("bus", data)))
        GOT.append(("flags", pi.get_flag("plan"), pi.get_flag("ssh"), pi.get_flag("--unset")))
    """)
    write_ext(tmp_path / "agent" / "extensions", "b.py", """
    def activate(pi):
        pi.events.emit("ping", 7)
    """)
    asyncio.run(runtime.load(sources(tmp_path)))
    assert rest == ["message"]
    shortcut = runtime.shortcuts.get("ctrl+shift+p")
    assert shortcut is not None and shortcut.description == "Toggle"
    asyncio.run(shortcut.handler(None))
    got = runtime.extensions[0].module.GOT
    assert got == [("flags", True, "host", "d"), ("bus", 7), ("key", True)]
    assert runtime.flags.unknown() == ["level"] and host.errors == []


def test_ctx_session_manager_is_read_only(tmp_path: Path) -> None:
    runtime, host = make_runtime(tmp_path)
    ctx = runtime.context()
    assert ctx.session_manager.get_entries() == []
    with pytest.raises(AttributeError, match="read-only"):
        ctx.session_manager.append_message  # noqa: B018
