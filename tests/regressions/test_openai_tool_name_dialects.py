"""OpenAI-compatible servers stream a tool call's name in three dialects (issue 10, class 4).

Real reports: OpenAI and vLLM send ``function.name`` once (sglang#4700 shows vLLM's chunks); MiniMax M2.7 via
NVIDIA NIM repeats the whole name in every delta, so accumulating clients built ``read_fileread_file``
(NousResearch/hermes-agent#11984); the OpenAI Agents SDK maintainers say a name may arrive in pieces
(``get_`` + ``weather``, openai/openai-agents-python#326); LocalAI repeats the call at several indexes with one
id (mudler/LocalAI#9722). Before the fix a second name piece opened a second, nameless-argument call and the
first call kept ``get_``. Each dialect must give one call with the whole name, and parallel calls must stay
apart.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from pi_tui.ai.options import StreamOptions
from pi_tui.ai.providers import openai_completions
from pi_tui.ai.types import AssistantMessage, Context, Model, UserMessage
from tests.ai.helpers import chat_sse, mock_reads
from tests.ai.replay_server import check_event_protocol

MODEL = Model(id="m", api="openai-completions", provider="local", base_url="http://127.0.0.1:9/v1")


def _tc(index: int | None, call_id: str | None, name: str | None, args: str | None) -> dict[str, Any]:
    fn: dict[str, Any] = {}
    if name is not None:
        fn["name"] = name
    if args is not None:
        fn["arguments"] = args
    tc: dict[str, Any] = {"type": "function", "function": fn}
    if index is not None:
        tc["index"] = index
    if call_id is not None:
        tc["id"] = call_id
    return {"choices": [{"index": 0, "delta": {"tool_calls": [tc]}, "finish_reason": None}]}


FINISH = {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}


async def _run(monkeypatch: pytest.MonkeyPatch, *chunks: dict[str, Any]) -> AssistantMessage:
    mock_reads(monkeypatch, [chat_sse(*chunks, FINISH)])
    s = openai_completions.stream(MODEL, Context(messages=[UserMessage(content="go")]), StreamOptions())
    events = [e async for e in s]
    assert not check_event_protocol(events), check_event_protocol(events)
    return await s.result()


def _calls(msg: AssistantMessage) -> list[tuple[str, str, Any]]:
    return [(b.id, b.name, b.arguments) for b in msg.content if b.type == "toolCall"]


@pytest.mark.anyio
async def test_name_streamed_in_pieces_gives_one_call(monkeypatch: pytest.MonkeyPatch) -> None:
    msg = await _run(
        monkeypatch,
        _tc(0, "call_1", "get_", ""),
        _tc(0, None, "weather", None),
        _tc(0, None, None, '{"city":'),
        _tc(0, None, None, '"Oslo"}'),
    )
    assert _calls(msg) == [("call_1", "get_weather", {"city": "Oslo"})]
    assert msg.stop_reason == "toolUse" and msg.diagnostics is None


@pytest.mark.anyio
async def test_name_repeated_whole_in_every_delta_gives_one_call(monkeypatch: pytest.MonkeyPatch) -> None:
    msg = await _run(
        monkeypatch,
        _tc(0, "call_1", "read_file", ""),
        _tc(0, "call_1", "read_file", '{"path":'),
        _tc(0, "call_1", "read_file", '"a.py"}'),
    )
    assert _calls(msg) == [("call_1", "read_file", {"path": "a.py"})]


@pytest.mark.anyio
async def test_name_resent_cumulatively_gives_one_call(monkeypatch: pytest.MonkeyPatch) -> None:
    msg = await _run(
        monkeypatch,
        _tc(0, "call_1", "re", None),
        _tc(0, None, "read", None),
        _tc(0, None, "read_fi", None),
        _tc(0, None, "read_file", '{"path":"a.py"}'),
    )
    assert _calls(msg) == [("call_1", "read_file", {"path": "a.py"})]


@pytest.mark.anyio
async def test_pieces_without_id_on_later_deltas_and_two_parallel_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    msg = await _run(
        monkeypatch,
        _tc(0, "a", "ba", None),
        _tc(0, None, "sh", '{"command":"ls"}'),
        _tc(1, "b", "re", None),
        _tc(1, None, "ad", '{"path":"x"}'),
    )
    assert _calls(msg) == [("a", "bash", {"command": "ls"}), ("b", "read", {"path": "x"})]


@pytest.mark.anyio
async def test_repeated_names_of_two_calls_at_their_own_indexes_stay_two_calls(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    msg = await _run(
        monkeypatch,
        _tc(0, "a", "read", '{"path":'),
        _tc(1, "b", "read", '{"path":'),
        _tc(0, "a", "read", '"x"}'),
        _tc(1, "b", "read", '"y"}'),
    )
    assert _calls(msg) == [("a", "read", {"path": "x"}), ("b", "read", {"path": "y"})]


@pytest.mark.anyio
async def test_another_name_after_arguments_at_the_same_index_is_a_new_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ollama-like servers put every call at index 0; without ids the new name (after complete arguments)
    is what tells the second call apart."""
    msg = await _run(
        monkeypatch,
        _tc(0, None, "ls", '{"path":"."}'),
        _tc(0, None, "read", '{"path":"a"}'),
    )
    names = [c[1] for c in _calls(msg)]
    assert names == ["ls", "read"]
    assert [c[2] for c in _calls(msg)] == [{"path": "."}, {"path": "a"}]


@pytest.mark.anyio
async def test_replayed_request_carries_the_whole_name(monkeypatch: pytest.MonkeyPatch) -> None:
    msg = await _run(monkeypatch, _tc(0, "call_1", "get_", ""), _tc(0, None, "weather", "{}"))
    requests: list[httpx.Request] = []
    mock_reads(monkeypatch, [chat_sse({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})],
               requests=requests)
    from pi_tui.ai.types import TextContent, ToolResultMessage

    history = [UserMessage(content="go"), msg,
               ToolResultMessage(tool_call_id="call_1", tool_name="get_weather", content=[TextContent(text="x")])]
    s = openai_completions.stream(MODEL, Context(messages=history), StreamOptions())
    await s.result()
    body = json.loads(requests[0].content)
    assert body["messages"][1]["tool_calls"][0]["function"]["name"] == "get_weather"
