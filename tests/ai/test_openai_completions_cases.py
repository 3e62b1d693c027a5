"""openai-completions stream consumption: cases/README.md cases 1, 5, 7, 8 and 18 (provider side)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from pi_tui.ai.options import StreamOptions
from pi_tui.ai.providers import openai_completions
from pi_tui.ai.types import AssistantMessage, Context, Model, TextContent, ToolResultMessage, UserMessage

from .helpers import chat_lines, chat_sse, mock_reads
from .replay_server import check_event_protocol

MODEL = Model(id="m", api="openai-completions", provider="openai", base_url="http://mock.invalid/v1")


async def _run(
    monkeypatch: pytest.MonkeyPatch, body: bytes, options: StreamOptions | None = None
) -> tuple[list[Any], AssistantMessage]:
    mock_reads(monkeypatch, [body])
    opts = options or StreamOptions(api_key="k")
    s = openai_completions.stream(MODEL, Context(messages=[UserMessage(content="go")]), opts)
    events = [e async for e in s]
    result = await s.result()
    assert not check_event_protocol(events), check_event_protocol(events)
    return events, result


async def _next_request(monkeypatch: pytest.MonkeyPatch, history: list[Any]) -> dict[str, Any]:
    """The JSON body the provider sends for a follow-up turn with ``history``."""
    requests: list[httpx.Request] = []
    mock_reads(
        monkeypatch,
        [b'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n'],
        requests=requests,
    )
    s = openai_completions.stream(MODEL, Context(messages=history), StreamOptions(api_key="k"))
    await s.result()
    return json.loads(requests[0].content)


def _result_for(call_id: str, name: str, text: str = "ok", is_error: bool = False) -> ToolResultMessage:
    return ToolResultMessage(
        tool_call_id=call_id, tool_name=name, content=[TextContent(text=text)], is_error=is_error
    )


# ---------------------------------------------------------------- case 1

CASE1 = """
data: {"id":"c1","object":"chat.completion.chunk","choices":[]}
data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":null}]}
data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}
data: {"id":"c1","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":7,"completion_tokens":1,"total_tokens":8}}
data: [DONE]
"""


@pytest.mark.anyio
@pytest.mark.parametrize("variant", ["empty-choices", "no-choices-key"])
async def test_case1_usage_chunk_without_choices(monkeypatch: pytest.MonkeyPatch, variant: str) -> None:
    text = CASE1 if variant == "empty-choices" else CASE1.replace('"choices":[],"usage"', '"usage"')
    _, result = await _run(monkeypatch, chat_lines(text))
    assert result.stop_reason == "stop"
    assert result.error_message is None
    assert [b.text for b in result.content] == ["Hi"]
    assert (result.usage.input, result.usage.output, result.usage.total_tokens) == (7, 1, 8)
    assert result.response_id == "c1"


# ---------------------------------------------------------------- case 5

CASE5_A = r"""
data: {"choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"write","arguments":"{\"path\":\"hello.py\",\"content\":\"print(1)\"}"}}]},"finish_reason":null}]}
data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_b","type":"function","function":{"name":"write","arguments":"{\"path\":\"world.py\",\"content\":\"print(2)\"}"}}]},"finish_reason":null}]}
data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}
data: [DONE]
"""
CASE5_B = CASE5_A.replace('"index":0,"id"', '"id"')
CASE5_C = CASE5_B.replace('"id":"call_a",', "").replace('"id":"call_b",', "")


@pytest.mark.anyio
@pytest.mark.parametrize(("variant", "text"), [("A", CASE5_A), ("B", CASE5_B), ("C", CASE5_C)])
async def test_case5_parallel_calls_with_reused_or_missing_index(
    monkeypatch: pytest.MonkeyPatch, variant: str, text: str
) -> None:
    events, result = await _run(monkeypatch, chat_lines(text))
    calls = [b for b in result.content if b.type == "toolCall"]
    assert len(calls) == 2
    assert calls[0].arguments == {"path": "hello.py", "content": "print(1)"}
    assert calls[1].arguments == {"path": "world.py", "content": "print(2)"}
    assert result.stop_reason == "toolUse"
    ends = [e.tool_call for e in events if e.type == "toolcall_end"]
    assert [c.id for c in ends] == [c.id for c in calls]
    if variant in ("A", "B"):
        assert [c.id for c in calls] == ["call_a", "call_b"]
    else:
        assert all(c.id for c in calls) and calls[0].id != calls[1].id
    body = await _next_request(
        monkeypatch, [UserMessage(content="go"), result, *[_result_for(c.id, c.name) for c in calls]]
    )
    sent = body["messages"][1]["tool_calls"]
    assert all("}{" not in tc["function"]["arguments"] for tc in sent)
    assert [json.loads(tc["function"]["arguments"])["path"] for tc in sent] == ["hello.py", "world.py"]


# ---------------------------------------------------------------- case 7

CASE7 = """
data: {"choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"ls","arguments":""}}]},"finish_reason":null}]}
data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}
data: [DONE]
"""


@pytest.mark.anyio
async def test_case7_no_argument_call_is_kept_and_replayed_as_empty_object(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, result = await _run(monkeypatch, chat_lines(CASE7))
    assert result.stop_reason == "toolUse"
    assert len(result.content) == 1
    call = result.content[0]
    assert (call.type, call.id, call.name, call.arguments) == ("toolCall", "call_1", "ls", {})
    assert result.diagnostics is None
    body = await _next_request(monkeypatch, [UserMessage(content="go"), result, _result_for("call_1", "ls")])
    assert body["messages"][1]["tool_calls"][0]["function"]["arguments"] == "{}"


# ---------------------------------------------------------------- case 8

CASE8 = r"""
data: {"choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_w","type":"function","function":{"name":"write","arguments":"{\"path\":\"a.txt\",\"content\":\"line one\\nline tw"}}]},"finish_reason":null}]}
data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":50,"completion_tokens":16,"total_tokens":66}}
data: [DONE]
"""


@pytest.mark.anyio
@pytest.mark.parametrize("finish", ["tool_calls", "length"])
async def test_case8_truncated_tool_call(monkeypatch: pytest.MonkeyPatch, finish: str) -> None:
    text = CASE8.replace('"finish_reason":"tool_calls"', f'"finish_reason":"{finish}"')
    _, result = await _run(monkeypatch, chat_lines(text), StreamOptions(api_key="k", max_tokens=16))
    assert result.stop_reason == "length"
    call = result.content[0]
    assert isinstance(call.arguments, dict)
    assert call.arguments == {"path": "a.txt", "content": "line one\nline tw"}
    diags = [d for d in result.diagnostics or [] if d["type"] == "tool_call_arguments_invalid"]
    assert len(diags) == 1
    assert diags[0]["details"] == {"toolCallId": "call_w", "reason": "truncated"}
    assert isinstance(diags[0]["timestamp"], int)
    err = _result_for("call_w", "write", "Tool call arguments were cut off", is_error=True)
    body = await _next_request(monkeypatch, [UserMessage(content="go"), result, err])
    tc = body["messages"][1]["tool_calls"][0]
    assert tc["id"] == "call_w" and body["messages"][2]["tool_call_id"] == "call_w"
    assert isinstance(json.loads(tc["function"]["arguments"]), dict)


@pytest.mark.anyio
async def test_case8_length_without_max_tokens_info_still_marks_last_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = CASE8.replace('"finish_reason":"tool_calls"', '"finish_reason":"length"')
    _, result = await _run(monkeypatch, chat_lines(text))
    assert result.stop_reason == "length"
    assert result.diagnostics is not None and result.diagnostics[0]["details"]["reason"] == "truncated"


@pytest.mark.anyio
async def test_invalid_but_finished_arguments_are_flagged_invalid_json(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    body = chat_lines(
        r"""
