"""Model/thinking management, context usage and stats, session switching and export (pi-reference §3.4, §3.7, §3.8)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message, register_faux_provider
from pi_tui.coding.modes.json_mode import JsonLineWriter
from pi_tui.coding.modes.rpc_mode import RpcServer, split_lf_lines

from .helpers import Recorder, StaticAccess, make_session, session_lines

pytestmark = pytest.mark.anyio


async def test_set_model_cycle_and_thinking(tmp_path: Path) -> None:
    faux = register_faux_provider(token_size={"min": 2, "max": 2}, models=[
        {"id": "plain", "reasoning": False}, {"id": "thinker", "reasoning": True}])
    try:
        plain, thinker = faux.get_model("plain"), faux.get_model("thinker")
        assert plain is not None and thinker is not None
        locked = thinker.model_copy(update={"provider": "locked"})
        session = make_session(tmp_path, plain, access=StaticAccess([plain, thinker, locked], keyless={"locked"}))
        rec = Recorder(session)
        assert session.cycle_thinking_level() is None  # no reasoning: nothing to cycle
        session.set_model(thinker)
        assert session.thinking_level == "medium"  # the old model had no thinking → settings default
        assert rec.of("model_changed")[0] == {"type": "model_changed", "provider": faux.provider, "modelId": "thinker",
                                              "reason": "set"}
        assert rec.of("thinking_level_changed") == [{"type": "thinking_level_changed", "level": "medium"}]
        assert session.cycle_thinking_level() == "high"
        session.set_thinking_level("xhigh")  # unsupported → clamped down
        assert session.thinking_level == "high"
        with pytest.raises(ValueError, match="No API key for locked/thinker"):
            session.set_model(locked)
        result = session.cycle_model()
        assert result is not None and result["model"].id == "plain" and session.thinking_level == "off"
        types = [line["type"] for line in session_lines_or_entries(session)]
        assert types.count("model_change") == 3 and "thinking_level_change" in types
        assert any(m.role == "notification" and "thinker" in m.text for m in session.messages)
    finally:
        faux.unregister()


def session_lines_or_entries(session: object) -> list[dict[str, object]]:
    return [e.to_json_dict() for e in session.session_manager.get_entries()]  # type: ignore[attr-defined]


async def test_context_usage_and_stats(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([faux_assistant_message("hello")])
    session = make_session(tmp_path, faux.get_model())
    await session.prompt("hi")
    usage = session.get_context_usage()
    last = session.messages[-1].usage
    assert usage is not None and usage["tokens"] == last.total_tokens
    assert usage["percent"] == pytest.approx(last.total_tokens / 128000 * 100)
    stats = session.get_session_stats()
    assert (stats["userMessages"], stats["assistantMessages"], stats["toolCalls"]) == (1, 1, 0)
    assert stats["tokens"]["input"] == last.input and stats["sessionId"] == session.session_id


async def test_new_switch_fork_clone_export(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([faux_assistant_message("one"), faux_assistant_message("two")])
    session = make_session(tmp_path, faux.get_model())
    await session.prompt("first")
    await session.prompt("second")
    first_file = session.session_file
    forkable = session.get_fork_messages()
    assert [f["text"] for f in forkable] == ["first", "second"]
    result = await session.fork(forkable[1]["entryId"])
    assert result == {"text": "second", "cancelled": False}
    assert [m.role for m in session.messages] == ["user", "assistant"] and session.session_file != first_file
    await session.new_session()
    assert session.messages == [] and session.session_file not in (first_file, None)
    assert first_file is not None
    await session.switch_session(first_file)
    assert [m.role for m in session.messages] == ["user", "assistant", "user", "assistant"]
    markdown = _read(session.export_markdown(str(tmp_path / "out.md")))
    assert "## User" in markdown and "two" in markdown
    html = _read(session.export_html(str(tmp_path / "out.html")))
    assert html.startswith("<!doctype html>") and "two" in html
    session.set_session_name("  My session  ")
    assert session.session_name == "My session"
    with pytest.raises(ValueError, match="Invalid entry ID"):
        await session.fork("nope")


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as handle:
        return handle.read()


class _Sink:
    def __init__(self) -> None:
        self.data = bytearray()

    def write(self, data: bytes) -> int:
        self.data.extend(data)
        return len(data)

    def flush(self) -> None:
        return None

    def lines(self) -> list[dict[str, object]]:
        return [json.loads(line) for line in bytes(self.data).split(b"\n") if line]


def test_split_lf_lines_keeps_u2028_and_strips_cr() -> None:
    buffer = bytearray('{"a":"x\u2028y"}\r\n{"b":1}\n{"c"'.encode())
    assert split_lf_lines(buffer) == ['{"a":"x\u2028y"}'.encode(), b'{"b":1}']
    assert bytes(buffer) == b'{"c"'


async def test_rpc_commands_in_process(tmp_path: Path, faux: FauxProvider) -> None:
    import asyncio

    faux.set_responses([faux_assistant_message("answer"), faux_assistant_message("## Goal\nx"),
                        faux_assistant_message("## Original Request\ny")])
    session = make_session(tmp_path, faux.get_model())
    sink = _Sink()
    server = RpcServer(session, JsonLineWriter(sink))  # type: ignore[arg-type]

    async def call(command: dict[str, object]) -> dict[str, object]:
        server.handle_line(json.dumps(command).encode())
        await server.drain()
        return next(m for m in reversed(sink.lines()) if m.get("type") == "response" and m.get("id") == command["id"])

    assert (await call({"id": "1", "type": "prompt", "message": "hi"}))["success"] is True
    assert (await call({"id": "2", "type": "get_last_assistant_text"}))["data"] == {"text": "answer"}
    assert (await call({"id": "3", "type": "get_available_models"}))["data"]["models"][0]["id"] == "faux-1"
    assert (await call({"id": "4", "type": "cycle_model"})).get("data") is None
    assert (await call({"id": "5", "type": "set_steering_mode", "mode": "all"}))["success"] is True
    assert session.agent.steering_mode == "all"
    bad = await call({"id": "6", "type": "set_follow_up_mode", "mode": "sometimes"})
    assert bad["success"] is False and "Invalid mode" in str(bad["error"])
    assert (await call({"id": "7", "type": "bash", "command": "echo rpc"}))["data"] == {
        "output": "rpc\n", "cancelled": False, "truncated": False, "exitCode": 0}
    stats = (await call({"id": "8", "type": "get_session_stats"}))["data"]
    assert stats["userMessages"] == 1  # type: ignore[index]
    session.settings.compaction.keep_recent_tokens = 1
    compacted = await call({"id": "9", "type": "compact"})
    assert compacted["success"] is True and "firstKeptEntryId" in compacted["data"]  # type: ignore[operator]
    missing = await call({"id": "10", "type": "set_model", "provider": "x", "modelId": "y"})
    assert missing["error"] == "Model not found: x/y"
    assert (await call({"id": "11", "type": "set_auto_retry", "enabled": False}))["success"] is True
    assert session.settings.retry.enabled is False
    await asyncio.sleep(0)
    assert [line["type"] for line in session_lines(session)].count("compaction") == 1
