"""Tool-call arguments against pi's fixes after 0.73.1 (tests/conformance/PI_FIXES.md).

- pi 0.84.0 (#7328): a value that already matches one arm of an ``anyOf``/``oneOf`` union was coerced by the
  first arm it could be coerced to: a nullable string got ``""`` for ``null``, a nullable number ``0``, a
  ``string | integer`` field turned ``"5"`` into ``5``. A value that matches an arm is kept; only one that
  matches none is coerced (first arm whose coerced copy validates, as before).
- pi 0.83.0 (#7288): OpenAI-compatible deltas that carry an empty ``custom`` object beside ``function`` lost the
  function's arguments. pi-tui reads ``function`` and ignores ``custom``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from pi_tui.ai.options import StreamOptions
from pi_tui.ai.providers import openai_completions
from pi_tui.ai.types import Context, Model, Tool, ToolCall, UserMessage
from pi_tui.ai.validation import coerce_with_json_schema, validate_tool_arguments
from tests.ai.helpers import chat_sse, mock_reads


@pytest.mark.parametrize(
    ("schema", "value", "expected"),
    [
        ({"anyOf": [{"type": "string"}, {"type": "null"}]}, None, None),
        ({"oneOf": [{"type": "number"}, {"type": "null"}]}, None, None),
        ({"anyOf": [{"type": "boolean"}, {"type": "null"}]}, None, None),
        ({"anyOf": [{"type": "integer"}, {"type": "string"}]}, "5", "5"),
        ({"oneOf": [{"type": "string"}, {"type": "integer"}]}, 5, 5),
        # a value matching no arm is still coerced by the first arm that takes it
        ({"anyOf": [{"type": "integer"}, {"type": "boolean"}]}, "5", 5),
        ({"anyOf": [{"type": "string"}, {"type": "null"}]}, 12, "12"),
        ({"anyOf": [{"type": "object", "properties": {"n": {"type": "integer"}}}, {"type": "null"}]},
         {"n": "3"}, {"n": 3}),
    ],
)
def test_a_value_matching_a_union_arm_is_kept(schema: dict[str, Any], value: Any, expected: Any) -> None:
    assert coerce_with_json_schema(value, schema) == expected


def test_nullable_tool_parameters_keep_null() -> None:
    tool = Tool(name="t", description="", parameters={
        "type": "object",
        "properties": {
            "label": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "count": {"oneOf": [{"type": "integer"}, {"type": "null"}]},
            "ref": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
        },
    })
    call = ToolCall(id="c", name="t", arguments={"label": None, "count": None, "ref": "0042"})
    assert validate_tool_arguments(tool, call) == {"label": None, "count": None, "ref": "0042"}


MODEL = Model(id="m", api="openai-completions", provider="compat", base_url="http://127.0.0.1:8000/v1")


def _chunk(tc: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"choices": [{"index": 0, "delta": {"tool_calls": [tc]}, "finish_reason": finish}]}


@pytest.mark.anyio
async def test_deltas_with_an_empty_custom_object_keep_the_function_arguments(monkeypatch: pytest.MonkeyPatch) -> None:
    args = json.dumps({"path": "src/app.py", "limit": 20})
    chunks = [
        _chunk({"index": 0, "id": "call_1", "type": "function", "custom": {},
                "function": {"name": "read", "arguments": ""}}),
        _chunk({"index": 0, "custom": {}, "function": {"arguments": args[:10]}}),
        _chunk({"index": 0, "custom": {}, "function": {"arguments": args[10:]}}),
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
    ]
    mock_reads(monkeypatch, [chat_sse(*chunks)])
    stream = openai_completions.stream(MODEL, Context(messages=[UserMessage(content="go")]), StreamOptions())
    _ = [event async for event in stream]
    message = await stream.result()
    calls = [(b.id, b.name, b.arguments) for b in message.content if b.type == "toolCall"]
    assert calls == [("call_1", "read", {"path": "src/app.py", "limit": 20})]
    assert message.stop_reason == "toolUse"
