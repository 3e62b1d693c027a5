"""What reaches the wire: UI-only messages never (property test), orphaned tool calls get results (case 15).

Requests go through the real openai-completions / anthropic-messages providers to a loopback scripted
server (tests/conformance/mock_llm_server.py) that records every request body.
"""

from __future__ import annotations

import asyncio
import json
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message, faux_tool_call
from pi_tui.ai.types import Model
from pi_tui.coding.agent_session.compaction import CompactionError
from pi_tui.coding.session.session_manager import SessionManager

from .helpers import EchoTool, make_session

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "conformance"))
from mock_llm_server import MockLlmServer  # noqa: E402


def _model(api: str, port: int) -> Model:
    if api == "anthropic-messages":
        return Model(id="mock-model", api=api, provider="mock-anthropic", base_url=f"http://127.0.0.1:{port}",
                     max_tokens=1024)
    return Model(id="mock-model", api=api, provider="mock", base_url=f"http://127.0.0.1:{port}/v1", max_tokens=1024)


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


operation = st.one_of(
    st.tuples(st.just("notify"), st.sampled_from(["info", "warning", "error"]), st.text(min_size=1, max_size=40)),
    st.tuples(st.just("artifact"), st.sampled_from(["markdown", "code", "diff", "text", "image"]),
              st.text(min_size=1, max_size=80)),
    st.tuples(st.just("prompt"), st.just(""), st.text(min_size=1, max_size=30)),
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(operation, min_size=1, max_size=8), api=st.sampled_from(["openai-completions", "anthropic-messages"]))
def test_ui_only_text_never_reaches_a_provider(tmp_path_factory: pytest.TempPathFactory, ops: list[Any], api: str) -> None:
    tmp_path = tmp_path_factory.mktemp("ui-only")
    markers: list[str] = []
    prompts = sum(1 for op in ops if op[0] == "prompt") + 1
    script = [{"type": "text", "text": f"reply {i}"} for i in range(prompts)]
    script += [{"type": "text", "text": "## Goal\nsummary"}, {"type": "text", "text": "## Original Request\nx"}]

    async def run(port: int) -> None:
        session = make_session(tmp_path, _model(api, port), persist=False)
        for kind, level, text in ops:
            marker = f"UIONLY-{uuid.uuid4().hex}-{text}"
            if kind == "notify":
                markers.append(marker)
                session.notify(level, marker)
            elif kind == "artifact":
                markers.append(marker)
                session.add_artifact(f"title {marker}", level, marker, path=f"{marker}.txt")
            else:
                await session.prompt(text)
        await session.prompt("final")
        session.settings.compaction.keep_recent_tokens = 1
        try:
            await session.compact()  # the summariser's request must not carry UI-only text either
        except CompactionError:
            pass

    with MockLlmServer(script) as server:
        asyncio.run(run(server.port))
        bodies = [r["body"] for r in server.requests]
    assert prompts < len(bodies) <= prompts + 2
    sent = [s for body in bodies for s in _strings(body)]
    raw = [json.dumps(body, ensure_ascii=False) for body in bodies]
    for marker in markers:
        assert not any(marker in s for s in sent), marker
        assert not any(marker in r for r in raw), marker


LEGACY_SESSION = [
    {"type": "session", "id": "legacy-1", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/tmp"},
    {"type": "message", "timestamp": "2025-01-01T00:00:01.000Z",
     "message": {"role": "user", "content": [{"type": "text", "text": "run it"}], "timestamp": 1}},
    {"type": "message", "timestamp": "2025-01-01T00:00:02.000Z",
     "message": {"role": "assistant", "content": [{"type": "text", "text": "ok"},
                                                  {"type": "toolCall", "id": "call_C", "name": "bash",
                                                   "arguments": {"command": "sleep 30"}}],
                 "api": "openai-completions", "provider": "mock", "model": "mock-model",
                 "usage": {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2,
                           "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}},
                 "stopReason": "toolUse", "timestamp": 2}},
]


def _anthropic_pairing_ok(messages: list[dict[str, Any]]) -> bool:
    """Anthropic's rule: every tool_use is answered by a tool_result at the start of the next user message."""
    for index, message in enumerate(messages):
        content = message.get("content")
        if message.get("role") != "assistant" or not isinstance(content, list):
            continue
        ids = [b["id"] for b in content if b.get("type") == "tool_use"]
        if not ids:
            continue
        if content[-1].get("type") != "tool_use":
            return False  # nothing may follow the last tool_use inside the assistant message
        following = messages[index + 1] if index + 1 < len(messages) else None
        if following is None or following.get("role") != "user":
            return False
        results = [b.get("tool_use_id") for b in following["content"] if b.get("type") == "tool_result"]
        if results[: len(ids)] != ids:
            return False
    return True


@pytest.mark.parametrize("api", ["openai-completions", "anthropic-messages"])
def test_case15_legacy_session_with_orphaned_tool_call(tmp_path: Path, api: str) -> None:
    path = tmp_path / "legacy.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in LEGACY_SESSION), encoding="utf-8")
    with MockLlmServer([{"type": "text", "text": "hi back"}]) as server:
        session = make_session(tmp_path, _model(api, server.port), manager=SessionManager.open(path))
        asyncio.run(session.prompt("hello"))
        body = server.requests[0]["body"]
    messages = body["messages"]
    if api == "openai-completions":
        roles = [m["role"] for m in messages]
        assert roles == ["system", "user", "assistant", "tool", "user"]
        assert messages[3]["tool_call_id"] == "call_C" and "No result provided" in json.dumps(messages[3])
        assert messages[4]["content"][0]["text"] == "hello"
    else:
        assert _anthropic_pairing_ok(messages)
        results = [b for m in messages if m["role"] == "user" for b in m["content"] if b.get("type") == "tool_result"]
        assert [(r["tool_use_id"], r["is_error"]) for r in results] == [("call_C", True)]
        assert messages[-1]["role"] == "user"
        assert any(b.get("type") == "text" and b.get("text") == "hello" for b in messages[-1]["content"])


@pytest.mark.anyio
async def test_case15_abort_while_tools_run_gives_every_call_a_result(tmp_path: Path, faux: FauxProvider) -> None:
    class SlowTool(EchoTool):
        async def execute(self, tool_call_id: str, params: Any, signal: Any = None, on_update: Any = None) -> Any:
            await signal.wait()
            raise RuntimeError("Command aborted")

    seen: list[Any] = []

    def capture(context: Any, options: Any, state: Any, model: Any) -> Any:
        seen.append(context)
        return faux_assistant_message("fine")

    faux.set_responses([
        faux_assistant_message([faux_tool_call("slow", {"text": "a"}, id="A"), faux_tool_call("echo", {"text": "b"}, id="B")],
                               stop_reason="toolUse"),
        capture,  # the aborted run's next call (pi makes it too; it ends aborted, observation 9)
        capture,
    ])
    session = make_session(tmp_path, faux.get_model(), tools=[SlowTool(name="slow"), EchoTool()])
    started = asyncio.Event()
    session.subscribe(lambda e: started.set() if e.type == "tool_execution_start" else None)
    run = asyncio.create_task(session.prompt("run it"))
    await started.wait()
    await session.abort()
    await run
    await session.prompt("hello")
    messages = seen[-1].messages
    roles = [m.role for m in messages]
    assistant_index = roles.index("assistant")
    results = messages[assistant_index + 1 : assistant_index + 3]
    assert [r.tool_call_id for r in results] == ["A", "B"] or {r.tool_call_id for r in results} == {"A", "B"}
    assert all(r.role == "toolResult" for r in results)
    assert messages[-1].role == "user"
