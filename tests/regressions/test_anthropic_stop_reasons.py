"""Every current Anthropic stop reason is mapped; none ends as "Unhandled stop reason" (issue 10, class 4).

Real reports: ``Unhandled stop reason: model_context_window_exceeded`` (earendil-works/pi#1869, ChatLab#135,
AgentTeams#37; z.ai GLM and Bedrock send it as an OpenAI ``finish_reason`` too); ``pause_turn`` treated as the
end of the turn truncates the answer (WordPress/ai-provider-for-anthropic#29, laravel/ai#493: the documented
handling is to send the paused reply back so the model continues); ``refusal`` surfaced as a generic error
(prism-php/prism#1003).

* ``model_context_window_exceeded`` is a ``length`` stop marked as a context overflow, so the session's
  overflow handling (compact and retry) takes it;
* ``pause_turn`` continues the turn: the provider sends the paused reply back and streams the rest into the
  same message (bounded);
* ``refusal`` is an error whose message says the model refused.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from pi_tui.ai.options import StreamOptions
from pi_tui.ai.overflow import is_context_overflow
from pi_tui.ai.providers import anthropic, openai_completions
from pi_tui.ai.types import AssistantMessage, Context, Model, UserMessage
from tests.ai.helpers import ByteChunks, chat_sse, install_handler
from tests.ai.replay_server import check_event_protocol

MODEL = Model(id="claude-sonnet-4-5", api="anthropic-messages", provider="anthropic",
              base_url="https://api.anthropic.com", context_window=200_000, max_tokens=64_000)


def _sse(*events: dict[str, Any]) -> bytes:
    return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events).encode()


def _reply(msg_id: str, text: str, stop: str, *, usage_in: int = 10, out: int = 5,
           details: dict[str, Any] | None = None) -> bytes:
    delta: dict[str, Any] = {"stop_reason": stop, "stop_sequence": None}
    if details is not None:
        delta["stop_details"] = details
    events: list[dict[str, Any]] = [
        {"type": "message_start", "message": {"id": msg_id, "type": "message", "role": "assistant",
                                              "content": [], "usage": {"input_tokens": usage_in, "output_tokens": 1}}},
    ]
    if text:
        events += [
            {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
            {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}},
            {"type": "content_block_stop", "index": 0},
        ]
    events += [
        {"type": "message_delta", "delta": delta, "usage": {"output_tokens": out}},
        {"type": "message_stop"},
    ]
    return _sse(*events)


async def _run(monkeypatch: pytest.MonkeyPatch, bodies: list[bytes]) -> tuple[AssistantMessage, list[Any],
                                                                              list[httpx.Request]]:
    requests: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        body = bodies[min(len(requests), len(bodies)) - 1]
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=ByteChunks([body]))

    install_handler(monkeypatch, handler)
    s = anthropic.stream(MODEL, Context(messages=[UserMessage(content="go")]), StreamOptions(api_key="sk-ant-x"))
    events = [e async for e in s]
    assert not check_event_protocol(events), check_event_protocol(events)
    return await s.result(), events, requests


@pytest.mark.anyio
async def test_context_window_exceeded_is_a_length_stop_that_counts_as_overflow(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    msg, _, _ = await _run(monkeypatch, [_reply("m1", "partial answ", "model_context_window_exceeded")])
    assert msg.stop_reason == "length"
    assert msg.error_message is None
    assert [b.text for b in msg.content] == ["partial answ"]
    assert is_context_overflow(msg, MODEL.context_window)
    assert is_context_overflow(json.loads(msg.model_dump_json(by_alias=True)), None)  # the session-file form too


@pytest.mark.anyio
async def test_plain_max_tokens_is_not_an_overflow(monkeypatch: pytest.MonkeyPatch) -> None:
    msg, _, _ = await _run(monkeypatch, [_reply("m1", "long answer", "max_tokens")])
    assert msg.stop_reason == "length" and not is_context_overflow(msg, MODEL.context_window)


@pytest.mark.anyio
async def test_refusal_is_an_error_that_says_the_model_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    msg, events, _ = await _run(monkeypatch, [_reply("m1", "", "refusal")])
    assert msg.stop_reason == "error" and events[-1].type == "error"
    assert msg.error_message is not None
    assert "refused" in msg.error_message and "refusal" in msg.error_message
    assert "Unhandled" not in msg.error_message
    explained = _reply("m1", "", "refusal", details={"type": "refusal", "category": "cyber",
                                                     "explanation": "This looks like malware."})
    msg2, _, _ = await _run(monkeypatch, [explained])
    assert msg2.error_message is not None and "This looks like malware." in msg2.error_message


@pytest.mark.anyio
async def test_pause_turn_continues_the_turn_in_the_same_message(monkeypatch: pytest.MonkeyPatch) -> None:
    first = _reply("m1", "Searching the web… ", "pause_turn", usage_in=100, out=20)
    second = _reply("m2", "Found it: 42.", "end_turn", usage_in=130, out=7)
    msg, events, requests = await _run(monkeypatch, [first, second])
    assert len(requests) == 2
    assert msg.stop_reason == "stop" and msg.error_message is None
    assert [b.text for b in msg.content] == ["Searching the web… ", "Found it: 42."]
    assert [e.type for e in events].count("done") == 1 and [e.type for e in events].count("start") == 1
    sent = json.loads(requests[1].content)["messages"]
    assert sent[-1]["role"] == "assistant"
    # the paused reply goes back as the assistant's turn so far (no trailing whitespace: the API rejects it)
    assert sent[-1]["content"][-1]["text"] == "Searching the web…"
    assert msg.usage.input == 130 and msg.usage.output == 7  # the context the turn ended with


@pytest.mark.anyio
async def test_pause_turn_without_content_resends_the_request(monkeypatch: pytest.MonkeyPatch) -> None:
    msg, _, requests = await _run(monkeypatch, [_reply("m1", "", "pause_turn"), _reply("m2", "done", "end_turn")])
    assert len(requests) == 2 and [b.text for b in msg.content] == ["done"]
    assert json.loads(requests[1].content)["messages"][-1]["role"] == "user"


@pytest.mark.anyio
async def test_pause_turn_forever_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    msg, _, requests = await _run(monkeypatch, [_reply("m1", "step", "pause_turn")])
    assert 2 <= len(requests) <= 10
    assert msg.stop_reason == "stop" and msg.error_message is None


@pytest.mark.anyio
@pytest.mark.parametrize("reason", ["end_turn", "max_tokens", "stop_sequence", "tool_use", "pause_turn",
                                    "refusal", "model_context_window_exceeded", "sensitive", "brand_new_reason"])
async def test_no_stop_reason_ends_as_unhandled(monkeypatch: pytest.MonkeyPatch, reason: str) -> None:
    msg, _, _ = await _run(monkeypatch, [_reply("m1", "x", reason), _reply("m2", "y", "end_turn")])
    assert "Unhandled stop reason" not in (msg.error_message or "")
    if reason == "brand_new_reason":
        assert msg.stop_reason == "error" and msg.error_message is not None
        assert "brand_new_reason" in msg.error_message


@pytest.mark.anyio
async def test_openai_compatible_finish_reason_context_window_exceeded(monkeypatch: pytest.MonkeyPatch) -> None:
    """z.ai GLM / Bedrock proxies send the same reason as an OpenAI ``finish_reason``."""
    model = Model(id="glm-4.7", api="openai-completions", provider="zai", base_url="https://api.z.ai/api/paas/v4",
                  context_window=128_000)
    body = chat_sse({"choices": [{"index": 0, "delta": {"content": "half"}}]},
                    {"choices": [{"index": 0, "delta": {}, "finish_reason": "model_context_window_exceeded"}]})

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=ByteChunks([body]))

    install_handler(monkeypatch, handler)
    msg = await openai_completions.stream(model, Context(messages=[UserMessage(content="go")]),
                                          StreamOptions(api_key="k")).result()
    assert msg.stop_reason == "length" and msg.error_message is None
    assert is_context_overflow(msg, model.context_window)


# ---------------------------------------------------------------- the session takes it as an overflow


@pytest.mark.anyio
async def test_session_compacts_and_retries_after_a_context_window_exceeded_stop(tmp_path: Any, faux: Any) -> None:
    from pi_tui.ai.providers.faux import faux_assistant_message
    from pi_tui.coding.agent_session.settings import SessionSettings
    from pi_tui.coding.compaction.prepare import CompactionSettings
    from tests.coding.session_core.helpers import Recorder, SleepRecorder, make_session

    cut = faux_assistant_message("half an answ", stop_reason="length")
    cut.diagnostics = [{"type": "context_window_exceeded", "timestamp": 0, "details": {}}]
    faux.set_responses([faux_assistant_message("ok " * 50), cut, faux_assistant_message("## Goal\nsummary"),
                        faux_assistant_message("recovered")])
    settings = SessionSettings(compaction=CompactionSettings(keep_recent_tokens=10))
    session = make_session(tmp_path, faux.get_model(), settings=settings, sleep=SleepRecorder())
    rec = Recorder(session)
    await session.prompt("one " * 100)
    await session.prompt("two")
    assert rec.of("compaction_start") == [{"type": "compaction_start", "reason": "overflow"}]
    assert rec.of("compaction_end")[0]["willRetry"] is True
    assert session.get_last_assistant_text() == "recovered"
    assert not any(m.role == "assistant" and m.stop_reason == "length" for m in session.messages)


@pytest.mark.anyio
@pytest.mark.parametrize(("finish", "stop"), [
    ("eos", "stop"), ("eos_token", "stop"), ("stop_sequence", "stop"), ("end_turn", "stop"), ("end", "stop"),
    ("max_tokens", "length"), ("tool_use", "toolUse"),
])
async def test_openai_compatible_servers_other_words_for_a_normal_end(
    monkeypatch: pytest.MonkeyPatch, finish: str, stop: str
) -> None:
    """Together sends ``eos`` (openai-dotnet#267), TGI ``eos_token``/``stop_sequence`` (TGI#2344), Ollama and
    LM Studio ``end`` (pi#2116), Anthropic-backed proxies ``end_turn``/``max_tokens``/``tool_use``: the answer
    used to end as an error (``Provider finish_reason: eos``) and leave the context."""
    model = Model(id="m", api="openai-completions", provider="together", base_url="https://api.together.xyz/v1")
    call = {"index": 0, "id": "c", "type": "function", "function": {"name": "ls", "arguments": "{}"}}
    delta = {"content": "answer"} if stop != "toolUse" else {"tool_calls": [call]}
    body = chat_sse({"choices": [{"index": 0, "delta": delta}]},
                    {"choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=ByteChunks([body]))

    install_handler(monkeypatch, handler)
    msg = await openai_completions.stream(model, Context(messages=[UserMessage(content="go")]),
                                          StreamOptions(api_key="k")).result()
    assert (msg.stop_reason, msg.error_message) == (stop, None)
