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


def _reference_repair(text: str) -> str:
    """Character-by-character statement of the §1.17 rule, to check the regex implementation against."""
    out: list[str] = []
    in_string = False
    i = 0
    controls = {"\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
    while i < len(text):
        c = text[i]
        if not in_string:
            out.append(c)
            in_string = c == '"'
            i += 1
        elif c == '"':
            out.append(c)
            in_string = False
            i += 1
        elif c == "\\":
            nxt = text[i + 1 : i + 2]
            hex4 = text[i + 2 : i + 6]
            if nxt == "u" and len(hex4) == 4 and all(h in "0123456789abcdefABCDEF" for h in hex4):
                out.append(text[i : i + 6])
                i += 6
            elif nxt and nxt in '"\\/bfnrt':
                out.append(text[i : i + 2])
                i += 2
            else:
                out.append("\\\\")
                i += 1
        elif ord(c) < 0x20:
            out.append(controls.get(c) or f"\\u{ord(c):04x}")
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(list('{}[]:,"\\ abnu0f9\n\t\x01')), max_size=40))
def test_repair_matches_the_reference_rule_inside_strings(text: str) -> None:
    # Outside strings the regex version may double a (necessarily invalid) backslash; compare texts
    # whose backslashes all sit inside string literals, i.e. where the reference rule is defined.
    ref = _reference_repair(text)
    got = repair_json(text)
    if got != ref:
        # the only allowed difference: backslashes outside string literals
        assert "\\" in text
        in_string = False
        escaped = False
        for c in text:
            if in_string:
                if escaped:
                    escaped = False
                elif c == "\\":
                    escaped = True
                elif c == '"':
                    in_string = False
            elif c == '"':
                in_string = True
            elif c == "\\":
                return
        raise AssertionError(f"{text!r}: {got!r} != {ref!r}")
