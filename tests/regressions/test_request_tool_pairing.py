"""Every request is valid for its provider, whatever the history holds (issue 10, class 6).

Real reports this class comes from (each case below names its source):
- letta-ai/letta-code#578, LionSR/TeXRA#7163: an interrupted parallel batch leaves fewer results than calls;
- earendil-works/pi#8667: a compaction summary rendered between a tool call and its result: pi inserted a
  synthetic "No result provided" and the real result two messages later became an orphan, "400 unexpected
  tool_use_id found in tool_result blocks" on every later turn;
- openclaw/openclaw#4739, anthropics/claude-code#24670: compaction pruned the tool call but kept its result;
- anomalyco/opencode#5750: text or thinking after the tool_use inside the assistant message;
- hand-damaged / double-written files: a result twice, a result with an id no call has, a result of a failed
  (dropped) assistant turn, a call id reused by a later turn.

Each history goes through the real converter of all four APIs and must satisfy that API's pairing rules
(tests/regressions/pairing_rules.py). A hypothesis property then throws arbitrary histories at them.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_tui.ai.providers import _anthropic_convert, _google_shared, _openai_completions_convert
from pi_tui.ai.providers._responses_shared import convert_responses_messages
from pi_tui.ai.providers.openai_compat import detect_completions_compat
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
from pi_tui.coding.session.session_manager import SessionManager

from ..coding.session_core.helpers import make_session
from . import session_lines as lines
from .pairing_rules import (
    anthropic_violations,
    completions_violations,
    google_violations,
    responses_violations,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))
from mock_llm_server import MockLlmServer  # noqa: E402

APIS = ["openai-completions", "anthropic-messages", "openai-responses", "google-generative-ai"]


def _model(api: str) -> Model:
    return Model(id="m", api=api, provider="p", base_url="http://127.0.0.1:9/v1", max_tokens=1024)


def _assistant(*blocks: Any, stop: str = "toolUse", api: str = "openai-completions") -> AssistantMessage:
    content = [TextContent(text=b) if isinstance(b, str) else b for b in blocks]
    return AssistantMessage(content=content, api=api, provider="p", model="m", stop_reason=stop)  # type: ignore[arg-type]


def _call(call_id: str, name: str = "bash") -> ToolCall:
    return ToolCall(id=call_id, name=name, arguments={"command": call_id})


def _result(call_id: str, name: str = "bash", text: str | None = None) -> ToolResultMessage:
    return ToolResultMessage(tool_call_id=call_id, tool_name=name, content=[TextContent(text=text or f"out {call_id}")])


def _user(text: str) -> UserMessage:
    return UserMessage(content=[TextContent(text=text)])


def convert(api: str, messages: list[Any]) -> list[dict[str, Any]]:
    """The request messages/items/contents the real converter of ``api`` builds from ``messages``."""
    model = _model(api)
    messages = [m.model_copy(update={"api": api}) if isinstance(m, AssistantMessage) else m for m in messages]
    context = Context(system_prompt="s", messages=messages)
    if api == "anthropic-messages":
        return _anthropic_convert.convert_messages(list(messages), model, False, None)
    if api == "openai-completions":
        return _openai_completions_convert.convert_messages(model, context, detect_completions_compat(model))
    if api == "openai-responses":
        return convert_responses_messages(model, context)
    return _google_shared.convert_messages(model, context)


VALIDATORS: dict[str, Callable[[list[dict[str, Any]]], list[str]]] = {
    "anthropic-messages": anthropic_violations,
    "openai-completions": completions_violations,
    "openai-responses": responses_violations,
    "google-generative-ai": google_violations,
}


def _sent_results(api: str, converted: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(id or name, text) of every tool result in the converted request, in order."""
    out: list[tuple[str, str]] = []
    for item in converted:
        if api == "openai-completions" and item["role"] == "tool":
            out.append((item["tool_call_id"], item["content"]))
        elif api == "openai-responses" and item.get("type") == "function_call_output":
            out.append((item["call_id"], item["output"]))
        elif api == "anthropic-messages" and isinstance(item.get("content"), list):
            for block in item["content"]:
                if block.get("type") == "tool_result":
                    text = block["content"] if isinstance(block["content"], str) else block["content"][0]["text"]
                    out.append((block["tool_use_id"], text))
        elif api == "google-generative-ai":
            for part in item["parts"]:
                if "functionResponse" in part:
                    response = part["functionResponse"]["response"]
                    out.append((part["functionResponse"]["name"], response.get("output") or response.get("error")))
    return out


