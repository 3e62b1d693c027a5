"""anthropic-messages request shape, captured at the loopback server (pi-reference §7.2, §1.9, §4.2).

Ports the deterministic parts of pi's anthropic-eager-tool-input-compat, anthropic-thinking-disable and
cache-retention tests, case 15 of shared/cases/README.md (tool_use ordering and pairing), and compares the
body with the one the real pi 0.73.1 sent in shared/pi-traces/coding/json-anthropic-tool-loop.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.options import SimpleStreamOptions, StreamOptions
from pi_tui.ai.providers import anthropic
from pi_tui.ai.types import (
    AssistantMessage,
    Context,
    ImageContent,
    Model,
    TextContent,
    ThinkingContent,
    Tool,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)

from .replay_server import RecordedRequest, ReplayResponse, ReplayServer

TRACE = Path(__file__).resolve().parents[1] / "fixtures" / "pi-traces" / "coding" / "json-anthropic-tool-loop"
OK_BODY = (
    b'event: message_start\ndata: {"type":"message_start","message":{"id":"m","usage":{"input_tokens":1,"output_tokens":1}}}\n\n'
    b'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}\n\n'
    b'event: message_stop\ndata: {"type":"message_stop"}\n\n'
)
TOOLS = [
    Tool(name="read", description="Read", parameters={"type": "object", "properties": {"path": {"type": "string"}},
                                                      "required": ["path"]}),
    Tool(name="bash", description="Bash", parameters={"type": "object", "properties": {"command": {"type": "string"}}}),
]


def _model(server: ReplayServer, model_id: str = "claude-sonnet-4-5", **kw: Any) -> Model:
    return Model(id=model_id, api="anthropic-messages", provider="anthropic", base_url=server.base_url,
                 max_tokens=64000, **kw)


async def _capture(server: ReplayServer, model: Model, context: Context,
                   options: StreamOptions | SimpleStreamOptions, simple: bool = True) -> RecordedRequest:
    server.enqueue(ReplayResponse(body=OK_BODY))
    fn = anthropic.stream_simple if simple else anthropic.stream
    msg = await fn(model, context, options).result()  # type: ignore[arg-type]
    assert msg.stop_reason == "stop", msg.error_message
    return server.requests[-1]


def _ctx(tools: list[Tool] | None = None, messages: list[Any] | None = None) -> Context:
    return Context(system_prompt="You are helpful.", messages=messages or [UserMessage(content="hi")], tools=tools)


def _opts(**kw: Any) -> SimpleStreamOptions:
    return SimpleStreamOptions(api_key="sk-test", max_retries=0, **kw)


# ------------------------------------------------------------------ headers and eager tool streaming


@pytest.mark.anyio
async def test_headers_and_eager_input_streaming_default(replay_server: ReplayServer) -> None:
    req = await _capture(replay_server, _model(replay_server), _ctx(TOOLS), _opts(headers={"x-extra": "1"}))
    assert req.path == "/v1/messages"
    h = req.headers
    assert h["x-api-key"] == "sk-test"
    assert h["anthropic-version"] == "2023-06-01"
    assert h["anthropic-dangerous-direct-browser-access"] == "true"
    assert h["anthropic-beta"] == "interleaved-thinking-2025-05-14"
    assert h["x-extra"] == "1"
    body = req.json()
    assert [t.get("eager_input_streaming") for t in body["tools"]] == [True, True]
    assert body["tools"][0]["input_schema"] == {"type": "object", "properties": {"path": {"type": "string"}},
                                                "required": ["path"]}
    assert body["tools"][1]["input_schema"]["required"] == []


@pytest.mark.anyio
async def test_fine_grained_beta_when_eager_unsupported(replay_server: ReplayServer) -> None:
    model = _model(replay_server, compat={"supportsEagerToolInputStreaming": False})
    req = await _capture(replay_server, model, _ctx(TOOLS), _opts())
    assert req.headers["anthropic-beta"] == "fine-grained-tool-streaming-2025-05-14,interleaved-thinking-2025-05-14"
    assert all("eager_input_streaming" not in t for t in req.json()["tools"])
    req = await _capture(replay_server, model, _ctx(None), _opts())
    assert "fine-grained" not in req.headers.get("anthropic-beta", "")


@pytest.mark.anyio
async def test_adaptive_model_has_no_interleaved_beta(replay_server: ReplayServer) -> None:
    req = await _capture(replay_server, _model(replay_server, "claude-opus-4-7"), _ctx(), _opts())
    assert "anthropic-beta" not in req.headers


@pytest.mark.anyio
async def test_oauth_token_stealth_mode(replay_server: ReplayServer) -> None:
    tools = [Tool(name="todowrite", description="t"), Tool(name="find", description="f")]
    opts = SimpleStreamOptions(api_key="sk-ant-oat01-abc", max_retries=0)
    req = await _capture(replay_server, _model(replay_server), _ctx(tools), opts)
    assert req.headers["authorization"] == "Bearer sk-ant-oat01-abc"
    assert "x-api-key" not in req.headers
    assert req.headers["anthropic-beta"].startswith("claude-code-20250219,oauth-2025-04-20")
    assert req.headers["x-app"] == "cli"
    body = req.json()
    assert body["system"][0]["text"] == "You are Claude Code, Anthropic's official CLI for Claude."
    assert body["system"][1]["text"] == "You are helpful."
    assert [t["name"] for t in body["tools"]] == ["TodoWrite", "find"]


# ------------------------------------------------------------------ thinking (anthropic-thinking-disable)


@pytest.mark.anyio
async def test_thinking_disabled_when_reasoning_off(replay_server: ReplayServer) -> None:
    for model_id in ("claude-sonnet-4-5", "claude-opus-4-6", "claude-opus-4-7"):
        req = await _capture(replay_server, _model(replay_server, model_id, reasoning=True), _ctx(),
                             _opts(temperature=0.5))
        body = req.json()
        assert body["thinking"] == {"type": "disabled"}, model_id
        # Opus 4.7 deprecated temperature (pi 0.78.1; DIFFERENCES P18)
        assert body.get("temperature") == (None if model_id == "claude-opus-4-7" else 0.5), model_id
        assert "output_config" not in body


@pytest.mark.anyio
async def test_budget_thinking(replay_server: ReplayServer) -> None:
    req = await _capture(replay_server, _model(replay_server, reasoning=True), _ctx(),
                         _opts(reasoning="medium", temperature=0.5))
    body = req.json()
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 8192, "display": "summarized"}
    assert body["max_tokens"] == 32000 + 8192
    assert "temperature" not in body  # temperature is incompatible with thinking


@pytest.mark.anyio
async def test_adaptive_thinking_and_xhigh_effort(replay_server: ReplayServer) -> None:
    model = _model(replay_server, "claude-opus-4-7", reasoning=True, thinking_level_map={"xhigh": "xhigh"})
    body = (await _capture(replay_server, model, _ctx(), _opts(reasoning="high"))).json()
    assert body["thinking"] == {"type": "adaptive", "display": "summarized"}
    assert body["output_config"] == {"effort": "high"}
    body = (await _capture(replay_server, model, _ctx(), _opts(reasoning="xhigh"))).json()
    assert body["output_config"] == {"effort": "xhigh"}
    body = (await _capture(replay_server, model, _ctx(), _opts(reasoning="minimal"))).json()
    assert body["output_config"] == {"effort": "low"}


@pytest.mark.anyio
async def test_non_reasoning_model_sends_no_thinking(replay_server: ReplayServer) -> None:
    body = (await _capture(replay_server, _model(replay_server), _ctx(), _opts())).json()
    assert "thinking" not in body


@pytest.mark.anyio
async def test_direct_stream_default_max_tokens(replay_server: ReplayServer) -> None:
    model = _model(replay_server)
    body = (await _capture(replay_server, model, _ctx(), StreamOptions(api_key="k", max_retries=0), simple=False)).json()
    assert body["max_tokens"] == 64000 // 3


# ------------------------------------------------------------------ cache retention


@pytest.mark.anyio
async def test_cache_control_short_default(replay_server: ReplayServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PI_CACHE_RETENTION", raising=False)
    body = (await _capture(replay_server, _model(replay_server), _ctx(TOOLS), _opts())).json()
    assert body["system"] == [{"type": "text", "text": "You are helpful.", "cache_control": {"type": "ephemeral"}}]
    assert "cache_control" not in body["tools"][0]
    assert body["tools"][-1]["cache_control"] == {"type": "ephemeral"}
    # string user message converted to a text block carrying cache_control
    assert body["messages"] == [{"role": "user", "content": [
        {"type": "text", "text": "hi", "cache_control": {"type": "ephemeral"}}]}]


@pytest.mark.anyio
async def test_cache_control_long_ttl(replay_server: ReplayServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PI_CACHE_RETENTION", raising=False)
    body = (await _capture(replay_server, _model(replay_server), _ctx(TOOLS), _opts(cache_retention="long"))).json()
    assert body["system"][0]["cache_control"] == {"type": "ephemeral", "ttl": "1h"}
    assert body["tools"][-1]["cache_control"] == {"type": "ephemeral", "ttl": "1h"}
    assert body["messages"][-1]["content"][-1]["cache_control"] == {"type": "ephemeral", "ttl": "1h"}
    monkeypatch.setenv("PI_CACHE_RETENTION", "long")
    body = (await _capture(replay_server, _model(replay_server), _ctx(), _opts())).json()
    assert body["system"][0]["cache_control"]["ttl"] == "1h"
    model = _model(replay_server, compat={"supportsLongCacheRetention": False})
    body = (await _capture(replay_server, model, _ctx(), _opts(cache_retention="long"))).json()
    assert body["system"][0]["cache_control"] == {"type": "ephemeral"}


@pytest.mark.anyio
async def test_cache_retention_none(replay_server: ReplayServer) -> None:
    body = (await _capture(replay_server, _model(replay_server), _ctx(TOOLS), _opts(cache_retention="none"))).json()
    assert "cache_control" not in json.dumps(body)
    assert body["messages"] == [{"role": "user", "content": "hi"}]


# ------------------------------------------------------------------ messages, tool results, case 15


def pairing_violations(messages: list[dict[str, Any]]) -> list[str]:
    """Anthropic's tool_use/tool_result pairing rule, as a local validator.

    In an assistant message no text/thinking block may follow a tool_use block; every tool_use id must be
    answered by a tool_result block in the user message right after it, and tool_result blocks come first
    in that message; no tool_result refers to an unknown id.
    """
    problems: list[str] = []
    for i, msg in enumerate(messages):
        content = msg["content"] if isinstance(msg["content"], list) else []
        if msg["role"] == "assistant":
            seen_tool = False
            ids = []
            for block in content:
                if block["type"] == "tool_use":
                    seen_tool = True
                    ids.append(block["id"])
                elif seen_tool:
                    problems.append(f"message {i}: {block['type']} after tool_use")
            if ids:
                nxt = messages[i + 1] if i + 1 < len(messages) else None
                nxt_content = nxt["content"] if nxt and isinstance(nxt["content"], list) else []
                lead = []
                for block in nxt_content:
                    if block.get("type") != "tool_result":
                        break
                    lead.append(block["tool_use_id"])
                if nxt is None or nxt["role"] != "user" or sorted(lead) != sorted(ids):
                    problems.append(f"message {i}: tool_use ids {ids} not answered first in the next message")
        elif msg["role"] == "user" and i > 0:
            prev = messages[i - 1]
            prev_ids = {b["id"] for b in prev["content"] if isinstance(prev["content"], list) and b["type"] == "tool_use"}
            for block in content:
                if block.get("type") == "tool_result" and block["tool_use_id"] not in prev_ids:
                    problems.append(f"message {i}: tool_result for unknown id {block['tool_use_id']}")
    return problems


def _assistant(*content: Any, stop: str = "toolUse", model_id: str = "claude-sonnet-4-5") -> AssistantMessage:
    return AssistantMessage(content=list(content), api="anthropic-messages", provider="anthropic", model=model_id,
                            stop_reason=stop)  # type: ignore[arg-type]


@pytest.mark.anyio
async def test_case15_text_after_tool_use_moved_and_orphans_answered(replay_server: ReplayServer) -> None:
    call_a = ToolCall(id="toolu_A", name="bash", arguments={"command": "sleep 30"})
    call_b = ToolCall(id="toolu_B", name="read", arguments={"path": "x.txt"})
    messages = [
        UserMessage(content="run it"),
        _assistant(TextContent(text="ok"), call_a, TextContent(text="trailing note"),
                   ThinkingContent(thinking="more", thinking_signature="sig"), call_b),
        UserMessage(content="hello"),
    ]
    body = (await _capture(replay_server, _model(replay_server), _ctx(TOOLS, messages), _opts())).json()
    msgs = body["messages"]
    assert [b["type"] for b in msgs[1]["content"]] == ["text", "text", "thinking", "tool_use", "tool_use"]
    assert [b.get("text") for b in msgs[1]["content"][:2]] == ["ok", "trailing note"]
    results = msgs[2]["content"]
    assert [(r["tool_use_id"], r["is_error"]) for r in results] == [("toolu_A", True), ("toolu_B", True)]
    assert results[0]["content"] == "No result provided"
    assert msgs[3]["content"][0]["text"] == "hello"
    assert pairing_violations(msgs) == []


@pytest.mark.anyio
async def test_tool_results_merged_with_images(replay_server: ReplayServer) -> None:
    model = _model(replay_server, input=["text", "image"])
    messages = [
        UserMessage(content=[TextContent(text="  "), TextContent(text="look"), ImageContent(data="AAAA", mime_type="image/png")]),
        _assistant(ToolCall(id="t1", name="read", arguments={}), ToolCall(id="t|2", name="read", arguments={}),
                   ToolCall(id="t3", name="read", arguments={}), model_id="other-model"),
        ToolResultMessage(tool_call_id="t1", tool_name="read", content=[TextContent(text="a"), TextContent(text="b")]),
        ToolResultMessage(tool_call_id="t|2", tool_name="read", content=[ImageContent(data="BBBB", mime_type="image/png")],
                          is_error=True),
        ToolResultMessage(tool_call_id="t3", tool_name="read",
                          content=[TextContent(text="c"), ImageContent(data="CCCC", mime_type="image/jpeg")]),
    ]
    body = (await _capture(replay_server, model, _ctx(TOOLS, messages), _opts(cache_retention="none"))).json()
    msgs = body["messages"]
    assert msgs[0]["content"] == [{"type": "text", "text": "look"},
                                  {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"}}]
    assert [b["id"] for b in msgs[1]["content"]] == ["t1", "t_2", "t3"]  # other model's id normalised
    assert len(msgs) == 3
    r1, r2, r3 = msgs[2]["content"]
    assert r1 == {"type": "tool_result", "tool_use_id": "t1", "content": "a\nb", "is_error": False}
    assert r2["tool_use_id"] == "t_2" and r2["is_error"] is True
    assert r2["content"][0] == {"type": "text", "text": "(see attached image)"}
    assert r3["content"][1]["source"]["media_type"] == "image/jpeg"
    assert pairing_violations(msgs) == []


@pytest.mark.anyio
async def test_assistant_thinking_replay_rules(replay_server: ReplayServer) -> None:
    messages = [
        UserMessage(content="q"),
        _assistant(ThinkingContent(thinking="signed", thinking_signature="S1"),
                   ThinkingContent(thinking="unsigned"),
                   ThinkingContent(thinking="[Reasoning redacted]", thinking_signature="DATA", redacted=True),
                   ThinkingContent(thinking="   ", thinking_signature="S2"),
                   TextContent(text=" "), TextContent(text="answer"), stop="stop"),
        UserMessage(content="next"),
    ]
    body = (await _capture(replay_server, _model(replay_server), _ctx(None, messages), _opts())).json()
    assert body["messages"][1]["content"] == [
        {"type": "thinking", "thinking": "signed", "signature": "S1"},
        {"type": "text", "text": "unsigned"},
        {"type": "redacted_thinking", "data": "DATA"},
        {"type": "thinking", "thinking": "   ", "signature": "S2"},  # signed: kept even blank (pi 0.80.6)
        {"type": "text", "text": "answer"},
    ]


def _trace_messages() -> list[dict[str, Any]]:
    entries = [json.loads(line) for line in (TRACE / "session.jsonl").read_text().splitlines() if line.strip()]
    return [e["message"] for e in entries if e.get("type") == "message"]


@pytest.mark.anyio
async def test_body_matches_pi_trace(replay_server: ReplayServer) -> None:
    """Request 002 of the json-anthropic-tool-loop trace, rebuilt from the session and compared whole."""
    expected = json.loads((TRACE / "requests" / "002.json").read_text())
    pi_body = expected["body"]
    tools = [Tool(name=t["name"], description=t["description"], parameters=t["input_schema"]) for t in pi_body["tools"]]
    messages = _trace_messages()[:4]  # user, assistant (text + 2 tool calls), 2 tool results
    context = Context(system_prompt=pi_body["system"][0]["text"], messages=messages, tools=tools)
    model = Model(id="mock-model", api="anthropic-messages", provider="mock-anthropic", base_url=replay_server.base_url,
                  reasoning=False, context_window=128000, max_tokens=16384)
    req = await _capture(replay_server, model, context, SimpleStreamOptions(api_key="test-key", max_retries=0))
    assert req.json() == pi_body
    for name in ("anthropic-beta", "anthropic-version", "anthropic-dangerous-direct-browser-access", "x-api-key"):
        assert req.headers[name] == expected["headers"][name], name


@pytest.mark.anyio
async def test_stray_and_late_tool_results_become_text(replay_server: ReplayServer) -> None:
    """A result whose call was already answered (synthetic) or never made cannot be a tool_result."""
    messages = [
        UserMessage(content="q"),
        _assistant(TextContent(text="a"), ToolCall(id="A", name="f")),
        UserMessage(content="hello"),
        ToolResultMessage(tool_call_id="A", tool_name="f", content=[TextContent(text="late")]),
        ToolResultMessage(tool_call_id="ZZ", tool_name="g", content=[TextContent(text="stray")], is_error=True),
        _assistant(ToolCall(id="B", name="f")),
        ToolResultMessage(tool_call_id="B", tool_name="f", content=[TextContent(text="b1")]),
        ToolResultMessage(tool_call_id="B", tool_name="f", content=[TextContent(text="b2")]),
    ]
    body = (await _capture(replay_server, _model(replay_server), _ctx(TOOLS, messages), _opts())).json()
    msgs = body["messages"]
    assert pairing_violations(msgs) == []
    # the late result of A is moved up to its call (tool_pairing.py; pi sent "No result provided" here and the
    # real result after "hello" as an orphan, earendil-works/pi#8667); the stray and repeated ones become text
    assert msgs[2]["content"][0]["content"] == "late"
    assert msgs[3]["content"] == "hello"
    assert msgs[4]["content"][0]["text"].startswith("(tool error result of g [ZZ] without a matching call)")
    assert [b["type"] for b in msgs[6]["content"]] == ["tool_result"]
    assert msgs[7]["content"][0]["text"] == "(tool result of f [B] without a matching call)\nb2"


@pytest.mark.anyio
async def test_tool_choice_and_metadata(replay_server: ReplayServer) -> None:
    body = (await _capture(replay_server, _model(replay_server), _ctx(TOOLS),
                           _opts(extra={"tool_choice": "any"}, metadata={"user_id": "u1", "other": 1}))).json()
    assert body["tool_choice"] == {"type": "any"}
    assert body["metadata"] == {"user_id": "u1"}
    body = (await _capture(replay_server, _model(replay_server), _ctx(TOOLS),
                           _opts(extra={"tool_choice": {"type": "tool", "name": "read"}}))).json()
    assert body["tool_choice"] == {"type": "tool", "name": "read"}