data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"w","arguments":"{\"a\": 1,, }"}}]},"finish_reason":null}]}
data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}
"""
    )
    _, result = await _run(monkeypatch, body)
    assert result.stop_reason == "toolUse"
    assert isinstance(result.content[0].arguments, dict)
    assert result.diagnostics is not None
    assert result.diagnostics[0]["details"] == {"toolCallId": "c", "reason": "invalid_json"}


# ---------------------------------------------------------------- case 18

CASE18_A = r"""
data: {"choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"function":{"arguments":"{\"path\":"}}]},"finish_reason":null}]}
data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_r1","type":"function","function":{"name":"read","arguments":"\"README.md\"}"}}]},"finish_reason":null}]}
data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}
data: [DONE]
"""
CASE18_B = """
data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_x","type":"function","function":{"name":"ls","arguments":""}}]},"finish_reason":null}]}
data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{}"}}]},"finish_reason":null}]}
data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}
data: [DONE]
"""


def _no_empty_ids(body: dict[str, Any]) -> None:
    for m in body["messages"]:
        for tc in m.get("tool_calls") or []:
            assert tc["id"]
        if m["role"] == "tool":
            assert m["tool_call_id"]


@pytest.mark.anyio
async def test_case18a_argument_delta_before_id_merges_into_one_call(monkeypatch: pytest.MonkeyPatch) -> None:
    _, result = await _run(monkeypatch, chat_lines(CASE18_A))
    assert len(result.content) == 1
    call = result.content[0]
    assert (call.id, call.name, call.arguments) == ("call_r1", "read", {"path": "README.md"})
    body = await _next_request(
        monkeypatch, [UserMessage(content="go"), result, _result_for("call_r1", "read")]
    )
    _no_empty_ids(body)


@pytest.mark.anyio
async def test_case18b_first_call_at_index_one_leaves_no_placeholder(monkeypatch: pytest.MonkeyPatch) -> None:
    _, result = await _run(monkeypatch, chat_lines(CASE18_B))
    assert len(result.content) == 1
    call = result.content[0]
    assert (call.id, call.name, call.arguments) == ("call_x", "ls", {})


@pytest.mark.anyio
async def test_case18_call_without_any_id_gets_one_made_up_and_used_on_replay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = CASE18_A.replace('"id":"call_r1",', "")
    _, result = await _run(monkeypatch, chat_lines(text))
    assert len(result.content) == 1
    call = result.content[0]
    assert call.id and call.name == "read" and call.arguments == {"path": "README.md"}
    body = await _next_request(monkeypatch, [UserMessage(content="go"), result, _result_for(call.id, "read")])
    _no_empty_ids(body)
    assert body["messages"][1]["tool_calls"][0]["id"] == body["messages"][2]["tool_call_id"] == call.id


@pytest.mark.anyio
async def test_argument_only_delta_at_new_index_joins_active_call(monkeypatch: pytest.MonkeyPatch) -> None:
    body = chat_lines(
        r"""
