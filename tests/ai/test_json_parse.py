"""Streaming JSON parsing (pi-reference §1.17)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_tui.ai.json_parse import is_complete_json, parse_json_with_repair, parse_streaming_json, repair_json


def test_repair_escapes_raw_control_characters_inside_strings_only() -> None:
    assert repair_json('{"a":"x\ny\tz\x01"}') == '{"a":"x\\ny\\tz\\u0001"}'
    assert repair_json('{\n"a": 1\n}') == '{\n"a": 1\n}'


def test_repair_keeps_valid_escapes_and_doubles_invalid_ones() -> None:
    assert repair_json(r'{"a":"\d+\"q\" \u00e9 \uZZ"}') == r'{"a":"\\d+\"q\" \u00e9 \\uZZ"}'
    assert repair_json('{"a":"end\\') == '{"a":"end\\\\'


def test_repair_returns_same_text_when_nothing_to_fix() -> None:
    text = '{"a":"b\\n"}'
    assert repair_json(text) is text


def test_parse_json_with_repair() -> None:
    assert parse_json_with_repair('{"p":"C:\\dir"}') == {"p": "C:\\dir"}
    with pytest.raises(ValueError):
        parse_json_with_repair('{"a":')


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", {}),
        ("   ", {}),
        ('{"a": 1}', {"a": 1}),
        ('{"path":"a.txt","content":"line one\\nline tw', {"path": "a.txt", "content": "line one\nline tw"}),
        ('{"a": [1, 2', {"a": [1, 2]}),
        ('{"a": "x\ny', {"a": "x\ny"}),
        ("[1, 2]", {}),
        ('"just a string"', {}),
        ("not json at all", {}),
        ('{"a": "\\d"}', {"a": "\\d"}),
    ],
)
def test_parse_streaming_json(text: str, expected: dict[str, object]) -> None:
    assert parse_streaming_json(text) == expected


def test_is_complete_json() -> None:
    assert is_complete_json("{}")
    assert is_complete_json('{"a":"x\ny"}')
    assert not is_complete_json('{"a":')


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.text(max_size=8), json_values, max_size=5), st.data())
def test_every_prefix_parses_to_a_dict_and_the_whole_round_trips(
    obj: dict[str, object], data: st.DataObject
) -> None:
    text = json.dumps(obj)
    cut = data.draw(st.integers(min_value=0, max_value=len(text)))
    assert isinstance(parse_streaming_json(text[:cut]), dict)
    assert parse_streaming_json(text) == obj