CASES: dict[str, Callable[[], list[Any]]] = {
    # letta-code#578 / TeXRA#7163: crash or abort in a parallel batch, then the user goes on
    "interrupted_parallel_batch": lambda: [
        _user("run"), _assistant("ok", _call("a"), _call("b"), _call("c")), _result("b"), _user("hello"),
    ],
    # pi#8667: a compaction summary (a user message for the LLM) between the call and its result
    "summary_between_call_and_result": lambda: [
        _user("go"), _assistant(_call("x")), _user("<summary>earlier work</summary>"), _result("x"),
        _assistant("done", stop="stop"), _user("next"),
    ],
    # openclaw#4739 / claude-code#24670: the call was compacted away, its result was kept
    "result_whose_call_was_compacted": lambda: [
        _user("<summary>...</summary>"), _result("gone"), _assistant("continuing", stop="stop"), _user("next"),
    ],
    # opencode#5750: text and thinking after the tool_use in the same assistant message
    "text_after_tool_use": lambda: [
        _user("go"), _assistant(_call("x"), "trailing text", ThinkingContent(thinking="late thought")), _result("x"),
    ],
    # a double-written file: the same result twice
    "duplicate_result": lambda: [_user("go"), _assistant(_call("x")), _result("x"), _result("x"), _user("more")],
    # a hand-edited file: a result whose id no call has
    "result_with_unknown_id": lambda: [_user("go"), _assistant(_call("x")), _result("x"), _result("zzz")],
    # a failed turn is dropped from the request: its results must go too
    "result_of_a_failed_turn": lambda: [
        _user("go"), _assistant(_call("x"), stop="error"), _result("x"), _user("again"),
    ],
    # local servers that number calls per response reuse ids across turns
    "call_id_reused_by_a_later_turn": lambda: [
        _user("go"), _assistant(_call("call_0")), _result("call_0", text="first"),
        _assistant(_call("call_0")), _result("call_0", text="second"), _user("next"),
    ],
    # a steering message persisted between two results of one batch
    "user_between_results": lambda: [
        _user("go"), _assistant(_call("x"), _call("y")), _result("x"), _user("steer"), _result("y"),
    ],
    # results written in completion order, out of call order
    "results_out_of_call_order": lambda: [
        _user("go"), _assistant(_call("a", "read"), _call("b", "ls")), _result("b", "ls"), _result("a", "read"),
    ],
    # two turns whose results all came after the second one
    "results_after_the_next_turn": lambda: [
        _user("go"), _assistant(_call("x")), _assistant(_call("y")), _result("x"), _result("y"),
    ],
    # a result before any assistant message at all
    "result_first": lambda: [_result("x"), _user("hi")],
    # the same call id twice inside one assistant message
    "repeated_id_in_one_message": lambda: [
        _user("go"), _assistant(_call("x", "read"), _call("x", "ls")), _result("x", "read"), _result("x", "ls"),
    ],
}


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_history_is_repaired_into_a_valid_request(api: str, case: str) -> None:
    converted = convert(api, CASES[case]())
    assert VALIDATORS[api](converted) == []


@pytest.mark.parametrize("api", APIS)
def test_real_results_are_kept_and_sent_in_call_order(api: str) -> None:
    sent = _sent_results(api, convert(api, CASES["interrupted_parallel_batch"]()))
    key = (lambda i, name: name) if api == "google-generative-ai" else (lambda i, name: i)
    assert [k for k, _ in sent] == [key("a", "bash"), key("b", "bash"), key("c", "bash")]
    assert sent[1][1] == "out b"  # the real output, not a placeholder
    sent = _sent_results(api, convert(api, CASES["summary_between_call_and_result"]()))
    assert [text for _, text in sent] == ["out x"]  # pi#8667: the real result is used, no synthetic one
    sent = _sent_results(api, convert(api, CASES["results_out_of_call_order"]()))
    assert [text for _, text in sent] == ["out a", "out b"]
    sent = _sent_results(api, convert(api, CASES["call_id_reused_by_a_later_turn"]()))
    assert [text for _, text in sent] == ["first", "second"]


def test_repairs_are_logged_and_the_input_is_untouched(caplog: pytest.LogCaptureFixture) -> None:
    history = CASES["summary_between_call_and_result"]()
    before = [m.model_dump() for m in history]
    with caplog.at_level(logging.WARNING, logger="pi_tui.ai.tool_pairing"):
        convert("anthropic-messages", history)
    assert [m.model_dump() for m in history] == before
    assert any("moved" in r.getMessage() and "x" in r.getMessage() for r in caplog.records)