data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_1","type":"function","function":{"name":"read","arguments":"{\"path\":"}}]},"finish_reason":null}]}
data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"x\"}"}}]},"finish_reason":null}]}
data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}
"""
    )
    _, result = await _run(monkeypatch, body)
    assert [(c.id, c.arguments) for c in result.content] == [("call_1", {"path": "x"})]


@pytest.mark.anyio
async def test_interleaved_text_and_two_indexed_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    body = chat_lines(
        r"""
data: {"choices":[{"index":0,"delta":{"content":"Let me "},"finish_reason":null}]}
data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{\"x\":"}}]},"finish_reason":null}]}
data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"b","function":{"name":"g","arguments":"{}"}}]},"finish_reason":null}]}
data: {"choices":[{"index":0,"delta":{"content":"check."},"finish_reason":null}]}
data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"1}"}}]},"finish_reason":"tool_calls"}]}
"""
    )
    events, result = await _run(monkeypatch, body)
    assert [b.type for b in result.content] == ["text", "toolCall", "toolCall"]
    assert result.content[0].text == "Let me check."
    assert [(c.id, c.arguments) for c in result.content[1:]] == [("a", {"x": 1}), ("b", {})]
    assert [e.type for e in events if e.type.endswith("_end")] == ["text_end", "toolcall_end", "toolcall_end"]


@pytest.mark.anyio
async def test_huge_streamed_arguments_stay_linear_and_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    content = 'line with "quotes" and \\\\ backslash\n' * 8000  # ~300 KB of JSON text
    args = json.dumps({"path": "big.txt", "content": content})
    pieces = [args[i : i + 7] for i in range(0, len(args), 7)]
    chunks = [
        {
            "choices": [
                {
                    "index": 0,
                    "delta": {
                        "tool_calls": [{"index": 0, "id": "w", "function": {"name": "write", "arguments": p}}]
                    },
                }
            ]
        }
        for p in pieces
    ]
    chunks.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    mock_reads(monkeypatch, [chat_sse(*chunks)])
    s = openai_completions.stream(
        MODEL, Context(messages=[UserMessage(content="go")]), StreamOptions(api_key="k")
    )
    partial_sizes = []
    async for e in s:
        if e.type == "toolcall_delta":
            partial_sizes.append(len(e.partial.content[0].arguments.get("content", "")))
    result = await s.result()
    assert result.content[0].arguments == {"path": "big.txt", "content": content}
    assert partial_sizes == sorted(partial_sizes)  # the live view only grows
    assert partial_sizes[-1] > len(content) * 0.9
