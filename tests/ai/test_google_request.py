"""google-generative-ai request shape, captured at the loopback server (pi-reference §7.4, §4.2).

Ports the deterministic parts of pi's google-shared-convert-tools, google-shared-gemini3-unsigned-tool-call,
google-shared-image-tool-result-routing and the thinking-config rules (thinking off per model family, levels,
budgets), plus URL, headers and contents.
"""

from __future__ import annotations

from typing import Any

import pytest

from pi_tui.ai.options import SimpleStreamOptions
from pi_tui.ai.providers import google
from pi_tui.ai.providers._google_shared import convert_tools
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

OK_BODY = b'data: {"candidates":[{"content":{"parts":[{"text":"ok"}]},"finishReason":"STOP"}]}\r\n\r\n'
SIG = "QUJDRA=="  # valid base64


def _model(server: ReplayServer, model_id: str = "gemini-2.5-flash", **kw: Any) -> Model:
    return Model(id=model_id, api="google-generative-ai", provider="google", base_url=server.base_url + "/v1beta", **kw)


async def _capture(server: ReplayServer, model: Model, context: Context, **opts: Any) -> RecordedRequest:
    server.enqueue(ReplayResponse(body=OK_BODY))
    msg = await google.stream_simple(model, context, SimpleStreamOptions(api_key="g-key", max_retries=0, **opts)).result()
    assert msg.stop_reason == "stop", msg.error_message
    return server.requests[-1]


def _ctx(messages: list[Any] | None = None, tools: list[Tool] | None = None) -> Context:
    return Context(system_prompt="sys", messages=messages or [UserMessage(content="hi")], tools=tools)


@pytest.mark.anyio
async def test_url_headers_and_basic_body(replay_server: ReplayServer) -> None:
    tools = [Tool(name="f", description="d", parameters={"$schema": "x", "type": "object", "properties": {}})]
    req = await _capture(replay_server, _model(replay_server), _ctx(tools=tools), headers={"x-extra": "1"},
                         temperature=0.3)
    assert req.path == "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
    assert req.headers["x-goog-api-key"] == "g-key" and req.headers["x-extra"] == "1"
    body = req.json()
    assert body["contents"] == [{"role": "user", "parts": [{"text": "hi"}]}]
    assert body["systemInstruction"] == {"parts": [{"text": "sys"}]}
    assert body["generationConfig"] == {"temperature": 0.3, "maxOutputTokens": 16384}
    assert body["tools"] == [{"functionDeclarations": [{"name": "f", "description": "d",
                                                        "parametersJsonSchema": tools[0].parameters}]}]
    assert "toolConfig" not in body


@pytest.mark.anyio
async def test_tool_choice(replay_server: ReplayServer) -> None:
    tools = [Tool(name="f", description="d")]
    body = (await _capture(replay_server, _model(replay_server), _ctx(tools=tools), extra={"tool_choice": "any"})).json()
    assert body["toolConfig"] == {"functionCallingConfig": {"mode": "ANY"}}


@pytest.mark.anyio
@pytest.mark.parametrize(("model_id", "config"), [
    ("gemini-3-pro-preview", {"thinkingLevel": "LOW"}),
    ("gemini-3.1-pro-preview", {"thinkingLevel": "LOW"}),
    ("gemini-3-flash-preview", {"thinkingLevel": "MINIMAL"}),
    ("gemma-4-26b-a4b-it", {"thinkingLevel": "MINIMAL"}),
    ("gemini-2.5-flash", {"thinkingBudget": 0}),
])
async def test_thinking_off(model_id: str, config: dict[str, Any], replay_server: ReplayServer) -> None:
    body = (await _capture(replay_server, _model(replay_server, model_id, reasoning=True), _ctx())).json()
    assert body["generationConfig"]["thinkingConfig"] == config


@pytest.mark.anyio
@pytest.mark.parametrize(("model_id", "level", "config"), [
    ("gemini-3-pro-preview", "medium", {"includeThoughts": True, "thinkingLevel": "HIGH"}),
    ("gemini-3-pro-preview", "minimal", {"includeThoughts": True, "thinkingLevel": "LOW"}),
    ("gemini-3-flash-preview", "medium", {"includeThoughts": True, "thinkingLevel": "MEDIUM"}),
    ("gemma-4-26b-a4b-it", "low", {"includeThoughts": True, "thinkingLevel": "MINIMAL"}),
    ("gemini-2.5-pro", "high", {"includeThoughts": True, "thinkingBudget": 32768}),
    ("gemini-2.5-flash-lite", "minimal", {"includeThoughts": True, "thinkingBudget": 512}),
    ("gemini-2.5-flash", "low", {"includeThoughts": True, "thinkingBudget": 2048}),
    ("gemini-flash-latest", "low", {"includeThoughts": True, "thinkingBudget": -1}),
])
async def test_thinking_on(model_id: str, level: str, config: dict[str, Any], replay_server: ReplayServer) -> None:
    body = (await _capture(replay_server, _model(replay_server, model_id, reasoning=True), _ctx(),
                           reasoning=level)).json()
    assert body["generationConfig"]["thinkingConfig"] == config