# ------------------------------------------------------------------ property: any history at all

_IDS = ["a", "b", "c", ""]
_message = st.one_of(
    st.builds(lambda t: _user(t), st.sampled_from(["hi", "steer", "<summary>s</summary>"])),
    st.builds(
        lambda ids, stop, text_after: _assistant(
            *[_call(i, f"t{n}") for n, i in enumerate(ids)], *(["after"] if text_after else []), stop=stop
        ),
        st.lists(st.sampled_from(_IDS), max_size=3),
        st.sampled_from(["toolUse", "stop", "error", "aborted", "length"]),
        st.booleans(),
    ),
    st.builds(lambda i, n: _result(i, f"t{n}"), st.sampled_from(_IDS), st.integers(0, 2)),
)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(history=st.lists(_message, max_size=10), api=st.sampled_from(APIS))
def test_any_history_converts_into_a_valid_request(history: list[Any], api: str) -> None:
    assert VALIDATORS[api](convert(api, history)) == []


# ------------------------------------------------------------------ end to end: a damaged pi file, a real request


def _pi8667_file(path: Path) -> bytes:
    """pi#8667's shape: a compaction appended while a call was in flight (between the call and its result),
    then a later compaction keeping the entries before it, so its summary renders mid-pair; then a parallel
    batch cut short by a crash (results b only, in completion order)."""
    return lines.write(path, [
        lines.header(),
        lines.entry("u1", None, lines.user("start")),
        lines.entry("a1", "u1", lines.assistant(("x", "echo"))),
        lines.compaction("c1", "a1", "u1", "FIRST SUMMARY"),
        lines.entry("r1", "c1", lines.result("x", "echo", "real x")),
        lines.entry("a2", "r1", lines.assistant("fine", stop="stop")),
        lines.compaction("c2", "a2", "u1", "SECOND SUMMARY"),
        lines.entry("u2", "c2", lines.user("batch")),
        lines.entry("a3", "u2", lines.assistant(("a", "echo"), ("b", "echo"), ("c", "echo"))),
        lines.entry("rb", "a3", lines.result("b", "echo", "real b")),
    ])


def _loopback_model(api: str, port: int) -> Model:
    base = f"http://127.0.0.1:{port}" + ("/v1beta" if api == "google-generative-ai" else "" if api == "anthropic-messages" else "/v1")
    return Model(id="mock-model", api=api, provider="mock", base_url=base, max_tokens=1024)


@pytest.mark.parametrize("api", APIS)
def test_damaged_pi_file_gives_a_valid_request_and_stays_unchanged(
    tmp_path: Path, api: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "damaged.jsonl"
    original = _pi8667_file(path)
    script = [{"type": "text", "text": "hi back"}] if api in ("openai-completions", "anthropic-messages") else [
        {"type": "http_error", "status": 400, "body": {"error": {"message": "recorded only"}}}
    ]
    with MockLlmServer(script) as server, caplog.at_level(logging.WARNING, logger="pi_tui.ai.tool_pairing"):
        session = make_session(tmp_path, _loopback_model(api, server.port), manager=SessionManager.open(path))
        asyncio.run(session.prompt("hello"))
        body = server.requests[0]["body"]
    converted = body.get("messages") or body.get("input") or body.get("contents")
    if api == "openai-completions":
        converted = [m for m in converted if m["role"] != "system"]
    assert VALIDATORS[api](converted) == []
    sent = _sent_results(api, converted)
    assert [text for _, text in sent] == ["real x", "No result provided", "real b", "No result provided"]
    assert path.read_bytes().startswith(original)  # the stored session is never repaired, only appended to
    assert any("request history repaired" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("api", APIS)
def test_ids_that_collide_after_normalisation_stay_distinct(api: str) -> None:
    """Found while trying to break the class: two Responses-style ids from another provider, 'fc.1|item/1' and
    'fc:1|item/2', both become 'fc_1' for Chat Completions (pi's normaliser keeps the part before '|'), and the
    request carried the same tool call id twice."""
    calls = [ToolCall(id="fc.1|item/1", name="bash", arguments={}), ToolCall(id="fc:1|item/2", name="bash", arguments={})]
    foreign = AssistantMessage(content=calls, api="openai-responses", provider="other", model="o", stop_reason="toolUse")
    history = [_user("go"), foreign, _result("fc.1|item/1", text="one"), _result("fc:1|item/2", text="two"), _user("next")]
    converted = convert(api, history)
    assert VALIDATORS[api](converted) == []
    assert [text for _, text in _sent_results(api, converted)] == ["one", "two"]
