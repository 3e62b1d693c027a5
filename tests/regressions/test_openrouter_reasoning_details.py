"""OpenRouter ``reasoning_details`` are kept whole and sent back verbatim, in order (pi 0.84.3 #7994, 0.84.4).

OpenRouter returns each upstream provider's own reasoning blocks (Anthropic's signed thinking as
``reasoning.text`` with a ``signature``, OpenAI's ``reasoning.summary`` and ``reasoning.encrypted``, Gemini's
encrypted thought signatures) and needs the array back unchanged on the next request. Real reports: Gemini 3
through OpenRouter fails its next tool turn without them (home-assistant/core#159812, reVrost/go-openrouter#33);
MiniMax-M2 / Claude lose their reasoning continuity (RooCodeInc/Roo-Code#9125, jeremychone/rust-genai#301).
pi-tui kept only ``reasoning.encrypted`` details whose id matched a tool call already seen: signed Claude
thinking and summaries were dropped, and an encrypted detail that came before its call's first delta was lost.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from pi_tui.ai.options import StreamOptions
from pi_tui.ai.providers import openai_completions
from pi_tui.ai.providers.openai_compat import resolve_completions_compat
from pi_tui.ai.providers.openai_completions import convert_messages
from pi_tui.ai.types import (
    AssistantMessage,
    Context,
    Model,
    TextContent,
    ThinkingContent,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from tests.ai.helpers import chat_sse, mock_reads
from tests.ai.replay_server import check_event_protocol

MODEL = Model(
    id="anthropic/claude-sonnet-4.5", api="openai-completions", provider="openrouter",
    base_url="https://openrouter.ai/api/v1", reasoning=True,
)


def _delta(**delta: Any) -> dict[str, Any]:
    return {"id": "gen-1", "choices": [{"index": 0, "delta": delta}]}


async def _reply(monkeypatch: pytest.MonkeyPatch, *chunks: dict[str, Any]) -> tuple[AssistantMessage, list[Any]]:
    mock_reads(monkeypatch, [chat_sse(*chunks)])
    stream = openai_completions.stream(MODEL, Context(messages=[UserMessage(content="q")]), StreamOptions(api_key="k"))
    events = [e async for e in stream]
    assert not check_event_protocol(events), check_event_protocol(events)
    return await stream.result(), events


def _sent_assistant(message: AssistantMessage, model: Model = MODEL) -> dict[str, Any]:
    history: list[Any] = [UserMessage(content="q"), message]
    history += [
        ToolResultMessage(tool_call_id=b.id, tool_name=b.name, content=[TextContent(text="ok")])
        for b in message.content if isinstance(b, ToolCall)
    ]
    out = convert_messages(model, Context(messages=history), resolve_completions_compat(model))
    (assistant,) = [m for m in out if m["role"] == "assistant"]
    return assistant


@pytest.mark.anyio
async def test_signed_claude_thinking_slices_are_one_detail_and_go_back_verbatim(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = {"type": "reasoning.text", "format": "anthropic-claude-v1", "index": 0}
    message, _ = await _reply(
        monkeypatch,
        _delta(role="assistant", reasoning="I should ", reasoning_details=[{**text, "text": "I should "}]),
        _delta(reasoning="list files.", reasoning_details=[{**text, "text": "list files."}]),
        _delta(reasoning_details=[{**text, "text": "", "signature": "sig-abc"}]),
        _delta(tool_calls=[{"index": 0, "id": "toolu_1", "type": "function",
                            "function": {"name": "ls", "arguments": "{}"}}]),
        {"id": "gen-1", "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
    )
    assert [b.type for b in message.content] == ["thinking", "toolCall"]
    thinking = message.content[0]
    assert isinstance(thinking, ThinkingContent)
    assert thinking.thinking == "I should list files."
    merged = [{**text, "text": "I should list files.", "signature": "sig-abc"}]
    assert json.loads(thinking.thinking_signature or "") == merged
    sent = _sent_assistant(message)
    assert sent["reasoning_details"] == merged
    assert "reasoning" not in sent  # the details carry the thought; no second copy as plain text


@pytest.mark.anyio
async def test_summaries_merge_and_every_detail_keeps_its_place(monkeypatch: pytest.MonkeyPatch) -> None:
    summary = {"type": "reasoning.summary", "format": "openai-responses-v1", "index": 0}
    encrypted = {"type": "reasoning.encrypted", "id": "rs_1", "format": "openai-responses-v1", "index": 1,
                 "data": "gAAAA=="}
    message, events = await _reply(
        monkeypatch,
        _delta(role="assistant", reasoning_details=[{**summary, "summary": "**Plan** "}]),
        _delta(reasoning_details=[{**summary, "summary": "read the file"}]),
        _delta(reasoning_details=[encrypted, {"type": "reasoning.unknown", "x": 1}, "junk",
                                  {"type": "reasoning.text", "text": 5}]),
        _delta(content="Done."),
        {"id": "gen-1", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
    )
    assert [b.type for b in message.content] == ["thinking", "text"]
    details = [{**summary, "summary": "**Plan** read the file"}, encrypted]
    assert json.loads(message.content[0].thinking_signature or "") == details  # type: ignore[union-attr]
    sent = _sent_assistant(message)
    assert sent["reasoning_details"] == details
    assert sent["content"] == "Done."
    # serialized once, at the end: no event shows a half-built signature
    assert all(
        getattr(e.partial.content[0], "thinking_signature", None) in (None, message.content[0].thinking_signature)  # type: ignore[union-attr]
        for e in events if getattr(e, "partial", None) is not None and e.partial.content
    )


@pytest.mark.anyio
async def test_gemini_encrypted_detail_before_its_call_still_reaches_the_call(monkeypatch: pytest.MonkeyPatch) -> None:
    encrypted = {"type": "reasoning.encrypted", "id": "tool_ls_0", "format": "google-gemini-v1", "index": 0,
                 "data": "CiQB"}
    message, _ = await _reply(
        monkeypatch,
        _delta(role="assistant", reasoning_details=[encrypted]),
        _delta(tool_calls=[{"index": 0, "id": "tool_ls_0", "type": "function",
                            "function": {"name": "ls", "arguments": "{}"}}]),
        {"id": "gen-1", "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
    )
    call = next(b for b in message.content if isinstance(b, ToolCall))
    assert json.loads(call.thought_signature or "") == encrypted  # the per-call form pi 0.73 replays
    assert _sent_assistant(message)["reasoning_details"] == [encrypted]


def test_messages_stored_by_pi_0_73_still_replay_their_calls_encrypted_details() -> None:
    encrypted = {"type": "reasoning.encrypted", "id": "call_1", "data": "abc", "format": "google-gemini-v1"}
    message = AssistantMessage(
        content=[ThinkingContent(thinking="plan", thinking_signature="reasoning"),
                 ToolCall(id="call_1", name="ls", arguments={}, thought_signature=json.dumps(encrypted))],
        api=MODEL.api, provider=MODEL.provider, model=MODEL.id, stop_reason="toolUse",
    )
    sent = _sent_assistant(message)
    assert sent["reasoning_details"] == [encrypted]
    without = message.model_copy(update={"content": [
        ThinkingContent(thinking="plan", thinking_signature="reasoning"), ToolCall(id="call_1", name="ls", arguments={})]})
    assert _sent_assistant(without)["reasoning"] == "plan"  # no details: the text is echoed as before


def test_a_signature_that_is_not_a_field_name_never_becomes_a_message_key() -> None:
    for signature in ('[{"type": "reasoning.text", "text": 1}]', "[]", "[not json", "thinking_sig_xyz"):
        message = AssistantMessage(
            content=[ThinkingContent(thinking="plan", thinking_signature=signature), TextContent(text="hi")],
            api=MODEL.api, provider=MODEL.provider, model=MODEL.id,
        )
        sent = _sent_assistant(message)
        assert set(sent) == {"role", "content"}, (signature, sent)


@pytest.mark.anyio
async def test_the_next_request_carries_the_details(monkeypatch: pytest.MonkeyPatch) -> None:
    text = {"type": "reasoning.text", "format": "anthropic-claude-v1", "index": 0, "text": "t", "signature": "s"}
    message, _ = await _reply(
        monkeypatch,
        _delta(role="assistant", reasoning="t", reasoning_details=[text]),
        _delta(tool_calls=[{"index": 0, "id": "toolu_9", "function": {"name": "ls", "arguments": "{}"}}]),
        {"id": "gen-1", "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
    )
    requests: list[httpx.Request] = []
    mock_reads(monkeypatch, [chat_sse(_delta(content="ok"))], requests=requests)
    history = [UserMessage(content="q"), message,
               ToolResultMessage(tool_call_id="toolu_9", tool_name="ls", content=[TextContent(text="a")])]
    stream = openai_completions.stream(MODEL, Context(messages=history), StreamOptions(api_key="k"))
    await stream.result()
    body = json.loads(requests[0].content)
    (assistant,) = [m for m in body["messages"] if m["role"] == "assistant"]
    assert assistant["reasoning_details"] == [text]