@pytest.mark.anyio
async def test_custom_budget_and_non_reasoning(replay_server: ReplayServer) -> None:
    body = (await _capture(replay_server, _model(replay_server, reasoning=True), _ctx(), reasoning="low",
                           thinking_budgets={"low": 777})).json()
    assert body["generationConfig"]["thinkingConfig"]["thinkingBudget"] == 777
    body = (await _capture(replay_server, _model(replay_server), _ctx(), reasoning="low")).json()
    assert "thinkingConfig" not in body["generationConfig"]


def _assistant(model_id: str, *content: Any, provider: str = "google") -> AssistantMessage:
    return AssistantMessage(content=list(content), api="google-generative-ai", provider=provider, model=model_id,
                            stop_reason="toolUse")


@pytest.mark.anyio
async def test_history_signatures_same_model_only(replay_server: ReplayServer) -> None:
    model_id = "gemini-3-pro-preview"
    same = _assistant(model_id, ThinkingContent(thinking="plan", thinking_signature=SIG),
                      TextContent(text="ok", text_signature="not base64!"),
                      ToolCall(id="c1", name="f", arguments={"a": 1}, thought_signature=SIG))
    history = [UserMessage(content="q"), same,
               ToolResultMessage(tool_call_id="c1", tool_name="f", content=[TextContent(text="done")])]
    body = (await _capture(replay_server, _model(replay_server, model_id), _ctx(history))).json()
    parts = body["contents"][1]["parts"]
    assert parts == [{"thought": True, "text": "plan", "thoughtSignature": SIG}, {"text": "ok"},
                     {"functionCall": {"name": "f", "args": {"a": 1}}, "thoughtSignature": SIG}]
    assert body["contents"][2] == {"role": "user", "parts": [
        {"functionResponse": {"name": "f", "response": {"output": "done"}}}]}
    # another model: thinking becomes text, signatures dropped, no skip validator injected
    body = (await _capture(replay_server, _model(replay_server, "gemini-3-flash-preview"), _ctx(history))).json()
    parts = body["contents"][1]["parts"]
    assert parts == [{"text": "plan"}, {"text": "ok"}, {"functionCall": {"name": "f", "args": {"a": 1}}}]
    assert "skip_thought_signature_validator" not in str(body)


@pytest.mark.anyio
async def test_tool_results_merged_and_image_routing(replay_server: ReplayServer) -> None:
    calls = _assistant("x", ToolCall(id="c1", name="f"), ToolCall(id="c2", name="g"))
    history = [
        UserMessage(content=[TextContent(text="see"), ImageContent(data="AAAA", mime_type="image/png")]),
        calls,
        ToolResultMessage(tool_call_id="c1", tool_name="f", content=[ImageContent(data="BBBB", mime_type="image/png")]),
        ToolResultMessage(tool_call_id="c2", tool_name="g", content=[TextContent(text="bad")], is_error=True),
    ]
    old = _model(replay_server, "gemini-2.5-flash", input=["text", "image"])
    contents = (await _capture(replay_server, old, _ctx(history))).json()["contents"]
    assert contents[0]["parts"][1] == {"inlineData": {"mimeType": "image/png", "data": "AAAA"}}
    assert contents[2]["parts"][0] == {"functionResponse": {"name": "f", "response": {"output": "(see attached image)"}}}
    assert contents[3] == {"role": "user", "parts": [{"text": "Tool result image:"},
                                                     {"inlineData": {"mimeType": "image/png", "data": "BBBB"}}]}
    assert contents[4]["parts"] == [{"functionResponse": {"name": "g", "response": {"error": "bad"}}}]
    new = _model(replay_server, "gemini-3-pro-preview", input=["text", "image"])
    contents = (await _capture(replay_server, new, _ctx(history))).json()["contents"]
    assert len(contents) == 3
    first, second = contents[2]["parts"]
    assert first["functionResponse"]["parts"] == [{"inlineData": {"mimeType": "image/png", "data": "BBBB"}}]
    assert second["functionResponse"]["response"] == {"error": "bad"}


@pytest.mark.anyio
async def test_claude_models_get_tool_call_ids(replay_server: ReplayServer) -> None:
    history = [UserMessage(content="q"), _assistant("other", ToolCall(id="call:1", name="f"), provider="openai"),
               ToolResultMessage(tool_call_id="call:1", tool_name="f", content=[TextContent(text="r")])]
    contents = (await _capture(replay_server, _model(replay_server, "claude-sonnet-4"), _ctx(history))).json()["contents"]
    assert contents[1]["parts"][0]["functionCall"]["id"] == "call_1"
    assert contents[2]["parts"][0]["functionResponse"]["id"] == "call_1"


def test_convert_tools_legacy_parameters() -> None:
    params = {"$schema": "s", "type": "object", "$defs": {"x": {}},
              "properties": {"a": {"$comment": "c", "$ref": "#/x", "type": "string"}}}
    legacy = convert_tools([Tool(name="t", description="d", parameters=params)], use_parameters=True)
    assert legacy == [{"functionDeclarations": [{"name": "t", "description": "d", "parameters": {
        "type": "object", "properties": {"a": {"$ref": "#/x", "type": "string"}}}}]}]
    assert params["$schema"] == "s"  # input not mutated
    modern = convert_tools([Tool(name="t", description="d", parameters=params)])
    assert modern is not None and modern[0]["functionDeclarations"][0]["parametersJsonSchema"]["$schema"] == "s"
    assert convert_tools([]) is None
