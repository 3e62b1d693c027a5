"""Mistral's tool-call id rule: exactly 9 letters or digits (issue 10, class 4).

Real reports: ``Tool call id was call_0fypS1hVX but must be a-z, A-Z, 0-9, with a length of 9`` (gptel#1203,
avante.nvim#2951), ``...was 38f04d9ea185424a8dc6ed9a88da5...`` (magentic#276), a UUID id (mistral-vibe#1075),
and vLLM/MLX servers with a Mistral tokenizer rejecting ``call_49c89af0`` made by the server itself
(jundot/omlx#1995). pi-tui sends Mistral through openai-completions, so a session that switched from another
model, or a call that came without an id, failed on the next request. Ids are now mapped when the request
is built; the session keeps the originals and every result still matches its call.
"""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_tui.ai.options import StreamOptions
from pi_tui.ai.providers import openai_completions
from pi_tui.ai.providers._tool_call_ids import mistral_tool_call_ids
from pi_tui.ai.providers.openai_compat import resolve_completions_compat
from pi_tui.ai.providers.openai_completions import convert_messages
from pi_tui.ai.types import (
    AssistantMessage,
    Context,
    Model,
    TextContent,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from tests.ai.helpers import chat_sse, mock_reads

VALID = re.compile(r"^[A-Za-z0-9]{9}$")
MISTRAL = Model(id="devstral-medium-latest", api="openai-completions", provider="mistral",
                base_url="https://api.mistral.ai/v1", compat={"supportsStore": False})
VLLM_MISTRAL = Model(id="mistralai/Devstral-Small-2505", api="openai-completions", provider="vllm",
                     base_url="http://127.0.0.1:8000/v1")
OPENAI = Model(id="gpt-x", api="openai-completions", provider="openai", base_url="https://api.openai.com/v1")


def _turn(provider: str, model_id: str, ids: list[str]) -> list[Any]:
    calls = [ToolCall(id=i, name="read", arguments={"path": f"f{n}"}) for n, i in enumerate(ids)]
    msgs: list[Any] = [AssistantMessage(content=calls, api="openai-completions", provider=provider,
                                        model=model_id, stop_reason="toolUse")]
    msgs += [ToolResultMessage(tool_call_id=i, tool_name="read", content=[TextContent(text=f"r{n}")])
             for n, i in enumerate(ids)]
    return msgs


HISTORY: list[Any] = [
    UserMessage(content="go"),
    *_turn("anthropic", "claude-x", ["toolu_01A09q90qw90lq917835lq9"]),
    *_turn("openai", "gpt-x", ["call_PTLP8xhu3uwZk4l3nlnrrJha", "call_0fypS1hVX"]),
    *_turn("mistral", "devstral-medium-latest", ["ee61e87d-25d8-4bad-8e47-02939eb234c5", "Ab3dE6gH9"]),
    UserMessage(content="next"),
]


def _pairs(out: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
    calls = [c["id"] for m in out if m["role"] == "assistant" for c in m.get("tool_calls") or []]
    results = [m["tool_call_id"] for m in out if m["role"] == "tool"]
    return calls, results


@pytest.mark.parametrize("model", [MISTRAL, VLLM_MISTRAL], ids=["mistral-api", "vllm-devstral"])
def test_every_id_sent_to_mistral_is_nine_letters_or_digits_and_results_match(model: Model) -> None:
    out = convert_messages(model, Context(messages=HISTORY), resolve_completions_compat(model))
    calls, results = _pairs(out)
    assert len(calls) == 5 and all(VALID.match(i) for i in calls), calls
    assert results == calls  # each result carries exactly its call's id, in order
    assert len(set(calls)) == 5
    assert "Ab3dE6gH9" in calls  # a valid id is kept
    # deterministic: the same history maps the same way in the next request, and a longer one keeps the prefix
    again = convert_messages(model, Context(messages=HISTORY + _turn(model.provider, model.id, ["x"])),
                             resolve_completions_compat(model))
    assert _pairs(again)[0][:5] == calls


def test_session_keeps_its_original_ids() -> None:
    before = [m.model_dump() for m in HISTORY]
    convert_messages(MISTRAL, Context(messages=HISTORY), resolve_completions_compat(MISTRAL))
    assert [m.model_dump() for m in HISTORY] == before


def test_other_endpoints_keep_ids_as_pi_does() -> None:
    out = convert_messages(OPENAI, Context(messages=HISTORY), resolve_completions_compat(OPENAI))
    assert "call_PTLP8xhu3uwZk4l3nlnrrJha" in _pairs(out)[0]
    off = MISTRAL.model_copy(update={"compat": {"toolCallIdFormat": None}})
    assert resolve_completions_compat(off).tool_call_id_format == "mistral"  # null = auto-detected
    plain = OPENAI.model_copy(update={"compat": {"toolCallIdFormat": "mistral"}})
    assert all(VALID.match(i) for i in _pairs(convert_messages(plain, Context(messages=HISTORY),
                                                                resolve_completions_compat(plain)))[0])


@pytest.mark.anyio
async def test_a_call_without_id_from_the_server_still_matches_on_the_next_request(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tc = {"index": 0, "type": "function", "function": {"name": "ls", "arguments": "{}"}}
    first = chat_sse({"choices": [{"index": 0, "delta": {"tool_calls": [tc]}, "finish_reason": "tool_calls"}]})
    requests: list[httpx.Request] = []
    mock_reads(monkeypatch, [first], requests=requests)
    msg = await openai_completions.stream(MISTRAL, Context(messages=[UserMessage(content="go")]),
                                          StreamOptions(api_key="k")).result()
    made_up = msg.content[0].id
    assert made_up.startswith("call_")  # the session keeps pi-tui's own id
    history = [UserMessage(content="go"), msg,
               ToolResultMessage(tool_call_id=made_up, tool_name="ls", content=[TextContent(text="a")])]
    await openai_completions.stream(MISTRAL, Context(messages=history), StreamOptions(api_key="k")).result()
    body = json.loads(requests[-1].content)
    sent_call = body["messages"][1]["tool_calls"][0]["id"]
    assert VALID.match(sent_call) and body["messages"][2]["tool_call_id"] == sent_call


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.lists(st.text(min_size=0, max_size=40), min_size=1, max_size=30))
def test_mapping_is_valid_injective_and_prefix_stable(ids: list[str]) -> None:
    mapping = mistral_tool_call_ids(ids)
    assert set(mapping) == set(ids)
    assert all(VALID.match(v) for v in mapping.values())
    assert len(set(mapping.values())) == len(mapping)
    prefix = mistral_tool_call_ids(ids[: len(ids) // 2])
    assert all(mapping[k] == v for k, v in prefix.items())
