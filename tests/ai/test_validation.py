"""Tool argument validation (pi-reference §1.16, §4.2 validation.test.ts).

``data/validation_cases.json`` records, for 105 schema/argument pairs, the result or the exact error message of
the real pi-ai 0.73.1 ``validateToolArguments`` (``data/gen_validation_cases.mjs``).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.types import Tool, ToolCall
from pi_tui.ai.validation import (
    ToolNotFoundError,
    ToolValidationError,
    validate_tool_arguments,
    validate_tool_call,
)

CASES = json.loads((Path(__file__).parent / "data" / "validation_cases.json").read_text(encoding="utf-8"))
PI_0_84_RESULTS = {"anyOf coercion number": {"v": "5"}}
"""Recorded cases whose result pi 0.84.0 changed (#7328: a value matching a union arm is kept; DIFFERENCES PF7)."""


def _call(args: Any, name: str = "t") -> ToolCall:
    # model_construct: a few recorded cases pass non-object arguments on purpose.
    return ToolCall.model_construct(type="toolCall", id="c", name=name, arguments=args)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_matches_pi(case: dict[str, Any]) -> None:
    tool = Tool(name="t", parameters=case["schema"])
    if case["ok"]:
        result = validate_tool_arguments(tool, _call(case["args"]))
        expected = PI_0_84_RESULTS.get(case["name"], case["result"])
        assert result == expected
        assert json.dumps(result) == json.dumps(expected)  # same types (bool vs int, str vs number)
    else:
        with pytest.raises(ToolValidationError) as info:
            validate_tool_arguments(tool, _call(case["args"]))
        assert str(info.value) == case["error"]


def _schema(prop: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": {"v": prop}}


@pytest.mark.parametrize(
    ("prop", "given", "expected"),
    [
        ({"type": "number"}, "42", 42),
        ({"type": "number"}, True, 1),
        ({"type": "number"}, None, 0),
        ({"type": "boolean"}, "true", True),
        ({"type": "boolean"}, 1, True),
        ({"type": "string"}, None, ""),
        ({"type": "string"}, True, "true"),
        ({"type": "null"}, "", None),
        ({"type": "null"}, 0, None),
        ({"type": "null"}, False, None),
        ({"type": ["number", "string"]}, "1", "1"),
        ({"type": ["boolean", "number"]}, "1", 1),
    ],
)
def test_coercion_table(prop: dict[str, Any], given: Any, expected: Any) -> None:
    result = validate_tool_arguments(Tool(name="t", parameters=_schema(prop)), _call({"v": given}))
    assert result == {"v": expected}
    assert type(result["v"]) is type(expected)


@pytest.mark.parametrize(
    ("prop", "given", "message"),
    [
        ({"type": "boolean"}, "1", "must be boolean"),
        ({"type": "boolean"}, "0", "must be boolean"),
        ({"type": "null"}, "null", "must be null"),
        ({"type": "integer"}, "42.1", "must be integer"),
    ],
)
def test_rejections(prop: dict[str, Any], given: Any, message: str) -> None:
    with pytest.raises(ToolValidationError) as info:
        validate_tool_arguments(Tool(name="t", parameters=_schema(prop)), _call({"v": given}))
    assert str(info.value) == (
        f'Validation failed for tool "t":\n  - v: {message}\n\nReceived arguments:\n{{\n  "v": {json.dumps(given)}\n}}'
    )
    assert info.value.errors == [("v", message)]


CALCULATE = Tool(
    name="calculate",
    description="Evaluate a binary arithmetic expression such as '123 * 456'.",
    parameters={
        "type": "object",
        "required": ["expression"],
        "properties": {
            "expression": {"type": "string", "description": "Expression of the form '<number> <op> <number>'"}
        },
    },
)


def test_trace_invalid_arguments_texts() -> None:
    """The two messages of pi-traces/agent/invalid-arguments.json."""
    with pytest.raises(ToolValidationError) as missing:
        validate_tool_call([CALCULATE], ToolCall(id="call-1", name="calculate", arguments={"expr": "1 + 1"}))
    assert str(missing.value) == (
        'Validation failed for tool "calculate":\n  - expression: must have required properties expression\n\n'
        'Received arguments:\n{\n  "expr": "1 + 1"\n}'
    )
    with pytest.raises(ToolValidationError) as wrong:
        validate_tool_call(
            [CALCULATE], ToolCall(id="call-2", name="calculate", arguments={"expression": {"left": 1}})
        )
    assert str(wrong.value) == (
        'Validation failed for tool "calculate":\n  - expression: must be string\n\n'
        'Received arguments:\n{\n  "expression": {\n    "left": 1\n  }\n}'
    )


def test_tool_not_found() -> None:
    with pytest.raises(ToolNotFoundError) as info:
        validate_tool_call([CALCULATE], ToolCall(id="x", name="launch_rockets", arguments={}))
    assert str(info.value) == 'Tool "launch_rockets" not found'
    assert isinstance(info.value, ValueError)


def test_arguments_are_deep_copied() -> None:
    tool = Tool(
        name="t",
        parameters={
            "type": "object",
            "properties": {"o": {"type": "object", "properties": {"n": {"type": "number"}}}},
        },
    )
    call = ToolCall(id="c", name="t", arguments={"o": {"n": "5"}})
    before = copy.deepcopy(call.arguments)
    result = validate_tool_call([tool], call)
    assert result == {"o": {"n": 5}}
    assert call.arguments == before
    result["o"]["n"] = 9
    assert call.arguments == before


def test_received_arguments_show_original_values_not_coerced() -> None:
    tool = Tool(
        name="t", parameters={"type": "object", "properties": {"n": {"type": "integer", "enum": [1, 2]}}}
    )
    with pytest.raises(ToolValidationError) as info:
        validate_tool_arguments(tool, ToolCall(id="c", name="t", arguments={"n": "3"}))
    assert str(info.value).endswith('Received arguments:\n{\n  "n": "3"\n}')


def test_invalid_schema_is_a_clear_error() -> None:
    tool = Tool(name="t", parameters={"type": "object", "properties": {"n": {"type": "no-such-type"}}})
    with pytest.raises(ToolValidationError) as info:
        validate_tool_arguments(tool, ToolCall(id="c", name="t", arguments={"n": 1}))
    assert str(info.value).startswith('Invalid parameter schema for tool "t": ')


def test_validator_cache_reused_for_equal_schemas() -> None:
    from pi_tui.ai import validation

    validation._compiled.cache_clear()
    schema = {"type": "object", "properties": {"a": {"type": "string"}}}
    for _ in range(3):
        validate_tool_arguments(Tool(name="t", parameters=copy.deepcopy(schema)), _call({"a": "x"}))
    info = validation._compiled.cache_info()
    assert info.misses == 1 and info.hits == 2
