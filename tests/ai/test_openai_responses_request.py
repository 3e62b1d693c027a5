"""openai-responses request shape, captured at the loopback server (pi-reference §7.3, §1.15, §4.2).

Ports the deterministic parts of pi's openai-responses-copilot-provider, openai-responses-foreign-toolcall-id
and cache-retention (Responses) tests, plus input-item conversion.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from pi_tui.ai.hash import short_hash
from pi_tui.ai.options import SimpleStreamOptions
from pi_tui.ai.providers import openai_responses
from pi_tui.ai.providers._responses_shared import make_responses_id_normalizer
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

OK_BODY = b'event: response.completed\ndata: {"type":"response.completed","response":{"status":"completed"}}\n\n'
TOOLS = [Tool(name="read", description="Read", parameters={"type": "object", "properties": {"path": {"type": "string"}}})]


def _model(server: ReplayServer, provider: str = "openai", model_id: str = "gpt-5", **kw: Any) -> Model:
    return Model(id=model_id, api="openai-responses", provider=provider, base_url=server.base_url, **kw)


async def _capture(server: ReplayServer, model: Model, context: Context, **opts: Any) -> RecordedRequest:
    server.enqueue(ReplayResponse(body=OK_BODY))
    options = SimpleStreamOptions(api_key="sk-test", max_retries=0, **opts)
    msg = await openai_responses.stream_simple(model, context, options).result()
    assert msg.stop_reason == "stop", msg.error_message
    return server.requests[-1]


def _ctx(messages: list[Any] | None = None, tools: list[Tool] | None = None) -> Context:
    return Context(system_prompt="sys", messages=messages or [UserMessage(content="hi")], tools=tools)


@pytest.mark.anyio
async def test_basic_body_and_auth(replay_server: ReplayServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PI_CACHE_RETENTION", raising=False)
    req = await _capture(replay_server, _model(replay_server), _ctx(tools=TOOLS), temperature=0.2)
    assert req.path == "/responses"
    assert req.headers["authorization"] == "Bearer sk-test"
    body = req.json()
    assert body["model"] == "gpt-5" and body["stream"] is True and body["store"] is False
    assert body["input"][0] == {"role": "system", "content": "sys"}
    assert body["input"][1] == {"role": "user", "content": [{"type": "input_text", "text": "hi"}]}
    assert body["tools"] == [{"type": "function", "name": "read", "description": "Read",
                              "parameters": TOOLS[0].parameters, "strict": False}]
    assert body["max_output_tokens"] == 16384 and body["temperature"] == 0.2
    assert "prompt_cache_key" not in body and "prompt_cache_retention" not in body


@pytest.mark.anyio
async def test_reasoning_effort_rules(replay_server: ReplayServer) -> None:
    model = _model(replay_server, reasoning=True)
    body = (await _capture(replay_server, model, _ctx())).json()
    assert body["reasoning"] == {"effort": "none"}
    assert body["input"][0]["role"] == "developer"
    body = (await _capture(replay_server, model, _ctx(), reasoning="high")).json()
    assert body["reasoning"] == {"effort": "high", "summary": "auto"}
    assert body["include"] == ["reasoning.encrypted_content"]
    mapped = _model(replay_server, reasoning=True, thinking_level_map={"off": None, "xhigh": "xhigh"})
    body = (await _capture(replay_server, mapped, _ctx())).json()
    assert "reasoning" not in body  # off mapped to null: nothing sent
    body = (await _capture(replay_server, mapped, _ctx(), reasoning="xhigh")).json()
    assert body["reasoning"]["effort"] == "xhigh"


@pytest.mark.anyio
async def test_copilot_no_reasoning_and_dynamic_headers(replay_server: ReplayServer) -> None:
    model = _model(replay_server, provider="github-copilot", reasoning=True)
    req = await _capture(replay_server, model, _ctx())
    assert "reasoning" not in req.json()
    assert req.headers["x-initiator"] == "user"
    assert req.headers["openai-intent"] == "conversation-edits"


@pytest.mark.anyio
async def test_session_headers_and_cache_key(replay_server: ReplayServer) -> None:
    req = await _capture(replay_server, _model(replay_server), _ctx(), session_id="sess-1")
    assert req.headers["session_id"] == "sess-1"
    assert req.headers["x-client-request-id"] == "sess-1"
    assert req.json()["prompt_cache_key"] == "sess-1"
    model = _model(replay_server, compat={"sendSessionIdHeader": False})
    req = await _capture(replay_server, model, _ctx(), session_id="sess-1")
    assert "session_id" not in req.headers and req.headers["x-client-request-id"] == "sess-1"
    req = await _capture(replay_server, _model(replay_server), _ctx(), session_id="sess-1",
                         headers={"session_id": "explicit"})
    assert req.headers["session_id"] == "explicit"
    req = await _capture(replay_server, _model(replay_server), _ctx(), session_id="sess-1", cache_retention="none")
    assert "session_id" not in req.headers and "x-client-request-id" not in req.headers
    assert "prompt_cache_key" not in req.json()


@pytest.mark.anyio
async def test_long_retention(replay_server: ReplayServer, monkeypatch: pytest.MonkeyPatch) -> None:
    body = (await _capture(replay_server, _model(replay_server), _ctx(), cache_retention="long")).json()
    assert body["prompt_cache_retention"] == "24h"
    model = _model(replay_server, compat={"supportsLongCacheRetention": False})
    body = (await _capture(replay_server, model, _ctx(), cache_retention="long")).json()
    assert "prompt_cache_retention" not in body
    monkeypatch.setenv("PI_CACHE_RETENTION", "long")
    body = (await _capture(replay_server, _model(replay_server), _ctx())).json()
    assert body["prompt_cache_retention"] == "24h"


def _assistant(provider: str, model_id: str, api: str, *content: Any) -> AssistantMessage:
    return AssistantMessage(content=list(content), api=api, provider=provider, model=model_id, stop_reason="toolUse")


@pytest.mark.anyio
async def test_input_items_for_history(replay_server: ReplayServer) -> None:
    reasoning_item = {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "ENC"}
    history = [
        UserMessage(content=[TextContent(text="look"), ImageContent(data="AAAA", mime_type="image/png")]),
        _assistant("openai", "gpt-5", "openai-responses",
                   ThinkingContent(thinking="t", thinking_signature=json.dumps(reasoning_item)),
                   TextContent(text="calling", text_signature='{"v":1,"id":"msg_abc","phase":"commentary"}'),
                   ToolCall(id="call_1|fc_1", name="read", arguments={"path": "é"})),
        ToolResultMessage(tool_call_id="call_1|fc_1", tool_name="read",
                          content=[TextContent(text="ok"), ImageContent(data="BBBB", mime_type="image/png")]),
    ]
    model = _model(replay_server, input=["text", "image"])
    items = (await _capture(replay_server, model, _ctx(history))).json()["input"]
    assert items[1]["content"][1] == {"type": "input_image", "detail": "auto", "image_url": "data:image/png;base64,AAAA"}
    assert items[2] == reasoning_item
    assert items[3] == {"type": "message", "role": "assistant", "status": "completed", "id": "msg_abc",
                        "phase": "commentary", "content": [{"type": "output_text", "text": "calling", "annotations": []}]}
    assert items[4] == {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "read",
                        "arguments": '{"path":"é"}'}
    assert items[5]["type"] == "function_call_output" and items[5]["call_id"] == "call_1"
    assert items[5]["output"][0] == {"type": "input_text", "text": "ok"}
    assert items[5]["output"][1]["type"] == "input_image"


@pytest.mark.anyio
async def test_foreign_tool_call_ids_hashed(replay_server: ReplayServer) -> None:
    """openai-responses-foreign-toolcall-id: a Copilot item id becomes a bounded fc_<hash>."""
    foreign_item = "x" * 200 + "+/="
    history = [
        UserMessage(content="q"),
        _assistant("github-copilot", "gpt-5", "openai-responses", ToolCall(id=f"call_9|{foreign_item}", name="read")),
        ToolResultMessage(tool_call_id=f"call_9|{foreign_item}", tool_name="read", content=[TextContent(text="r")]),
    ]
    items = (await _capture(replay_server, _model(replay_server), _ctx(history))).json()["input"]
    call = next(i for i in items if i.get("type") == "function_call")
    assert call["id"] == f"fc_{short_hash(foreign_item)}" and len(call["id"]) <= 64
    assert call["call_id"] == "call_9"
    output = next(i for i in items if i.get("type") == "function_call_output")
    assert output["call_id"] == "call_9"


@pytest.mark.anyio
async def test_same_provider_other_model_omits_item_id(replay_server: ReplayServer) -> None:
    history = [
        UserMessage(content="q"),
        _assistant("openai", "gpt-4.1", "openai-responses", ToolCall(id="call_2|fc_2", name="read")),
        ToolResultMessage(tool_call_id="call_2|fc_2", tool_name="read", content=[TextContent(text="r")]),
    ]
    items = (await _capture(replay_server, _model(replay_server), _ctx(history))).json()["input"]
    call = next(i for i in items if i.get("type") == "function_call")
    assert "id" not in call and call["call_id"] == "call_2"


def test_id_normalizer_rules() -> None:
    target = Model(id="gpt-5", api="openai-responses", provider="openai")
    norm = make_responses_id_normalizer(target)
    same = AssistantMessage(api="openai-responses", provider="openai", model="gpt-4.1")
    other = AssistantMessage(api="anthropic-messages", provider="anthropic", model="claude")
    assert norm("call a|item b__", target, same) == "call_a|fc_item_b"
    assert norm("call_1|fc_1", target, other) == f"call_1|fc_{short_hash('fc_1')}"
    assert norm("toolu_01!x", target, other) == "toolu_01_x"
    assert norm("a" * 80, target, other) == "a" * 64
    chat = Model(id="m", api="openai-responses", provider="azure-openai-responses")
    assert make_responses_id_normalizer(chat)("c|i", chat, other) == "c_i"
